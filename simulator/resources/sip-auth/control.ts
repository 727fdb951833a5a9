// The SIP authentication's /_sim route: a fake SIP registrar. No SIP traffic is simulated, so
// this is how a test sees what a SIP client presenting a credential would get (spec
// Authentication 6): username, realm and password, the source address against the credential's
// IP ACL, the From number against allowedNumbers. A success records the credential's lastUsedAt
// (docs/control-plane.md, "Additions").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { ApiError, errorCodes } from '../../core/errors.ts';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { isIpv4 } from './cidr.ts';
import { authenticateSip } from './registrar.ts';
import { operation } from './scope.ts';

const OUTCOMES = ['ok', 'unknown_user', 'credential_disabled', 'wrong_password', 'ip_not_allowed', 'number_not_allowed'] as const;

export const operations = [
  operation({
    operationId: 'simSipAuthenticate',
    method: 'POST',
    path: '/_sim/sip/authenticate',
    tag: 'Control plane',
    summary: 'What a SIP client presenting these credentials would get',
    description:
      'Checks, in order: a credential with this realm and username that is not deleted (unknown_user), active and enabled (credential_disabled), the password against the stored digest HA1 (wrong_password), the source address against its IP ACL when it has one; a disabled ACL admits none (ip_not_allowed), the From number against allowedNumbers, or against the account\'s numbers when the list is empty (number_not_allowed). `ok` records lastUsedAt; refusals change nothing.',
    origin: 'simulator',
    auth: 'control',
    body: Type.Object(
      {
        username: Type.String({ minLength: 1 }),
        realm: Type.String({ minLength: 1 }),
        password: Type.String(),
        sourceIp: Type.Optional(Type.String({ format: 'ipv4', description: 'IPv4 address of the client (dotted quad, no leading zeros).' })),
        fromNumber: Type.Optional(Type.String({ description: 'The number the client presents in From; normalised.' })),
      },
      { additionalProperties: false },
    ),
    bodyRequired: true,
    responses: {
      200: {
        description: 'The outcome.',
        schema: Type.Object({ ok: Type.Boolean(), outcome: StringEnum(OUTCOMES), credentialId: Nullable(Type.String()) }, { $id: 'SimSipAuthResult', additionalProperties: false }),
      },
    },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, body }) => {
      if (body.sourceIp !== undefined && !isIpv4(body.sourceIp)) {
        throw ApiError.validation('sourceIp must be an IPv4 address', [{ path: 'sourceIp', message: 'not an IPv4 address' }]);
      }
      const r = authenticateSip(scope.sipAuth, scope.numbers, body);
      return reply.ok({ ok: r.outcome === 'ok', outcome: r.outcome, credentialId: r.credentialId });
    },
  }),
];
