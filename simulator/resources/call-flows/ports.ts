// What the call-flow family needs from others (core/scope.ts): the numbers routed to a flow
// (its phoneNumbers, and the refusal to delete a flow in use) and the account check of its
// control routes. Calls and call batches read flows through their own ports on it; voice clones
// register their owners with it (`addVoiceOwners`).
import { port, type ModelScope } from '../../core/scope.ts';

/** The account's numbers whose inbound calls route to a flow (routingType callflow), sorted. */
export interface FlowNumbers {
  routedToCallFlow(accountId: string, callFlowId: string): readonly string[];
}

/** Throws ACCOUNT_NOT_FOUND for an account that does not exist (control routes). */
export interface AccountCheck {
  require(accountId: string): unknown;
}

export const needs = {
  numbers: port<FlowNumbers>(),
  accounts: port<AccountCheck>(),
};

/** What the model is built from. */
export type CallFlowsModelScope = ModelScope<typeof needs>;
