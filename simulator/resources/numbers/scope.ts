// The scope the numbers' route handlers see (core/scope.ts): their model as `numbers`, and the
// ports the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { NumbersModel } from './model.ts';
import type { needs } from './ports.ts';

export type NumbersScope = HandlerScope<'numbers', NumbersModel, typeof needs>;

export const operation = scopedOperations<NumbersScope>();
