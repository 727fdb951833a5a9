// What the verifications family needs from others, its clock job, and the scope its model and
// handlers see (core/scope.ts). Codes go out through the carrier, which reports each outcome
// back to the owner "verification"; the sender is one of the account's numbers; the shared
// outbound checks (rules/outbound.ts) read number ownership, subscriptions and opt-outs.
import { Type } from '@sinclair/typebox';
import { port, type HandlerScope, type ModelScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { DeliveryRow, SubmitInput } from '../../peers/carrier.ts';
import type { NumberOwnership, RecipientBlocks, Subscriptions } from '../../rules/outbound.ts';
import type { VerificationsModel } from './model.ts';

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

export type VerificationsModelScope = ModelScope<typeof needs, {}, typeof jobs>;

/** What the verifications' handlers see: their model as `verifications`, and the ports above. */
export type VerificationsScope = HandlerScope<'verifications', VerificationsModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<VerificationsScope>();
