// The scope the assignment links' handlers see (core/scope.ts): their model as
// `assignmentLinks`, the ports, event and job the family declared (ports.ts); and the definer
// of their operations, control routes and pages.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { AssignmentLinksModel } from './model.ts';
import type { jobs, needs } from './ports.ts';
import type { assignmentEvents } from './events.ts';

export type AssignmentLinksScope = HandlerScope<'assignmentLinks', AssignmentLinksModel, typeof needs, typeof assignmentEvents, typeof jobs>;

export const operation = scopedOperations<AssignmentLinksScope>();
