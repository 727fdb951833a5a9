// The platform's own MCP server at /mcp (streamable HTTP, stateless, JSON answers), built with
// the official SDK's server and its web-standard transport, so it runs inside the pipeline like
// any operation (sim.handle and sim.fetch reach it too). The bearer is an app token from POST
// /_sim/accounts/{accountId}/mcp-apps; tools are listed per the app's grant (tools.ts).
import { header, type Reply, type SimRequest } from '../../core/operation.ts';
// Only POST is served: the server is stateless, so GET (a server-initiated stream) and DELETE
// (ending a session) get the router's 405 with Allow: POST, as the MCP transport permits.
import { errorCodes } from '../../core/errors.ts';
import { PASS_THROUGH_VALIDATOR } from '../../peers/mcp/sdk-options.ts';
import { PLATFORM_TOOLS } from './tools.ts';
import { McpJsonRpcRequest, McpJsonRpcResponse, type McpAppRow } from './schema.ts';
import type { McpAppsModel } from './model.ts';
import { operation, type McpAppsScope } from './scope.ts';
import { RequiredParam } from '../../core/schema.ts';
import { Type } from '@sinclair/typebox';

const TAG = 'MCP server';
const BASIS = 'spec "Usage aggregation" (MCP tool get_usage) and Authentication 4; MCP streamable HTTP transport';

let sdk:
  | Promise<{
      Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
      Transport: typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js').WebStandardStreamableHTTPServerTransport;
      types: typeof import('@modelcontextprotocol/sdk/types.js');
    }>
  | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([s, t, types]) => ({ Server: s.Server, Transport: t.WebStandardStreamableHTTPServerTransport, types })));

function appOf(apps: McpAppsModel, req: SimRequest): McpAppRow {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  const app = m ? apps.forToken(m[1]!) : undefined;
  if (!app) throw errorCodes.UNAUTHORIZED('the MCP server needs "Authorization: Bearer <app token>" (POST /_sim/accounts/{accountId}/mcp-apps)');
  return app;
}

function webRequest(req: SimRequest): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const body = req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : Buffer.from(req.body.buffer, req.body.byteOffset, req.body.byteLength);
  return new Request('http://simulator.local/mcp', { method: req.method.toUpperCase(), headers, body: req.method.toUpperCase() === 'POST' ? body : undefined });
}

async function serve(scope: McpAppsScope, app: McpAppRow, req: SimRequest): Promise<Reply> {
  const { Server, Transport, types } = await loadSdk();
  const server = new Server({ name: 'platform-simulator', version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: PASS_THROUGH_VALIDATOR });
  const visible = () => PLATFORM_TOOLS.filter((t) => scope.mcpApps.holds(app, t.permission));
  server.setRequestHandler(types.ListToolsRequestSchema, () => ({
    tools: visible().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema as { type: 'object' } })),
  }));
  server.setRequestHandler(types.CallToolRequestSchema, (request) => {
    const tool = visible().find((t) => t.name === request.params.name);
    // An unknown tool, or one the grant does not cover, is a protocol error: the tool is absent.
    if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    const out = tool.call(scope.usage, app, (request.params.arguments ?? {}) as Record<string, unknown>);
    return { content: [{ type: 'text' as const, text: out.text }], ...(out.structured ? { structuredContent: out.structured } : {}), isError: out.isError };
  });
  const transport = new Transport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const res = await transport.handleRequest(webRequest(req));
    const headers: Record<string, string> = {};
    res.headers.forEach((v, k) => (headers[k] = v));
    return { status: res.status, headers, raw: await res.text() };
  } finally {
    await transport.close();
    await server.close();
  }
}

export const operations = [
  operation({
    operationId: 'mcpServer',
    method: 'POST',
    path: '/mcp',
    tag: TAG,
    summary: 'The platform\'s MCP server (streamable HTTP)',
    description:
      'JSON-RPC messages of the Model Context Protocol: initialize, tools/list, tools/call. Bearer: an app token (POST /_sim/accounts/{accountId}/mcp-apps). Tools follow the app\'s grant: get_usage needs read:usage held since before the app connected; its result equals getUsage\'s for the same arguments, 50 records per page by default. Send `Accept: application/json, text/event-stream`; answers are JSON.',
    origin: 'spec',
    basis: BASIS,
    auth: 'none',
    headerParams: { Accept: RequiredParam(Type.Literal('application/json, text/event-stream', { description: 'Both types, as the streamable HTTP transport requires (else 406).' })) },
    bodyDoc: { required: true, content: { 'application/json': { schema: McpJsonRpcRequest } } },
    responses: { 200: { description: 'A JSON-RPC answer.', schema: McpJsonRpcResponse }, 202: { description: 'A notification was accepted.' } },
    errors: [errorCodes.UNAUTHORIZED],
    handler: (ctx) => serve(ctx.scope, appOf(ctx.scope.mcpApps, ctx.request), ctx.request),
  }),
];
