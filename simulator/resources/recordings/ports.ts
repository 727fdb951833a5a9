// What the recordings family needs from others (core/scope.ts): the calls (a call as its account
// sees it, clearing its recordingUrl, how many parties its transfers added), the account check of
// its control routes, the assignment link a number came through (usage), and usage's
// registration. It follows calls through their internal events (`call.recorded`, `call.ended`),
// so calls need nothing from it. Its clock jobs are declared here.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { CallRow } from '../calls/schema.ts';
import type { UsageSource } from '../usage/schema.ts';
import type { recordingEvents } from './events.ts';

/** The calls as the artifacts read and change them. */
export interface RecordedCalls {
  /** The call as its account sees it; 404 call_not_found otherwise. */
  get(accountId: string, callId: string): CallRow;
  /** A call of any account (control routes); 404 call_not_found when there is none. */
  getAny(callId: string): CallRow;
  /** The recording was deleted or its retention ended: the call's recordingUrl is null again. */
  forgetRecording(callId: string): void;
  /** Parties who joined through a connected transfer leg (one transcript speaker each). */
  transferPartiesOf(accountId: string, callId: string): number;
}

/** Throws ACCOUNT_NOT_FOUND for an account that does not exist. */
export interface AccountCheck {
  require(accountId: string): unknown;
}

/** The assignment link the account's current holding of a number came through (usage rule 7). */
export interface NumberLinks {
  openLinkOf(accountId: string, number: string): string | null;
}

export interface UsageSources {
  register(source: UsageSource): void;
}

export const needs = {
  calls: port<RecordedCalls>(),
  accounts: port<AccountCheck>(),
  numbers: port<NumberLinks>(),
  usage: port<UsageSources>(),
};

const call = { callId: Type.String() };

/** Its clock job kinds (names and payloads are in snapshots: keep them). */
export const jobs = {
  /** A recording's 90 days are over. */
  'recordings.expire': Type.Object(call, { additionalProperties: false }),
  /** A transcript attempt is done (its outcome is scripted per call). */
  'recordings.transcribed': Type.Object({ ...call, attempt: Type.Integer() }, { additionalProperties: false }),
  /** A summary is done. */
  'recordings.summarized': Type.Object(call, { additionalProperties: false }),
} as const;

/** What the model is built from. */
export type RecordingsModelScope = ModelScope<typeof needs, typeof recordingEvents, typeof jobs>;
