// What the SIP endpoint family needs from others (core/scope.ts): the sip_trunk add-on gates
// every change, and an endpoint that numbers still route to cannot be disabled or deleted.
import { port, type ModelScope } from '../../core/scope.ts';

/** Whether the account holds an add-on (the accounts family offers it). */
export interface AddonCheck {
  hasAddon(accountId: string, addon: string): boolean;
}

/** The account's numbers that route to an endpoint (routingType sip), as numbers. */
export interface EndpointRouting {
  routedToSipEndpoint(accountId: string, endpointId: string): readonly string[];
}

export const needs = {
  accounts: port<AddonCheck>(),
  numbers: port<EndpointRouting>(),
};

/** What the model is built from. */
export type SipEndpointsModelScope = ModelScope<typeof needs>;
