// What the fake carrier needs (core/scope.ts): nobody. Families that hand it deliveries register
// for their outcomes (`onOutcome`), and the calls family tells it what phones lived through
// (`onPhoneCalls`), so the carrier names no family. Its one clock job reports an outcome when it
// falls due.
import { Type } from '@sinclair/typebox';
import type { ModelScope } from '../../core/scope.ts';

export const needs = {};

export const OUTCOME_JOB = 'carrier.outcome';

/** Its job kind (names and payloads are in snapshots: keep them). */
export const jobs = {
  [OUTCOME_JOB]: Type.Object({ deliveryId: Type.String() }, { additionalProperties: false }),
} as const;

/** What the model is built from: the clock, the seeded random (a share script's salt), its job. */
export type CarrierModelScope = ModelScope<typeof needs, {}, typeof jobs>;
