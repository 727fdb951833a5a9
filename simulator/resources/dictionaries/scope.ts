// The scope the dictionaries' route handlers see (core/scope.ts): their model as `dictionaries`
// and the numbers port; and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { DictionariesModel } from './model.ts';
import type { needs } from './ports.ts';

export type DictionariesScope = HandlerScope<'dictionaries', DictionariesModel, typeof needs>;

export const operation = scopedOperations<DictionariesScope>();
