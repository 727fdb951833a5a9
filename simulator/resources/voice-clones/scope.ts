// The scope the voice clones' route handlers see (core/scope.ts): their model as `voiceClones`
// and their job; and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { VoiceClonesModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type VoiceClonesScope = HandlerScope<'voiceClones', VoiceClonesModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<VoiceClonesScope>();
