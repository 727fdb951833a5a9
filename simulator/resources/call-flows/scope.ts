// The scope the call flows' route handlers see (core/scope.ts): their model as `callFlows`, and
// the ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { CallFlowsModel } from './model.ts';
import type { needs } from './ports.ts';

export type CallFlowsScope = HandlerScope<'callFlows', CallFlowsModel, typeof needs>;

export const operation = scopedOperations<CallFlowsScope>();
