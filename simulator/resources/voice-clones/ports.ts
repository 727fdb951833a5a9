// What the voice-clones family needs from others: the call flows, which ask it who owns a
// Cartesia voice (another account's clone is 403 call_flow_voice_forbidden) and which it asks
// whether a flow speaks with a clone (agents register the same way). Its clock job: a clone
// still cloning finishes as the fake provider said when it was uploaded.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import { StringEnum } from '../../core/schema.ts';

/** Call flows' voices: a flow's voice is a provider and an id (a clone is a Cartesia voice). */
export interface CloneFlows {
  addVoiceOwners(lookup: (provider: 'google' | 'cartesia' | 'elevenlabs', voiceId: string) => string | undefined): void;
  flowsSpeaking(accountId: string, provider: 'cartesia', voiceId: string): string[];
}

export const needs = { callFlows: port<CloneFlows>() };

/** Names and payloads are in snapshots: keep them. */
export const jobs = {
  'voiceClones.finish': Type.Object({ cloneId: Type.String(), outcome: StringEnum(['ready', 'failed'] as const) }, { additionalProperties: false }),
};

export type VoiceClonesModelScope = ModelScope<typeof needs, {}, typeof jobs>;
