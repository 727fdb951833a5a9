// What the webhook engine needs from the rest of the house, and its clock job (core/scope.ts).
// Its intake is the whole event feed the runtime offers: every event a family declares that is
// not internal (and any the control plane triggers) reaches it, so a family's new subscribable
// event needs no change here. It imports no family: account webhooks register themselves as
// subscribers (`targets.useWebhooks`), the numbers' webhook settings are read through a port,
// and the accounts' ids go into the snapshot's signing keys.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { ReceiverPolicy } from './receiver-policy.ts';
import type { DeliveryMethod } from './schema.ts';

/** The whole feed: hears every event that is not internal, in order with every other listener; the control plane's trigger announces any event on it. */
export interface EventFeed {
  subscribe(listener: (event: DomainEvent) => void): () => void;
  emit(event: DomainEvent): void;
}

/** The accounts: every id (the snapshot lists each one's signing key), and one that exists or 404 ACCOUNT_NOT_FOUND. */
export interface EngineAccounts {
  list(): readonly { id: string }[];
  require(accountId: string): unknown;
}

/** A number's webhook settings (the numbers family offers them): `message.received` also goes there. */
export interface NumberWebhooks {
  find(number: string): { id: string; accountId: string; webhookUrl: string | null; webhookMethod: DeliveryMethod; webhookHeaders: Record<string, string> | null } | undefined;
}

export const needs = {
  eventFeed: port<EventFeed>(),
  accounts: port<EngineAccounts>(),
  numbers: port<NumberWebhooks>(),
  receiverPolicy: port<ReceiverPolicy>(),
};

export const RETRY_JOB = 'webhooks.retry';

/** Its one job kind: a delivery's next attempt falls due (names and payloads are in snapshots: keep them). */
export const jobs = {
  [RETRY_JOB]: Type.Object({ deliveryId: Type.String() }, { additionalProperties: false }),
} as const;

/** What the engine is built from. */
export type EngineModelScope = ModelScope<typeof needs, {}, typeof jobs>;
