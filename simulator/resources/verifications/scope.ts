// The scope the verifications' route handlers see (core/scope.ts): their model as
// `verifications`, and the ports and job the family declared (ports.ts); and the definer of
// their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { VerificationsModel } from './model.ts';
import type { jobs, needs } from './ports.ts';

export type VerificationsScope = HandlerScope<'verifications', VerificationsModel, typeof needs, {}, typeof jobs>;

export const operation = scopedOperations<VerificationsScope>();
