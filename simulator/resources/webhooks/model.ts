// Account webhook registrations (spec "Webhook registration"; shaped after the public API
// document). The model registers itself with the delivery engine (peers/webhooks), which asks it
// who subscribes to an event; this model knows nothing about delivery. The runtime snapshots
// and restores its table (the descriptor's state part).
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { sharedErrors } from '../../rules/errors.ts';
import type { WebhooksModelScope } from './ports.ts';
import {
  type CreateWebhookInput,
  type UpdateWebhookInput,
  type WebhookRow,
  WEBHOOK_IDS,
} from './schema.ts';

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
  /** The subscribable events every descriptor declares, in list order. */
  private readonly events: readonly string[];

  constructor(private readonly rt: WebhooksModelScope) {
    this.events = rt.listed.events;
    // The engine's directory of subscribers is registered by the family's `wire` (index.ts).
  }

  listFor(accountId: string): WebhookRow[] {
    return this.webhooks.newestFirst((w) => w.accountId === accountId);
  }

  /** A webhook by id, whoever owns it (the delivery engine checks the owner). */
  find(id: string): WebhookRow | undefined {
    return this.webhooks.get(id);
  }

  /** A webhook of this account; another account's webhook is 404 like an unknown one. */
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
