// The scope the call batches' route handlers see (core/scope.ts): their model as `callBatches`,
// and the ports, events and job the family declared (ports.ts); and the definer of their
// operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { CallBatchesModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type CallBatchesScope = HandlerScope<'callBatches', CallBatchesModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<CallBatchesScope>();
