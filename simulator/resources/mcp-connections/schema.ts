// External MCP connections (spec "External MCP connection", its state table, Authentication 5;
// shapes, limits and request rules after the public API document's McpConnection operations).
// The secret is write-only: the stored row keeps it sealed (secret.ts), never in clear.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, StringEnum } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';
import { withRules, type SchemaRule } from '../../core/schema-rules.ts';
import { MAX_TOOLS, PROBE_FAILURES } from '../../peers/mcp/probe.ts';

export const MCP_CONNECTION_IDS = {
  mcpConnection: { prefix: 'mcp_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const TRANSPORTS = ['streamable_http', 'sse'] as const;
export const AUTH_TYPES = ['none', 'bearer', 'api_key'] as const;
export const CONNECTION_STATUSES = ['untested', 'tested', 'credential_error'] as const;
/** Why the last test failed: the call runtime's failure codes (peers/mcp/probe.ts). */
export const LAST_ERROR_CODES = PROBE_FAILURES;
export type Transport = (typeof TRANSPORTS)[number];
export type AuthType = (typeof AUTH_TYPES)[number];
export type LastErrorCode = (typeof LAST_ERROR_CODES)[number];

export const NAME_MAX = 80; // reference: name maxLength
export const URL_MAX = 2048; // reference: url maxLength
export const HEADER_NAME_MAX = 64; // reference: headerName maxLength
export const SECRET_MAX = 8192; // reference: secret maxLength
export { MAX_TOOLS };

const Name = Type.String({ minLength: 1, maxLength: NAME_MAX, description: `1 to ${NAME_MAX} characters.` });
const Url = HttpUrl({
  maxLength: URL_MAX,
  description: 'https only, port omitted or 443, no private or internal address (strict egress; by default local servers are allowed: docs/decisions.md "MCP connections").',
});
const TransportField = StringEnum(TRANSPORTS, { description: 'sse is the legacy transport.' });
const AuthTypeField = StringEnum(AUTH_TYPES);
const HeaderName = Type.String({
  minLength: 1,
  pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$",
  maxLength: HEADER_NAME_MAX,
  description: 'authType=api_key only: an HTTP header name (token characters); reserved names such as Authorization, Host and Cookie are refused.',
});
const Secret = Type.String({
  minLength: 1,
  pattern: '^[\\x21-\\x7e](?:[\\x20-\\x7e]*[\\x21-\\x7e])?$',
  maxLength: SECRET_MAX,
  description: 'Required unless authType is none. Printable ASCII. Write-only: never returned (hasSecret tells whether one is set).',
});

export const McpTool = Type.Object(
  {
    name: Type.String(),
    description: Nullable(Type.String()),
    inputSchema: Type.Object({}, { additionalProperties: true, description: 'The JSON Schema exactly as the server gave it.' }),
  },
  { $id: 'McpTool', additionalProperties: false },
);
export type McpToolWire = Static<typeof McpTool>;

export const McpConnection = Type.Object(
  {
    connectionId: Type.String(),
    name: Type.String(),
    url: Type.String(),
    host: Type.String({ description: 'The host part of url (no port), for list display.' }),
    transport: StringEnum(TRANSPORTS),
    authType: StringEnum(AUTH_TYPES),
    authHeaderName: Nullable(Type.String(), { description: 'The header name when authType=api_key; null otherwise (bearer uses Authorization).' }),
    hasSecret: Type.Boolean({ description: 'Whether a credential is set; the value can never be read.' }),
    enabled: Type.Boolean(),
    status: StringEnum(CONNECTION_STATUSES),
    toolCount: Type.Integer({ minimum: 0 }),
    tools: Type.Array(McpTool, { description: 'Snapshot from the last successful test.' }),
    lastTestedAt: Nullable(DateTime()),
    lastErrorCode: Nullable(StringEnum(LAST_ERROR_CODES)),
    agentCount: Type.Integer({ minimum: 0 }),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'McpConnection', additionalProperties: false },
);

export const McpConnectionList = Type.Object({ data: Type.Array(McpConnection) }, { $id: 'McpConnectionListResponse', additionalProperties: false });

export const DeleteMcpConnectionResponse = Type.Object(
  {
    deleted: Type.Boolean(),
    affectedAgents: Type.Array(Type.Object({ agentId: Type.String(), name: Type.String() }, { additionalProperties: false }), {
      description: 'Agents that used the connection (it is removed from them).',
    }),
  },
  { $id: 'DeleteMcpConnectionResponse', additionalProperties: false },
);

const authType = (...types: string[]) => ({ enum: types });
/** Which credential fields go with which authType (model.ts checkCredential; authType defaults to none). */
const CREDENTIAL_RULES: SchemaRule[] = [
  {
    description: 'headerName with authType api_key, which needs it; never with another authType.',
    code: 'VALIDATION',
    schema: { anyOf: [{ required: ['authType', 'headerName'], properties: { authType: authType('api_key'), headerName: {} } }, { not: { required: ['headerName'], properties: { headerName: {} } }, properties: { authType: authType('none', 'bearer') } }] },
  },
  {
    description: 'secret with authType bearer or api_key (required), never with none.',
    code: 'VALIDATION',
    schema: { anyOf: [{ required: ['authType', 'secret'], properties: { authType: authType('bearer', 'api_key'), secret: {} } }, { not: { required: ['secret'], properties: { secret: {} } }, properties: { authType: authType('none') } }] },
  },
];

export const CreateMcpConnectionBody = withRules(
  Type.Object(
    {
      name: Name,
      url: Url,
      transport: Type.Optional(TransportField),
      authType: Type.Optional(AuthTypeField),
      headerName: Type.Optional(HeaderName),
      secret: Type.Optional(Secret),
    },
    { $id: 'CreateMcpConnectionRequest', additionalProperties: false },
  ),
  CREDENTIAL_RULES,
);

export const UpdateMcpConnectionBody = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    transport: Type.Optional(TransportField),
    enabled: Type.Optional(Type.Boolean({ description: 'false keeps the connection out of calls.' })),
  },
  { $id: 'UpdateMcpConnectionRequest', additionalProperties: false, minProperties: 1 },
);

export const RotateMcpCredentialBody = withRules(
  Type.Object(
    {
      authType: AuthTypeField,
      headerName: Type.Optional(HeaderName),
      secret: Type.Optional(Secret),
      force: Type.Optional(Type.Boolean({ description: 'Store without checking the new credential against the server; status becomes untested.' })),
    },
    { $id: 'RotateMcpCredentialRequest', additionalProperties: false },
  ),
  CREDENTIAL_RULES,
);

export type CreateMcpConnectionInput = Static<typeof CreateMcpConnectionBody>;
export type UpdateMcpConnectionInput = Static<typeof UpdateMcpConnectionBody>;
export type RotateMcpCredentialInput = Static<typeof RotateMcpCredentialBody>;

// --- stored state ---

export const McpConnectionRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    url: Type.String(),
    host: Type.String(),
    transport: StringEnum(TRANSPORTS),
    authType: StringEnum(AUTH_TYPES),
    authHeaderName: Nullable(Type.String()),
    sealedSecret: Nullable(Type.String({ description: 'The secret sealed with AES-256-GCM (secret.ts); never the clear value.' })),
    enabled: Type.Boolean(),
    status: StringEnum(CONNECTION_STATUSES),
    tools: Type.Array(McpTool),
    lastTestedAt: Nullable(DateTime()),
    lastErrorCode: Nullable(StringEnum(LAST_ERROR_CODES)),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type McpConnectionRow = Static<typeof McpConnectionRowSchema>;

export const McpConnectionsStateSchema = Type.Object({ connections: Type.Array(McpConnectionRowSchema) }, { additionalProperties: false });
export type McpConnectionsState = Static<typeof McpConnectionsStateSchema>;
