// What a fake MCP server does, as a test scripts it through the control plane (POST
// /_sim/mcp/servers): which transport it speaks, its tools, the credential it expects, delays in
// virtual seconds, a broken handshake, a self-signed certificate, a public address on the fake
// internet. Defaults make a healthy server with one tool and no authentication.
import { Type, type Static } from '@sinclair/typebox';
import { IpAddress, Nullable, StringEnum } from '../../core/schema.ts';
import { withRules } from '../../core/schema-rules.ts';

export const FAKE_TRANSPORTS = ['streamable_http', 'sse'] as const;
export const HANDSHAKES = ['ok', 'garbage', 'http_error'] as const;
export const MAX_GENERATED_TOOLS = 20_000;

const Delay = Nullable(Type.Number({ minimum: 0, maximum: 86_400 }), {
  description: 'Virtual seconds before the answer; null answers at once. Spent from the test\'s budget (10 s): a delay that does not fit ends the test with TIMEOUT.',
});

export const FakeToolSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 128 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 4096 }))),
    inputSchema: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'Given to clients as is; default { "type": "object" }.' })),
    result: Type.Optional(
      Nullable(Type.Unknown({ description: 'What tools/call answers: a string is the text, anything else is sent as JSON text (and as structuredContent when an object). Strings may hold {{arguments.path}} references to the call\'s arguments. null or absent: a JSON echo { tool, arguments }.' })),
    ),
    isError: Type.Optional(Type.Boolean({ description: 'The tool reports an error (isError true) with its result as the message.' })),
  },
  { additionalProperties: false },
);

export const FakeServerScriptSchema = Type.Object(
  {
    transport: Type.Optional(StringEnum(FAKE_TRANSPORTS, { description: 'What the server speaks; default streamable_http.' })),
    tls: Type.Optional(Type.Boolean({ description: 'Serve https with a self-signed certificate (clients that verify certificates fail with TLS_ERROR).' })),
    auth: Type.Optional(
      withRules(
        Type.Object(
          {
            type: StringEnum(['none', 'bearer', 'api_key'] as const),
            headerName: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
            secret: Type.Optional(Type.String({ minLength: 1, maxLength: 8192 })),
          },
          { additionalProperties: false, description: 'The credential every request must carry; 401 otherwise. The secret is never shown back.' },
        ),
        [
          {
            description: 'bearer and api_key need a secret; api_key a headerName too.',
            code: 'VALIDATION',
            schema: { allOf: [{ if: { properties: { type: { enum: ['bearer', 'api_key'] } } }, then: { required: ['secret'], properties: { secret: {} } } }, { if: { properties: { type: { const: 'api_key' } } }, then: { required: ['headerName'], properties: { headerName: {} } } }] },
          },
        ],
      ),
    ),
    tools: Type.Optional(Type.Array(FakeToolSchema, { maxItems: 1000 })),
    generatedTools: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_GENERATED_TOOLS, description: 'Extra tools tool_1 ... tool_n after `tools` (to exceed the 50-tool limit).' })),
    pageSize: Type.Optional(Nullable(Type.Integer({ minimum: 1, maximum: 1000 }), { description: 'Tools per tools/list page (cursor paging); null lists all at once.' })),
    delays: Type.Optional(
      Type.Object(
        {
          handshake: Type.Optional(Delay),
          listTools: Type.Optional(Delay),
          hang: Type.Optional(StringEnum(['none', 'handshake', 'listTools'] as const, { description: 'Never answer this step.' })),
        },
        { additionalProperties: false },
      ),
    ),
    handshake: Type.Optional(StringEnum(HANDSHAKES, { description: 'garbage: answers that are not MCP; http_error: 500 to every request.' })),
    publicAddress: Type.Optional(Nullable(IpAddress({ description: 'An address on the fake internet, public as strict egress classifies addresses (no private, loopback or other internal range): names the fake DNS resolves to it, port 443 or the URL\'s, reach this server.' }))),
  },
  { $id: 'SimMcpServerScript', additionalProperties: false },
);
export type FakeServerScriptInput = Static<typeof FakeServerScriptSchema>;

/** A script with every default filled in. */
export interface FakeServerScript {
  transport: (typeof FAKE_TRANSPORTS)[number];
  tls: boolean;
  auth: { type: 'none' | 'bearer' | 'api_key'; headerName: string | null; secret: string | null };
  tools: { name: string; description: string | null; inputSchema: Record<string, unknown>; result: unknown; isError: boolean }[];
  generatedTools: number;
  pageSize: number | null;
  delays: { handshake: number | null; listTools: number | null; hang: 'none' | 'handshake' | 'listTools' };
  handshake: (typeof HANDSHAKES)[number];
  publicAddress: string | null;
}

export function withDefaults(input: FakeServerScriptInput, base?: FakeServerScript): FakeServerScript {
  const b: FakeServerScript = base ?? {
    transport: 'streamable_http',
    tls: false,
    auth: { type: 'none', headerName: null, secret: null },
    tools: [{ name: 'echo', description: 'Echoes its text argument.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] }, result: null, isError: false }],
    generatedTools: 0,
    pageSize: null,
    delays: { handshake: null, listTools: null, hang: 'none' },
    handshake: 'ok',
    publicAddress: null,
  };
  return {
    transport: input.transport ?? b.transport,
    tls: input.tls ?? b.tls,
    auth: input.auth ? { type: input.auth.type, headerName: input.auth.headerName ?? null, secret: input.auth.secret ?? null } : b.auth,
    tools: input.tools ? input.tools.map((t) => ({ name: t.name, description: t.description ?? null, inputSchema: t.inputSchema ?? { type: 'object' }, result: t.result ?? null, isError: t.isError ?? false })) : b.tools,
    generatedTools: input.generatedTools ?? b.generatedTools,
    pageSize: input.pageSize === undefined ? b.pageSize : input.pageSize,
    delays: { ...b.delays, ...(input.delays ?? {}) } as FakeServerScript['delays'],
    handshake: input.handshake ?? b.handshake,
    publicAddress: input.publicAddress === undefined ? b.publicAddress : input.publicAddress,
  };
}

/** The server as the control plane shows it (never the secret). */
export const FakeServerViewSchema = Type.Object(
  {
    serverId: Type.String(),
    url: Type.String({ description: 'Where the server listens (loopback).' }),
    port: Type.Integer(),
    transport: StringEnum(FAKE_TRANSPORTS),
    tls: Type.Boolean(),
    authType: Type.String(),
    authHeaderName: Nullable(Type.String()),
    hasSecret: Type.Boolean(),
    toolCount: Type.Integer(),
    handshake: StringEnum(HANDSHAKES),
    publicAddress: Nullable(Type.String()),
    requests: Type.Array(
      Type.Object(
        {
          httpMethod: Type.String(),
          rpcMethod: Nullable(Type.String({ description: 'The JSON-RPC method, when the body had one.' })),
          authorized: Type.Boolean(),
        },
        { additionalProperties: false },
      ),
      { description: 'The last 200 requests, oldest first (no header values).' },
    ),
  },
  { $id: 'SimMcpServer', additionalProperties: false },
);
