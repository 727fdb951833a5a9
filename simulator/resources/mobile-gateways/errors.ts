// The mobile gateways' refusals, with the statuses the public API document gives them.
import { defineError } from '../../core/errors.ts';

export const mobileGatewayErrors = {
  ENROLL_TOKEN_INVALID: defineError({
    code: 'enroll_token_invalid', status: 401, origin: 'reference',
    description: 'The enroll token (Authorization: Bearer) is missing, unknown, expired or already used.',
  }),
  INVALID_WG_PUBKEY: defineError({
    code: 'invalid_wg_pubkey', status: 400, origin: 'reference',
    description: 'wgPubkey is not a WireGuard public key: 44 characters of base64 that decode to 32 bytes.',
  }),
  GATEWAY_EXISTS: defineError({
    code: 'gateway_already_enrolled', status: 409, origin: 'reference',
    description: 'A gateway with this wgPubkey is already enrolled.',
  }),
  TUNNEL_POOL_EXHAUSTED: defineError({
    code: 'tunnel_pool_exhausted', status: 503, origin: 'reference',
    description: 'No tunnel address is left in 10.9.0.0/16.',
  }),
  NONCE_MISSING: defineError({
    code: 'verification_nonce_missing', status: 401, origin: 'reference',
    description: 'The verification status poll carries no Authorization: Bearer <nonce> header.',
  }),
  SESSION_NOT_FOUND: defineError({
    code: 'verification_session_not_found', status: 404, origin: 'reference',
    description: 'No verification session has this nonce.',
  }),
};
