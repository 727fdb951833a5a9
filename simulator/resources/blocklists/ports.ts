// What the block-list family needs from others (core/scope.ts): the control plane's intake
// routes check that the account exists; nothing else is needed, the model keeps its own tables.
import { port, type ModelScope } from '../../core/scope.ts';

/** An account that exists, or 404 ACCOUNT_NOT_FOUND (the accounts family offers it). */
export interface AccountCheck {
  require(accountId: string): unknown;
}

export const needs = { accounts: port<AccountCheck>() };

/** What the model is built from. */
export type BlockListsModelScope = ModelScope<typeof needs>;
