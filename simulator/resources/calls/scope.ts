// The scope the calls' route handlers see (core/scope.ts): their model as `calls`, and the ports,
// events and jobs the family declared (ports.ts, events.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { CallsModel } from './model.ts';
import type { jobs, needs } from './ports.ts';
import type { callEvents } from './events.ts';

export type CallsScope = HandlerScope<'calls', CallsModel, typeof needs, typeof callEvents, typeof jobs>;

export const operation = scopedOperations<CallsScope>();
