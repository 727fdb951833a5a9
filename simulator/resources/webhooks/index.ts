// The webhooks family: account webhooks (which events go to which URL) and their delivery logs.
// Delivering them is the webhook engine's (peers/webhooks), a peer this family needs: the model
// registers as the engine's directory of subscribers (its `wire`), so the engine needs no family.
// Behind its door: its ports are declared in ports.ts, its table is its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { WebhooksModel } from './model.ts';
import { operations } from './routes.ts';
import { needs, type WebhooksModelScope } from './ports.ts';
import { WEBHOOK_IDS, WebhooksStateSchema } from './schema.ts';
import { examples } from './examples.ts';

/** Built on first use (decisions.md "Models built on first use"): a model not built has no webhook, so nobody subscribes. */
function wire(scope: WebhooksModelScope, _model: () => WebhooksModel, ifBuilt: () => WebhooksModel | undefined): void {
  scope.webhookEngine.targets.useWebhooks({ subscribers: (accountId, type) => ifBuilt()?.subscribers(accountId, type) ?? [], find: (id) => ifBuilt()?.find(id) });
}

export const webhooks = defineFamily({
  key: 'webhooks',
  needs,
  create: (scope) => new WebhooksModel(scope),
  wire,
  state: tablesPart(WebhooksStateSchema, (m: WebhooksModel) => ({ webhooks: m.webhooks })),
  operations,
  examples,
  tags: {
    Webhooks: 'Account webhooks: which events go to which URL, their delivery logs and a test send. Deliveries are form-encoded, signed with X-Signature, and retried until a 2xx answer.',
  },
  idFormats: WEBHOOK_IDS,
});
