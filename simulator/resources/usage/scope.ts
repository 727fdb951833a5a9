// The scope the usage family's route handlers see (core/scope.ts): its model as `usage`, and the
// ports it declared (ports.ts); and the definer of its operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { UsageModel } from './model.ts';
import type { needs } from './ports.ts';

export type UsageScope = HandlerScope<'usage', UsageModel, typeof needs>;

export const operation = scopedOperations<UsageScope>();
