// The three mobile-gateway operations as the public API document shapes them: the enroll token
// (account key, 201), the box's enroll (no account key: the token is the Bearer; 201 with the
// tunnel settings) and the verification status poll (no account key: the nonce is the Bearer).
// Simulated: no WireGuard tunnel, box or phone exists (docs/decisions.md).
import { Type } from '@sinclair/typebox';
import { header, reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { mobileGatewayErrors as E } from './errors.ts';
import { operation } from './scope.ts';
import { EnrollBody, EnrollResponse, EnrollmentTokenBody, EnrollmentTokenResponse, VerificationStatus } from './schema.ts';

const TAG = 'Mobile gateways';
const BASIS = 'public API document (MobileGateways); docs/decisions.md "ICE servers and mobile gateways"';

/** The Bearer token of a request, or undefined. */
function bearer(req: Parameters<typeof header>[0]): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return m?.[1];
}

export const operations = [
  operation({
    operationId: 'createMobileGatewayEnrollmentToken',
    method: 'POST',
    path: '/v1/accounts/{accountId}/mobile-gateways/enrollment-tokens',
    tag: TAG,
    summary: 'A one-time enroll token for a mobile gateway box',
    description: 'Simulated. The plain token is in this answer only (the simulator keeps its SHA-256); it enrolls one box within 24 hours of virtual time. `didNumber`, when given, is normalised like any phone number.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: { accountId: Type.String() },
    body: EnrollmentTokenBody,
    responses: { 201: { description: 'The token.', schema: EnrollmentTokenResponse } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, accountId, body }) => reply.created(scope.mobileGateways.issueToken(accountId, body?.didNumber)),
  }),
  operation({
    operationId: 'enrollMobileGateway',
    method: 'POST',
    path: '/v1/mobile-gateways/enroll',
    tag: TAG,
    summary: 'A box calls home with its WireGuard public key (Bearer: the enroll token)',
    description:
      'Simulated. Uses the token up; answers the tunnel settings (addresses from 10.9.0.0/16 in order, the simulator\'s fixed gateway endpoint and key) and opens the number verification: `nonce` for the status poll and `receiveNumber` to text. The reference describes the nonce as part of this answer without listing the field; the simulator adds `nonce` and `receiveNumber`.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    body: EnrollBody,
    bodyRequired: true,
    responses: { 201: { description: 'The tunnel settings.', schema: EnrollResponse } },
    errors: [E.ENROLL_TOKEN_INVALID, E.INVALID_WG_PUBKEY, E.GATEWAY_EXISTS, E.TUNNEL_POOL_EXHAUSTED, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, body, request }) => reply.created(scope.mobileGateways.enroll(bearer(request), body.wgPubkey, body.msisdn)),
  }),
  operation({
    operationId: 'getMobileGatewayVerificationStatus',
    method: 'GET',
    path: '/v1/mobile-gateways/verification/status',
    tag: TAG,
    summary: 'The box polls its number verification (Bearer: the nonce)',
    description: 'Simulated. `pending` until a text from the box\'s phone reaches `receiveNumber` (`POST /_sim/mobile-gateways/verification-texts`), then `verified` with `verifiedNumber`; `expired` 30 minutes after enroll on the virtual clock.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    responses: { 200: { description: 'The session.', schema: VerificationStatus } },
    errors: [E.NONCE_MISSING, E.SESSION_NOT_FOUND],
    handler: ({ scope, request }) => reply.ok(scope.mobileGateways.verificationStatus(bearer(request))),
  }),
];
