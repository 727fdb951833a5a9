// What the accounts family needs from others (core/scope.ts): nothing. Every other family asks
// accounts who a key belongs to and what the account may do, so accounts come first and need
// no one. An account's numbers, which its control-plane view lists, are registered with it by
// the numbers family (numbers need accounts, so accounts cannot need numbers).
import type { ModelScope } from '../../core/scope.ts';

/** Lists an account's numbers, newest first; the numbers family registers it (`useNumbers`). */
export interface AccountNumbers {
  listFor(accountId: string): readonly { id: string }[];
}

export const needs = {};

/** What the model is built from: the clock and the seeded random. */
export type AccountsModelScope = ModelScope<typeof needs>;
