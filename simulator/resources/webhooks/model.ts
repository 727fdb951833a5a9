// Account webhook registrations (spec "Webhook registration"; shaped after the public API
// document). The delivery engine (peers/webhooks) asks this model who subscribes to an event;
// this model knows nothing about delivery.
import { TableState } from '../../core/table-state.ts';
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import type { Kernel } from '../../core/ports.ts';
import type { ReceiverPolicy } from '../../peers/webhooks/receiver-policy.ts';
import { sharedErrors } from '../../rules/errors.ts';
import {
  WebhooksStateSchema,
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookRow,
  WEBHOOK_IDS,
} from './schema.ts';

/** What the model uses beyond its own tables; the descriptor passes the runtime. */
export interface WebhooksPorts extends Pick<Kernel, 'clock' | 'random'> {
  receiverPolicy: Pick<ReceiverPolicy, 'check'>;
}

export const webhookErrors = {
  WEBHOOK_NOT_FOUND: defineError({
    code: 'webhook_not_found', status: 404, origin: 'reference',
    description: 'No webhook with this id in the account (reference: 404 on updateWebhook, deleteWebhook, listWebhookLogs, testWebhook).',
  }),
  UNKNOWN_EVENT: defineError({
    code: 'UNKNOWN_EVENT', status: 400, origin: 'simulator',
    description: 'An entry of `events` is not an event name a webhook can subscribe to; the message lists the known names.',
  }),
  /** Shared with numbers: a PUT whose body has no field. */
  NOTHING_TO_UPDATE: sharedErrors.NOTHING_TO_UPDATE,
};

/** Checks event names against the subscribable ones and keeps each once, in the order given. */
function checkEvents(events: readonly string[], known: readonly string[]): string[] {
  const unknown = events.map((e, i) => ({ e, i })).filter(({ e }) => !known.includes(e));
  if (unknown.length > 0) {
    throw webhookErrors.UNKNOWN_EVENT(
      `unknown event ${unknown.map(({ e }) => `"${e}"`).join(', ')}; known events: ${known.join(', ')}`,
      { errors: unknown.map(({ e, i }) => ({ path: `events[${i}]`, message: `unknown event "${e}"` })) },
    );
  }
  return [...new Set(events)];
}

export class WebhooksModel {
  readonly webhooks = new Table<WebhookRow>(); // maps a webhook id to its URL, events, state and owner

  // Snapshot, restore and reset of the tables above (core/table-state.ts).
  private readonly state = new TableState(WebhooksStateSchema, 'webhooks', { webhooks: this.webhooks });

  /** `events`: the subscribable events every descriptor declares (resources/index.ts). */
  constructor(
    private readonly rt: WebhooksPorts,
    private readonly events: readonly string[],
  ) {}

  listFor(accountId: string): WebhookRow[] {
    return this.webhooks.newestFirst((w) => w.accountId === accountId);
  }

  clear(): void {
    this.state.clear();
  }

  snapshot() {
    return this.state.snapshot();
  }

  restore(state: unknown): void {
    this.state.restore(state);
  }

  /** A webhook of this account; another account's webhook is 404 like an unknown one. */
  /** A webhook by id, whoever owns it (the delivery engine checks the owner). */
  find(id: string): WebhookRow | undefined {
    return this.webhooks.get(id);
  }

  get(accountId: string, id: string): WebhookRow {
    const row = this.webhooks.get(id);
    if (!row || row.accountId !== accountId) throw webhookErrors.WEBHOOK_NOT_FOUND(`no webhook ${id} in this account`);
    return row;
  }

  /** Active webhooks of the account subscribed to `event`, oldest registration first. */
  subscribers(accountId: string, event: string): WebhookRow[] {
    return this.webhooks.all().filter((w) => w.accountId === accountId && w.active && w.events.includes(event));
  }

  create(accountId: string, input: CreateWebhookInput): WebhookRow {
    const url = this.rt.receiverPolicy.check(input.url, 'url');
    const events = checkEvents(input.events, this.events);
    const id = freshId(this.rt.random, WEBHOOK_IDS.webhook, (x) => this.webhooks.has(x));
    return this.webhooks.insert({ id, accountId, url, events, active: true, createdAt: this.rt.clock.nowIso() });
  }

  /** Partial update: omitted fields keep their values. */
  update(accountId: string, id: string, input: UpdateWebhookInput): WebhookRow {
    const current = this.get(accountId, id);
    if (input.url === undefined && input.events === undefined && input.active === undefined) {
      throw webhookErrors.NOTHING_TO_UPDATE('the body has no field to update (url, events, active)');
    }
    const next: WebhookRow = { ...current };
    if (input.url !== undefined) next.url = this.rt.receiverPolicy.check(input.url, 'url');
    if (input.events !== undefined) next.events = checkEvents(input.events, this.events);
    if (input.active !== undefined) next.active = input.active;
    return this.webhooks.replace(next);
  }

  delete(accountId: string, id: string): void {
    this.get(accountId, id);
    this.webhooks.delete(id);
  }
}
