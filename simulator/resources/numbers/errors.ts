// The numbers family's wire errors, apart from its model so that other families (assignment
// links, calls) can name them in their `errors` lists and recognise them without importing it.
import { defineError } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';

export const numberErrors = {
  NUMBER_NOT_FOUND: sharedErrors.NUMBER_NOT_FOUND, // rules/errors.ts
  NUMBER_NOT_OWNED: defineError({
    code: 'number_not_owned', status: 403, origin: 'reference',
    description: 'The number exists but belongs to another account (reference: updateNumber/deleteNumber 403).',
  }),
  NO_ACTIVE_SUBSCRIPTION: defineError({
    code: 'no_active_subscription', status: 403, origin: 'reference',
    description: 'Issuing a number needs an active subscription (reference: registerNumber 403).',
  }),
  QUOTA_EXCEEDED: defineError({
    code: 'QUOTA_EXCEEDED', status: 422, origin: 'spec',
    description: 'The plan\'s line limit is reached.',
  }),
  ADDON_REQUIRED: defineError({
    code: 'ADDON_REQUIRED', status: 402, origin: 'reference',
    description: 'Representative numbers need the representative_number add-on (reference: createRepresentativeNumber 402).',
  }),
  REPRESENTATIVE_POOL_EMPTY: defineError({
    code: 'REPRESENTATIVE_POOL_EMPTY', status: 409, origin: 'reference',
    description: 'The representative number pool has no free number (reference: createRepresentativeNumber 409).',
  }),
  REPRESENTATIVE_FORWARD_ONLY: defineError({
    code: 'REPRESENTATIVE_FORWARD_ONLY', status: 400, origin: 'reference',
    description: 'A representative number routes only by forward (guides).',
  }),
  NUMBER_POOL_EMPTY: sharedErrors.NUMBER_POOL_EMPTY, // rules/errors.ts
  NOTHING_TO_UPDATE: sharedErrors.NOTHING_TO_UPDATE, // rules/errors.ts
  ROUTING_TARGET_MISSING: defineError({
    code: 'ROUTING_TARGET_MISSING', status: 400, origin: 'reference',
    description: 'The routing type needs its target field (webhook: webhookUrl, agent: agentId, callflow: callFlowId, forward: forwardTo, sip: sipEndpointId, softphone: sipCredentialId).',
  }),
  ROUTING_FIELD_MISMATCH: defineError({
    code: 'ROUTING_FIELD_MISMATCH', status: 400, origin: 'simulator',
    description: 'A routing target was sent for a routing type the number does not use.',
  }),
  INVALID_FORWARD_TO: defineError({
    code: 'INVALID_FORWARD_TO', status: 400, origin: 'reference',
    description: 'forwardTo must be another number the same account owns.',
  }),
  INVALID_AGENT: defineError({ code: 'INVALID_AGENT', status: 400, origin: 'reference', description: 'agentId is not an agent of this account.' }),
  INVALID_CALL_FLOW: defineError({ code: 'INVALID_CALL_FLOW', status: 400, origin: 'simulator', description: 'callFlowId is not a call flow of this account.' }),
  INVALID_ENDPOINT: defineError({ code: 'INVALID_ENDPOINT', status: 400, origin: 'reference', description: 'sipEndpointId is not a SIP endpoint of this account.' }),
  INVALID_CREDENTIAL: defineError({ code: 'INVALID_CREDENTIAL', status: 400, origin: 'reference', description: 'sipCredentialId is not a SIP credential of this account.' }),
  INVALID_DICTIONARY: defineError({ code: 'INVALID_DICTIONARY', status: 400, origin: 'simulator', description: 'dictionaryId is not a dictionary of this account.' }),
  TARGET_INACTIVE: defineError({
    code: 'TARGET_INACTIVE', status: 409, origin: 'reference',
    description: 'The SIP endpoint or credential is disabled, or the endpoint has no active route.',
  }),
};
