// What the webhooks family needs from others (core/scope.ts): the webhook engine delivers what
// the account's webhooks subscribe to (the family registers its webhooks with the engine's
// targets, so the engine knows no family), keeps the attempts the delivery logs show and sends
// the test event; the receiver policy checks each URL.
import { port, type ModelScope } from '../../core/scope.ts';
import type { WebhookDirectory } from '../../peers/webhooks/targets.ts';
import type { AttemptRow, JournalFilter } from '../../peers/webhooks/schema.ts';

/** The webhook engine as account webhooks use it. */
export interface WebhookDelivery {
  /** Where the engine finds who subscribes (the model registers itself). */
  readonly targets: { useWebhooks(directory: WebhookDirectory): void };
  /** Attempts matching the filter, in the order they started (a fresh array). */
  journal(filter: JournalFilter): AttemptRow[];
  /** One attempt of the test event to the webhook, also when inactive; resolves when it is done. */
  sendTest(webhook: { id: string; accountId: string }): Promise<{ status: string; reason: string | null } | undefined>;
}

/** Checks a receiver URL given in a body and returns it normalised (400, or URL_BLOCKED in strict mode). */
export interface ReceiverCheck {
  check(url: string, field: string): string;
}

export const needs = {
  webhookEngine: port<WebhookDelivery>(),
  receiverPolicy: port<ReceiverCheck>(),
};

/** What the model is built from. */
export type WebhooksModelScope = ModelScope<typeof needs>;
