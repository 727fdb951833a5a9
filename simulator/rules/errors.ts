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
} as const;
