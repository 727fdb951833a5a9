// What the block-list family needs from others, and the scope its model and route handlers see
// (core/scope.ts). The control plane's intake routes check that the account exists; nothing else
// is needed: the model keeps its own tables.
import { port, type HandlerScope, type ModelScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { BlockListsModel } from './model.ts';

/** An account that exists, or 404 ACCOUNT_NOT_FOUND (the accounts family offers it). */
export interface AccountCheck {
  require(accountId: string): unknown;
}

export const needs = { accounts: port<AccountCheck>() };

export type BlockListsModelScope = ModelScope<typeof needs>;

/** What the block lists' handlers see: their model as `blockLists`, and the ports above. */
export type BlockListsScope = HandlerScope<'blockLists', BlockListsModel, typeof needs>;

/** Defines one of the family's operations; its handler gets `ctx.scope`. */
export const operation = scopedOperations<BlockListsScope>();
