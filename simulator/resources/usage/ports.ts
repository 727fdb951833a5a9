// What the usage family needs from others (core/scope.ts): the account (it must exist; the
// current billing cycle starts when its subscription started, and only while it is active).
// The entries it aggregates come the other way: families register their sources with it.
import { port, type ModelScope } from '../../core/scope.ts';
import type { AccountRow } from '../accounts/schema.ts';

/** The accounts family: existence (404 ACCOUNT_NOT_FOUND) and the subscription behind the billing cycle. */
export interface UsageAccounts {
  get(accountId: string): Pick<AccountRow, 'subscription'> | undefined;
  require(accountId: string): unknown;
  subscriptionActive(accountId: string): boolean;
}

export const needs = { accounts: port<UsageAccounts>() };

/** What the model is built from. */
export type UsageModelScope = ModelScope<typeof needs>;
