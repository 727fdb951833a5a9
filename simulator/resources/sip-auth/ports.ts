// What the SIP authentication family needs from others (core/scope.ts): the sip_trunk add-on
// gates every change of ACLs and credentials, and the fake registrar (control.ts) checks a
// presented From number against the account's numbers when a credential lists none.
import { port, type ModelScope } from '../../core/scope.ts';

/** Whether the account holds an add-on (the accounts family offers it). */
export interface AddonCheck {
  hasAddon(accountId: string, addon: string): boolean;
}

/** Who owns a number (the numbers family offers it). */
export interface NumberOwner {
  ownerOf(number: string): string | undefined;
}

export const needs = {
  accounts: port<AddonCheck>(),
  numbers: port<NumberOwner>(),
};

/** What the model is built from. */
export type SipAuthModelScope = ModelScope<typeof needs>;
