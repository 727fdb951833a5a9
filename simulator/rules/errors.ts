// Wire codes several families raise, declared once outside any of them so that no family
// imports another's error table for them.
import { defineError } from '../core/errors.ts';

export const sharedErrors = {
  /** An update (PATCH) body with no field: numbers, SIP endpoints and credentials, webhooks. */
  NOTHING_TO_UPDATE: defineError({
    code: 'NOTHING_TO_UPDATE', status: 400, origin: 'reference',
    description: 'The update body has no field.',
  }),
  /** A phone number no account holds: numbers' paths, inbound texts, the carrier's scripting. */
  NUMBER_NOT_FOUND: defineError({
    code: 'number_not_found', status: 404, origin: 'simulator',
    description: 'No number with this value exists (or the path is not a phone number).',
  }),
  /** An account that does not exist: the accounts' own routes, and the peers' control routes that take an account (signing keys, the webhook trigger). */
  ACCOUNT_NOT_FOUND: defineError({
    code: 'ACCOUNT_NOT_FOUND', status: 404, origin: 'spec',
    description: 'The account is unknown.',
  }),
  /** The number pool ran dry: issuing a number, and an account made through the control plane with pool numbers. */
  NUMBER_POOL_EMPTY: defineError({
    code: 'NUMBER_POOL_EMPTY', status: 503, origin: 'reference',
    description: 'The number pool has no free number (reference: registerNumber 503).',
  }),
  /** A voice another account cloned: call flows' say blocks and agents' voices. */
  VOICE_FORBIDDEN: defineError({
    code: 'call_flow_voice_forbidden', status: 403, origin: 'spec',
    description: 'The voice id was registered (cloned) by another account.',
  }),
} as const;

/** The sip_trunk add-on's refusal, shared by the families it gates: SIP endpoints and routes, IP ACLs and credentials (sip-auth), and sip/softphone routing of numbers. */
export const SIP_TRUNK_REQUIRED = defineError({
  code: 'SIP_TRUNK_REQUIRED', status: 403, origin: 'simulator',
  description: 'The account lacks the sip_trunk add-on: SIP endpoint, route, IP ACL and credential changes, and sip/softphone routing of numbers. (The API document answers FEATURE_DISABLED here; the spec reserves that code for assignment links.)',
});
