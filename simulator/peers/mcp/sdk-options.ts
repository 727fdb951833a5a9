// Options shared by every use of the official MCP SDK here. The SDK builds an Ajv instance per
// Client and Server by default (tens of milliseconds each); the runtime only lists tools and the
// servers never ask for elicitation, so nothing here validates tool outputs: a pass-through
// validator keeps each connection test fast.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

export const PASS_THROUGH_VALIDATOR: jsonSchemaValidator = {
  getValidator: () => (input) => ({ valid: true, data: input as never, errorMessage: undefined }),
};

// undici and the SDK client load on first use, not at start (bin/start.cjs keeps them out of the
// bundle; most runs never reach an MCP server). undici's loader is every outbound client's.
export { loadUndici } from '../outbound-client.ts';
let sdk: Promise<{ Client: typeof Client; Streamable: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport; Sse: typeof import('@modelcontextprotocol/sdk/client/sse.js').SSEClientTransport }> | undefined;
export const loadSdk = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
  ]).then(([c, h, s]) => ({ Client: c.Client, Streamable: h.StreamableHTTPClientTransport, Sse: s.SSEClientTransport })));
