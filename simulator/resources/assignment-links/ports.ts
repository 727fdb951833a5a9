// What the assignment-links family needs from others, the event it emits and its clock job
// (core/scope.ts). A link needs the managed-number add-on, an active subscription and a free
// line under the plan's limit (accounts, numbers); finalize issues the number through the
// numbers family with the link's webhook settings; the customer's webhookUrl passes the receiver
// policy; the end user's identity is checked at the fake identity provider (kyc).
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { KycFailure, KycResult, KycVerification } from '../../peers/kyc/model.ts';
import type { assignmentEvents } from './events.ts';
import type { LinkRow } from './schema.ts';

/** What a link asks of its account (the accounts family offers it). */
export interface LinkAccounts {
  get(accountId: string): unknown;
  /** The account, or 404 ACCOUNT_NOT_FOUND. */
  require(accountId: string): { name: string };
  hasAddon(accountId: string, addon: string): boolean;
  subscriptionActive(accountId: string): boolean;
  plan(accountId: string): { lineLimit: number };
}

/** The account's numbers: how many it holds, issuing one for a link, and each number's holding periods. */
export interface LinkNumbers {
  listFor(accountId: string): readonly unknown[];
  /** Issues a pool number carrying the link's webhook settings; throws the numbers family's errors. */
  issue(accountId: string, settings: Pick<LinkRow, 'webhookUrl' | 'webhookMethod' | 'webhookHeaders'>, linkId: string): { id: string };
  /** Read at each use: a restore replaces the table. */
  readonly assignments: { all(): readonly { linkId: string | null; to: string | null }[] };
}

/** Refuses a receiver URL the customer gave (format; internal hosts in strict mode). */
export interface ReceiverCheck {
  check(url: string, field: string): string;
}

/** The fake identity provider: its scripted failure, and the verifications the person completes on its page. */
export interface IdentityProvider {
  available(): KycFailure;
  start(linkId: string): KycVerification;
  get(id: string): KycVerification | undefined;
  require(id: string): KycVerification;
  complete(id: string, input: { result?: KycResult; name?: string; birthDate?: string }): KycVerification;
}

export const needs = {
  accounts: port<LinkAccounts>(),
  numbers: port<LinkNumbers>(),
  receiverPolicy: port<ReceiverCheck>(),
  kyc: port<IdentityProvider>(),
};

export const EXPIRE_JOB = 'assignmentLinks.expire';

/** Its one job kind: a pending link expires at expiresAt (names and payloads are in snapshots: keep them). */
export const jobs = {
  [EXPIRE_JOB]: Type.Object({ linkId: Type.String() }, { additionalProperties: false }),
} as const;

/** What the model (and its sessions) is built from. */
export type AssignmentLinksModelScope = ModelScope<typeof needs, typeof assignmentEvents, typeof jobs>;
