// The scope the accounts' control routes see (core/scope.ts): their model as `accounts`; and
// the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { AccountsModel } from './model.ts';
import type { needs } from './ports.ts';

export type AccountsScope = HandlerScope<'accounts', AccountsModel, typeof needs>;

export const operation = scopedOperations<AccountsScope>();
