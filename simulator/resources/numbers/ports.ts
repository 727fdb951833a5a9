// What the numbers family needs from others (core/scope.ts): the account's plan, add-ons and
// subscription (issuing and routing rules), the account check of the control plane, and the
// receiver policy that refuses internal webhook and status-callback URLs. The accounts list an
// account's numbers through a registration the family makes when it is built (`useNumbers`).
import { port, type ModelScope } from '../../core/scope.ts';

/** An account as the numbers' rules read it (the accounts family offers it). */
export interface NumberAccounts {
  /** Throws ACCOUNT_NOT_FOUND (control routes). */
  require(accountId: string): unknown;
  plan(accountId: string): { lineLimit: number };
  hasAddon(accountId: string, addon: string): boolean;
  subscriptionActive(accountId: string): boolean;
  /** The accounts' control-plane view lists an account's numbers from here. */
  useNumbers(source: { listFor(accountId: string): readonly { id: string }[] }): void;
}

/** Refuses a receiver URL that points inside the platform (the webhook receiver policy). */
export interface InternalUrlCheck {
  refuseInternal(url: string, field: string): void;
}

export const needs = {
  accounts: port<NumberAccounts>(),
  receiverPolicy: port<InternalUrlCheck>(),
};

/** What the model is built from: the clock, the references routing checks, its ports. */
export type NumbersModelScope = ModelScope<typeof needs>;
