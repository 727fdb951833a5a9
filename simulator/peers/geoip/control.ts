// The fake geo-IP database's /_sim routes: which client addresses count as foreign, behind the
// overseas refusal (docs/control-plane.md, "Geo-IP").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { StringRefusedBy } from '../../core/schema.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const GeoIpView = Type.Object({ foreign: Type.Array(Type.String()) }, { $id: 'SimGeoIp', additionalProperties: false });
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const ForeignBody = Type.Object(
  { ip: StringRefusedBy('VALIDATION', { minLength: 1, anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }, { pattern: `^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?\\d)$` }], description: 'An address (IPv4, or IPv6 in hexadecimal groups: a dotted IPv4 tail only as ::ffff:a.b.c.d) or an IPv4 CIDR range.' }) },
  { additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'simGetGeoIp',
    method: 'GET',
    path: '/_sim/geoip',
    tag: TAG,
    summary: 'Addresses judged foreign',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Foreign addresses and ranges.', schema: GeoIpView } },
    handler: ({ scope }) => reply.ok({ foreign: scope.geoip.entries() }),
  }),
  operation({
    operationId: 'simAddForeignIp',
    method: 'POST',
    path: '/_sim/geoip/foreign',
    tag: TAG,
    summary: 'Judge an address (or IPv4 range) foreign',
    description: 'API requests from it are then refused with overseas_ip_blocked, unless the account lists it in ipExceptions. The client address is the first X-Forwarded-For hop, else the socket address.',
    origin: 'simulator',
    auth: 'control',
    body: ForeignBody,
    bodyRequired: true,
    responses: { 201: { description: 'Marked.', schema: GeoIpView } },
    handler: ({ scope, body }) => {
      scope.geoip.add(body.ip);
      return reply.created({ foreign: scope.geoip.entries() });
    },
  }),
  operation({
    operationId: 'simRemoveForeignIp',
    method: 'DELETE',
    path: '/_sim/geoip/foreign/{ip}',
    tag: TAG,
    summary: 'Judge an address domestic again',
    description: 'Percent-encode the "/" of a CIDR range (%2F).',
    origin: 'simulator',
    auth: 'control',
    params: { ip: Type.String() },
    responses: { 204: { description: 'Removed (or was not marked).' } },
    handler: ({ scope, params }) => {
      scope.geoip.remove(params.ip);
      return reply.noContent();
    },
  }),
];
