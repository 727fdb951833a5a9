// The scope the agents' route handlers see (core/scope.ts): their model as `agents` and the
// ports and job the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { AgentsModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type AgentsScope = HandlerScope<'agents', AgentsModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<AgentsScope>();
