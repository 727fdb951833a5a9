// Wire error codes of assignment links and the end user's session. FEATURE_DISABLED,
// ACCOUNT_NOT_FOUND, QUOTA_EXCEEDED and NO_SUBSCRIPTION are shared codes declared elsewhere.
import { defineError } from '../../core/errors.ts';

export const linkErrors = {
  LINK_NOT_FOUND: defineError({
    code: 'ASSIGNMENT_LINK_NOT_FOUND', status: 404, origin: 'spec',
    description: 'No assignment link with this linkId in the account (the spec\'s 404 without a code; the code is ours).',
  }),
  NOT_PENDING: defineError({
    code: 'NOT_PENDING', status: 409, origin: 'spec',
    description: 'The link cannot be cancelled: it is consumed, expired or revoked. `status` says which.',
  }),
};

export const sessionErrors = {
  SESSION_NOT_FOUND: defineError({
    code: 'ASSIGNMENT_SESSION_NOT_FOUND', status: 404, origin: 'reference',
    description: 'No issuing session has this token.',
  }),
  ADDON_INACTIVE: defineError({
    code: 'ASSIGNMENT_ADDON_INACTIVE', status: 403, origin: 'reference',
    description: 'The link\'s account has the managed-number add-on off, so its issuing page does not work. (FEATURE_DISABLED is reserved by the spec for link POST and DELETE.)',
  }),
  SESSION_GONE: defineError({
    code: 'ASSIGNMENT_SESSION_GONE', status: 410, origin: 'reference',
    description: 'The link expired or was revoked; `status` says which. Ask the sender for a new link.',
  }),
  SESSION_USED: defineError({
    code: 'ASSIGNMENT_SESSION_USED', status: 409, origin: 'reference',
    description: 'The link was already used to issue a number (a link is used once only).',
  }),
  STEP_OUT_OF_ORDER: defineError({
    code: 'STEP_OUT_OF_ORDER', status: 409, origin: 'reference',
    description: 'The session is at another step; `step` says which. Steps: selectType, consents, verify, ready, done.',
  }),
  INVALID_SUBSCRIBER_TYPE: defineError({
    code: 'INVALID_SUBSCRIBER_TYPE', status: 422, origin: 'reference',
    description: 'subscriberType must be individual or corporate.',
  }),
  CONSENT_REQUIRED: defineError({
    code: 'CONSENT_REQUIRED', status: 422, origin: 'reference',
    description: 'A required clause is not agreed to; `missing` lists the clause keys. Nothing was recorded.',
  }),
  VERIFICATION_RATE_LIMITED: defineError({
    code: 'IDENTITY_VERIFICATION_RATE_LIMITED', status: 429, origin: 'reference',
    description: 'Too many identity verifications for this link (5), or the provider limits calls for now.',
  }),
  IDENTITY_NOT_VERIFIED: defineError({
    code: 'IDENTITY_NOT_VERIFIED', status: 409, origin: 'reference',
    description: 'The identity verification is not completed (still open, or the person cancelled it). Start another.',
  }),
  IDENTITY_NAME_MISMATCH: defineError({
    code: 'IDENTITY_NAME_MISMATCH', status: 409, origin: 'reference',
    description: 'The provider found that the name does not match the phone\'s subscriber. Start another verification.',
  }),
  IDENTITY_AGE_RESTRICTED: defineError({
    code: 'IDENTITY_AGE_RESTRICTED', status: 409, origin: 'reference',
    description: 'The provider found the person too young to hold a line (under 14).',
  }),
  IDENTITY_PROVIDER_ERROR: defineError({
    code: 'IDENTITY_PROVIDER_ERROR', status: 502, origin: 'reference',
    description: 'The identity provider could not be asked for the result; nothing changed, retry.',
  }),
  NUMBER_STOCK_EXHAUSTED: defineError({
    code: 'NUMBER_STOCK_EXHAUSTED', status: 409, origin: 'reference',
    description: 'Finalize: the number pool has no free number; nothing was issued.',
  }),
  LINE_LIMIT_REACHED: defineError({
    code: 'LINE_LIMIT_REACHED', status: 409, origin: 'reference',
    description: 'Finalize: the account holds as many lines as its plan allows; nothing was issued.',
  }),
};
