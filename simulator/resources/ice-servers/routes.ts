// getIceServers, as the public API document shapes it: `ttl_seconds` 1 to 86400 (default 3600,
// else 400), 200 with `ice_servers` and `expires_at`.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { DateTime } from '../../core/schema.ts';
import { operation } from './scope.ts';

const IceServer = Type.Object(
  {
    urls: Type.Union([Type.String(), Type.Array(Type.String())], { description: 'STUN or TURN URLs.' }),
    username: Type.Optional(Type.String({ description: 'TURN username: `<expiry in unix seconds>:<accountId>`.' })),
    credential: Type.Optional(Type.String({ description: 'TURN password: base64(HMAC-SHA1(secret, username)).' })),
    credential_type: Type.Optional(Type.Literal('password')),
  },
  { additionalProperties: false },
);

export const IceServersResponse = Type.Object(
  {
    ice_servers: Type.Array(IceServer, { description: 'Pass as `RTCPeerConnection({ iceServers })`.' }),
    expires_at: DateTime({ description: 'When the TURN credential stops working; fetch a new one before.' }),
  },
  { $id: 'IceServersResponse', additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'getIceServers',
    method: 'GET',
    path: '/v1/accounts/{accountId}/ice-servers',
    tag: 'WebRTC',
    summary: 'STUN/TURN servers with a short-lived TURN credential',
    description:
      'Simulated: no STUN or TURN server runs in the simulator. The TURN credential follows the TURN REST API (username `<expiry>:<accountId>`, credential base64 HMAC-SHA1 of the username under the documented secret `platform-simulator-turn-secret`), valid until `expires_at` = now + `ttl_seconds` on the virtual clock. The reference\'s 500 for a missing TURN secret does not happen here.',
    origin: 'reference',
    basis: 'public API document (getIceServers); docs/decisions.md "ICE servers and mobile gateways"',
    auth: 'account',
    params: { accountId: Type.String() },
    query: { ttl_seconds: Type.Integer({ minimum: 1, maximum: 86400, default: 3600, description: 'TURN credential lifetime in seconds, 1 to 86400.' }) },
    responses: { 200: { description: 'The servers.', schema: IceServersResponse } },
    handler: ({ scope, accountId, query }) => reply.ok(scope.iceServers.issue(accountId, query.ttl_seconds ?? 3600)),
  }),
];
