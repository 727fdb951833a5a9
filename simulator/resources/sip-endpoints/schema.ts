// SIP endpoints (logical BYOC trunks) and their origination routes (spec "SIP endpoint", "SIP
// route"; operations and bounds shaped after the public API document).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, StringRefusedBy } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { atLeastOneField, withRules } from '../../core/schema-rules.ts';
import { sharedErrors } from '../../rules/errors.ts';

const NOTHING = sharedErrors.NOTHING_TO_UPDATE.info.code;

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const SIP_ENDPOINT_IDS = {
  sipEndpoint: { prefix: 'SE', hex: 16 },
  sipRoute: { prefix: 'SR', hex: 16 },
} as const satisfies Record<string, IdFormat>;

export const ENDPOINT_STATUSES = ['active', 'disabled'] as const;
/** Stored statuses: a deleted endpoint is kept (soft delete, reference) but never shown. */
export const ENDPOINT_ROW_STATUSES = ['active', 'disabled', 'deleted'] as const;
export const ROUTE_STATUSES = ['active', 'disabled'] as const;
export const TRANSPORTS = ['udp', 'tls'] as const;

export const ROUTE_DEFAULTS = { priority: 10, weight: 100 } as const;

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S', description: 'Label, 1 to 100 characters, not blank.' });
const MaxConcurrent = Nullable(Type.Integer({ minimum: 1, maximum: 9999 }), { description: 'Concurrent call limit, 1 to 9999; null means unlimited.' });
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const PORT = '(?:[1-9]\\d{0,3}|[1-5]\\d{4}|6[0-4]\\d{3}|65[0-4]\\d{2}|655[0-2]\\d|6553[0-5])';
/** sip: or sips:, an IPv4 address or a DNS name whose last label starts with a letter, an optional port (model.ts sipUriProblem). */
const SIP_URI_PATTERN = `^sips?:(?:${OCTET}(?:\\.${OCTET}){3}|(?:${LABEL}\\.)*[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?::${PORT})?$`;
const Uri = StringRefusedBy('INVALID_SIP_URI', {
  minLength: 1,
  maxLength: 512,
  pattern: SIP_URI_PATTERN,
  description: '`sip:host[:port]` or `sips:host[:port]`: host a DNS name (at most 253 characters) or an IPv4 address, port 1 to 65535; no user part, parameters or headers.',
});
const Priority = Type.Integer({ minimum: 0, maximum: 1000, description: 'Lower is tried first (0 to 1000).' });
const Weight = Type.Integer({ minimum: 0, maximum: 1000, description: 'Load share among routes of the same priority (0 to 1000).' });

export const SipOriginationRoute = Type.Object(
  {
    id: Type.String(),
    endpointId: Type.String({ description: 'The owning endpoint.' }),
    uri: Type.String(),
    priority: Type.Integer(),
    weight: Type.Integer(),
    transport: StringEnum(TRANSPORTS),
    status: StringEnum(ROUTE_STATUSES),
    lastUsedAt: Nullable(DateTime()),
    lastFailureAt: Nullable(DateTime()),
    failureCount: Type.Integer({ minimum: 0 }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'SipOriginationRoute', additionalProperties: false },
);
export type SipRouteWire = Static<typeof SipOriginationRoute>;

export const SipEndpoint = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    maxConcurrent: Nullable(Type.Integer(), { description: 'null means unlimited.' }),
    status: StringEnum(ENDPOINT_STATUSES),
    routes: Type.Array(SipOriginationRoute, { description: 'Priority ascending; equal priorities in creation order (oldest first).' }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'SipEndpoint', additionalProperties: false },
);
export type SipEndpointWire = Static<typeof SipEndpoint>;

export const SipEndpointList = Type.Object(
  { data: Type.Array(SipEndpoint), meta: ListMetaSchema },
  { $id: 'SipEndpointListResponse', additionalProperties: false },
);
export const SipOriginationRouteList = Type.Object(
  { data: Type.Array(SipOriginationRoute) },
  { $id: 'SipOriginationRouteListResponse', additionalProperties: false },
);
export const OkResult = Type.Object({ ok: Type.Boolean() }, { $id: 'SipDeleteResult', additionalProperties: false });

export const CreateSipEndpointBody = Type.Object(
  { name: Name, maxConcurrent: Type.Optional(MaxConcurrent) },
  { $id: 'CreateSipEndpointRequest', additionalProperties: false },
);
export type CreateSipEndpointInput = Static<typeof CreateSipEndpointBody>;

export const UpdateSipEndpointBody = atLeastOneField(
  Type.Object(
    { name: Type.Optional(Name), maxConcurrent: Type.Optional(MaxConcurrent), status: Type.Optional(StringEnum(ENDPOINT_STATUSES)) },
    { $id: 'UpdateSipEndpointRequest', additionalProperties: false },
  ),
  NOTHING,
);
export type UpdateSipEndpointInput = Static<typeof UpdateSipEndpointBody>;

export const CreateSipRouteBody = withRules(
  Type.Object(
    {
      uri: Uri,
      priority: Type.Optional(Priority),
      weight: Type.Optional(Weight),
      transport: Type.Optional(StringEnum(TRANSPORTS, { description: 'Default tls for a sips: URI, else udp; sips: with udp is refused.' })),
    },
    { $id: 'CreateSipOriginationRouteRequest', additionalProperties: false },
  ),
  [{ description: 'A sips: uri goes over tls (the default for it).', code: 'VALIDATION', schema: { anyOf: [{ properties: { uri: { not: { pattern: '^sips:' } } } }, { properties: { transport: { const: 'tls' } } }] } }],
);
export type CreateSipRouteInput = Static<typeof CreateSipRouteBody>;

export const UpdateSipRouteBody = atLeastOneField(
  Type.Object(
    {
      uri: Type.Optional(Uri),
      priority: Type.Optional(Priority),
      weight: Type.Optional(Weight),
      transport: Type.Optional(StringEnum(TRANSPORTS)),
      status: Type.Optional(StringEnum(ROUTE_STATUSES)),
    },
    { $id: 'UpdateSipOriginationRouteRequest', additionalProperties: false },
  ),
  NOTHING,
);
export type UpdateSipRouteInput = Static<typeof UpdateSipRouteBody>;

// --- stored state ---

export const EndpointRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    maxConcurrent: Nullable(Type.Integer()),
    status: StringEnum(ENDPOINT_ROW_STATUSES),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type EndpointRow = Static<typeof EndpointRowSchema>;

// A stored route is exactly its wire shape (no hidden fields).
export const RouteRowSchema = Type.Object(SipOriginationRoute.properties, { additionalProperties: false });
export type RouteRow = Static<typeof RouteRowSchema>;

export const SipEndpointsStateSchema = Type.Object(
  { endpoints: Type.Array(EndpointRowSchema), routes: Type.Array(RouteRowSchema) },
  { additionalProperties: false },
);
export type SipEndpointsState = Static<typeof SipEndpointsStateSchema>;
