// What the Agent SDK family needs from others, its events and its clock jobs (core/scope.ts). The
// key's account and the number's owner come from the accounts and numbers families; the clock's
// live side (mode, sync, advance, defects) from the runtime's `liveClock`; calls reach it through
// the calls family's call-handler seam.
import { Type } from '@sinclair/typebox';
import { event } from '../../core/events.ts';
import { port, type ModelScope } from '../../core/scope.ts';
import type { LiveClock } from '../../core/live-clock.ts';
import type { SdkCallsPort } from './calls-wiring.ts';

/** Which account an API key belongs to. */
export interface KeyAccounts {
  accountForKey(key: string): string | undefined;
}

/** Who owns a number (domestic digits), and news of a number leaving its account. */
export interface NumberOwners {
  ownerOf(number: string): string | undefined;
  onReleased(listener: (accountId: string, number: string) => void): void;
}

/** Whole-call recordings: the family hands the recordings family its calls' real audio. */
export interface CallAudio {
  provideAudio(source: (callId: string) => Buffer | undefined): void;
}

export const needs = {
  accounts: port<KeyAccounts>(),
  numbers: port<NumberOwners>(),
  liveClock: port<LiveClock>(),
  calls: port<SdkCallsPort>(),
  recordings: port<CallAudio>(),
};

/** agent.connected / agent.disconnected: a number gained or lost its connected agent (form fields). */
export const AgentConnectionFields = Type.Object(
  {
    Event: Type.String(),
    AccountId: Type.String(),
    Number: Type.String(),
    Timestamp: Type.String(),
  },
  { additionalProperties: false },
);

export const events = {
  'agent.disconnected': event(AgentConnectionFields, { subscribable: true }),
  'agent.connected': event(AgentConnectionFields, { subscribable: true }),
};

/** Its job kinds: a call's media never came (30 s), a failed transfer's message has been said, a warm transfer's whisper has been said. */
export const jobs = {
  'agentSdk.stuck-media': Type.Object({ callId: Type.String() }, { additionalProperties: false }),
  'agentSdk.announce-end': Type.Object({ callId: Type.String() }, { additionalProperties: false }),
  'agentSdk.warm-bridge': Type.Object({ callId: Type.String() }, { additionalProperties: false }),
};

export type AgentSdkModelScope = ModelScope<typeof needs, typeof events, typeof jobs>;
