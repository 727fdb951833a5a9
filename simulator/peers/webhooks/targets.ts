// Who receives an event. Every event goes to the account's active webhooks subscribed to its
// type; an event type may also have routes to other receivers, registered by whoever knows
// them. `message.received` also goes to the receiving number's webhook (its webhookUrl,
// webhookMethod and webhookHeaders; numbers guide). A later producer (the `transfer` status
// callback to a call's statusCallback, say) registers its route here without touching the engine.
// Account webhooks are the webhooks family's: it registers its directory (`useWebhooks`), so the
// engine knows no family; until it does, nobody subscribes.
import type { DomainEvent } from '../../core/events.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { NumberWebhooks } from './ports.ts';
import type { DeliveryMethod, Target } from './schema.ts';

/** Extra receivers of an event beyond the subscribed account webhooks. */
export type Route = (event: DomainEvent) => Target[];

/** A target's receiver as it stands now, or why it can no longer receive. */
export type Receiver = { url: string; method: DeliveryMethod; headers: Record<string, string> } | { gone: string };

/** Account webhooks: who subscribes to an event (oldest registration first), and one webhook by id, whoever owns it. */
export interface WebhookDirectory {
  subscribers(accountId: string, type: string): readonly { id: string }[];
  find(webhookId: string): { accountId: string; url: string; active: boolean } | undefined;
}

const NO_WEBHOOKS: WebhookDirectory = { subscribers: () => [], find: () => undefined };

export class DeliveryTargets {
  private readonly routes = new Map<string, Route[]>();
  private webhooks: WebhookDirectory = NO_WEBHOOKS;

  constructor(private readonly numbers: NumberWebhooks) {
    this.route('message.received', this.numberWebhookOf('To'));
  }

  /** The account webhooks' directory (the webhooks family registers its model). */
  useWebhooks(directory: WebhookDirectory): void {
    this.webhooks = directory;
  }

  /** Adds receivers for events of `type`; routes run in registration order. */
  route(type: string, route: Route): void {
    const list = this.routes.get(type) ?? [];
    list.push(route);
    this.routes.set(type, list);
  }

  /** Every receiver of the event: subscribed webhooks (oldest first), then routed ones. */
  resolve(event: DomainEvent): Target[] {
    const subscribers = this.webhooks.subscribers(event.accountId, event.type);
    const routes = this.routes.get(event.type);
    // Most events reach nobody (a call batch ends a call every few ms): one empty list made, not five.
    if (subscribers.length === 0 && routes === undefined) return [];
    const targets: Target[] = subscribers.map((w) => ({ kind: 'webhook', webhookId: w.id }));
    if (routes !== undefined) for (const route of routes) targets.push(...route(event));
    return targets;
  }

  /** The webhook of the account's number named by `field` of the payload, when it has a URL. */
  numberWebhookOf(field: string): Route {
    return (event) => {
      const raw = event.payload[field];
      if (typeof raw !== 'string') return [];
      const n = tryNormalizePhone(raw);
      const row = n.ok ? this.numbers.find(n.number) : undefined;
      if (!row || row.accountId !== event.accountId || !row.webhookUrl) return [];
      return [{ kind: 'number', number: row.id }];
    };
  }

  /**
   * Where the target receives now. Retries follow the current settings (a corrected URL is
   * used at once); a target that was deleted, deactivated or lost its URL stops receiving.
   */
  receiver(target: Target, accountId: string, opts: { test: boolean }): Receiver {
    if (target.kind === 'url') return { url: target.url, method: target.method, headers: target.headers };
    if (target.kind === 'webhook') {
      const w = this.webhooks.find(target.webhookId);
      if (!w || w.accountId !== accountId) return { gone: 'the webhook was deleted' };
      if (!w.active && !opts.test) return { gone: 'the webhook was deactivated' };
      return { url: w.url, method: 'POST', headers: {} };
    }
    const n = this.numbers.find(target.number);
    if (!n || n.accountId !== accountId) return { gone: `number ${target.number} is no longer held by the account` };
    if (!n.webhookUrl) return { gone: `number ${target.number} has no webhookUrl any more` };
    return { url: new URL(n.webhookUrl).href, method: n.webhookMethod, headers: { ...(n.webhookHeaders ?? {}) } };
  }
}
