// What the verifications family needs from others, and its clock job (core/scope.ts). Codes go
// out through the carrier, which reports each outcome back to the owner "verification"; the
// sender is one of the account's numbers; the shared outbound checks (rules/outbound.ts) read
// number ownership, subscriptions and opt-outs.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { DeliveryRow, SubmitInput } from '../../peers/carrier/schema.ts';
import type { NumberOwnership, RecipientBlocks, Subscriptions } from '../../rules/outbound.ts';

/** The carrier: hands a code over, and tells the owner "verification" how each delivery ended. */
export interface CodeCarrier {
  submit(input: SubmitInput): unknown;
  onOutcome(owner: string, listener: (delivery: DeliveryRow) => void): void;
}

/** The account's numbers: who owns one, and the account's own (newest first) for the default sender. */
export interface SenderNumbers extends NumberOwnership {
  listFor(accountId: string): readonly { id: string }[];
}

export const needs = {
  carrier: port<CodeCarrier>(),
  numbers: port<SenderNumbers>(),
  accounts: port<Subscriptions>(),
  blockLists: port<RecipientBlocks>(),
};

/** Its one job kind: a pending verification expires (names and payloads are in snapshots: keep them). */
export const jobs = {
  'verifications.expire': Type.Object({ verificationId: Type.String() }, { additionalProperties: false }),
};

/** What the model is built from. */
export type VerificationsModelScope = ModelScope<typeof needs, {}, typeof jobs>;
