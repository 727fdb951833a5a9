// What the voice-clones family needs from others (nothing: agents and call flows register the
// voices they use with it) and its clock job: a clone still cloning finishes as the fake
// provider said when it was uploaded.
import { Type } from '@sinclair/typebox';
import type { ModelScope } from '../../core/scope.ts';
import { StringEnum } from '../../core/schema.ts';

export const needs = {};

/** Names and payloads are in snapshots: keep them. */
export const jobs = {
  'voiceClones.finish': Type.Object({ cloneId: Type.String(), outcome: StringEnum(['ready', 'failed'] as const) }, { additionalProperties: false }),
};

export type VoiceClonesModelScope = ModelScope<typeof needs, {}, typeof jobs>;
