// Apps connected to the platform's own MCP server (spec Authentication 4, "MCP tool get_usage"):
// each holds the permissions fixed when it connected and the instant it connected. Registered
// through the control plane (the fixed contract POST /_sim/accounts/{accountId}/mcp-apps); the
// token is shown once and stored as a SHA-256 hash only.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';

export const MCP_APP_IDS = {
  mcpApp: { prefix: 'mapp_', hex: 16 },
  mcpAppToken: { prefix: 'mcpt_', hex: 40 },
} as const satisfies Record<string, IdFormat>;

/** One JSON-RPC message to /mcp (documented; the MCP SDK's transport parses and checks it). */
export const McpJsonRpcRequest = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Integer()], { description: 'Absent for a notification (answered 202).' })),
    method: Type.String({ minLength: 1, description: 'initialize, notifications/initialized, tools/list, tools/call, ping, ...' }),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { $id: 'McpJsonRpcRequest' },
);

export const RegisterMcpAppBody = Type.Object(
  {
    permissions: Type.Array(Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*:[a-z][a-z0-9_]*$' }), {
      maxItems: 50,
      description: 'Permission names fixed for the app, e.g. read:usage (needed for get_usage). Other names are kept and grant nothing yet.',
    }),
    connectedAt: Type.Optional(DateTime({ description: 'When the app connected; default now. An app connected before a permission existed does not get it.' })),
  },
  { $id: 'SimRegisterMcpAppRequest', additionalProperties: false },
);
export type RegisterMcpAppInput = Static<typeof RegisterMcpAppBody>;

export const RegisteredMcpApp = Type.Object(
  {
    appId: Type.String(),
    token: Type.String({ description: 'The bearer token for /mcp; shown only in this answer.' }),
  },
  { $id: 'SimRegisteredMcpApp', additionalProperties: false },
);

export const McpAppRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    permissions: Type.Array(Type.String()),
    connectedAt: DateTime(),
    tokenHash: Type.String({ description: 'SHA-256 of the token, hex.' }),
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type McpAppRow = Static<typeof McpAppRowSchema>;

export const McpAppsStateSchema = Type.Object({ apps: Type.Array(McpAppRowSchema) }, { additionalProperties: false });
export type McpAppsState = Static<typeof McpAppsStateSchema>;

/** A JSON-RPC 2.0 answer of the MCP server (the MCP specification defines result and error). */
export const McpJsonRpcResponse = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({ code: Type.Integer(), message: Type.String() }, { additionalProperties: true })),
  },
  { $id: 'McpJsonRpcResponse', additionalProperties: true },
);
