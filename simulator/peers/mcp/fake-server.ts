// One fake external MCP server on loopback, built with the official SDK's server and transports
// (no protocol code here): it checks the scripted credential, applies scripted delays from the
// calling test's virtual budget, can break the handshake or serve a self-signed certificate, and
// lists its tools (paged when scripted) and answers tool calls from its script. Streamable HTTP
// keeps a session per initialize (JSON answers; requests without a session are served
// stateless); SSE keeps one SDK transport per open stream.
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { FakeServerScript } from './fake-script.ts';
import type { BudgetRegistry } from './budget.ts';
import { PASS_THROUGH_VALIDATOR } from './sdk-options.ts';

const MAX_BODY = 1024 * 1024;
/** Streamable HTTP sessions one server keeps open; the oldest closes beyond it. */
const MAX_SESSIONS = 1000;
const LOG_LIMIT = 200;

// The SDK's server side loads with the first fake server (bin/start.cjs keeps it out of the bundle).
let sdk:
  | Promise<{
      Server: typeof Server;
      Streamable: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
      Sse: typeof SSEServerTransport;
      types: typeof import('@modelcontextprotocol/sdk/types.js');
    }>
  | undefined;
const loadSdk = () =>
  (sdk ??= Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/server/sse.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]).then(([s, h, e, types]) => ({ Server: s.Server, Streamable: h.StreamableHTTPServerTransport, Sse: e.SSEServerTransport, types })));
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
type StreamableTransport = InstanceType<Sdk['Streamable']>;

/** fixtures/tls of this project, found upwards from this module (works from the dist bundle too). */
function tlsFile(name: string): Buffer {
  for (let d = dirname(fileURLToPath(import.meta.url)); ; d = dirname(d)) {
    const p = join(d, 'fixtures', 'tls', name);
    if (existsSync(p)) return readFileSync(p);
    if (dirname(d) === d) throw new Error(`fixtures/tls/${name} not found`);
  }
}

let tlsMaterial: { key: Buffer; cert: Buffer } | undefined;
function selfSigned(): { key: Buffer; cert: Buffer } {
  return (tlsMaterial ??= { key: tlsFile('self-signed-key.pem'), cert: tlsFile('self-signed-cert.pem') });
}

export interface LoggedRequest {
  httpMethod: string;
  rpcMethod: string | null;
  authorized: boolean;
}

type Tool = FakeServerScript['tools'][number];

function allTools(s: FakeServerScript): Tool[] {
  const generated: Tool[] = [];
  for (let i = 1; i <= s.generatedTools; i++) generated.push({ name: `tool_${i}`, description: `Generated tool ${i}.`, inputSchema: { type: 'object' }, result: null, isError: false });
  return [...s.tools, ...generated];
}

/** A tools/call answer from the tool's script: its result (strings at any depth with {{arguments.path}} filled), else an echo. */
export function toolAnswer(tool: Tool, name: string, args: Record<string, unknown>) {
  const fill = (text: string) =>
    text.replace(/\{\{\s*arguments\.([A-Za-z0-9_.]+)\s*\}\}/g, (_, path: string) => {
      let cur: unknown = args;
      for (const p of path.split('.')) cur = cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[p] : undefined;
      return cur === undefined ? '' : typeof cur === 'string' ? cur : JSON.stringify(cur);
    });
  const deep = (v: unknown): unknown =>
    typeof v === 'string' ? fill(v) : Array.isArray(v) ? v.map(deep) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deep(x)])) : v;
  const r = tool.result === null || tool.result === undefined ? { tool: name, arguments: args } : deep(tool.result);
  const text = typeof r === 'string' ? r : JSON.stringify(r);
  const structured = tool.result !== null && typeof r === 'object' && !Array.isArray(r) ? { structuredContent: r as Record<string, unknown> } : {};
  return { content: [{ type: 'text' as const, text }], ...structured, ...(tool.isError ? { isError: true } : {}) };
}

function readBody(req: http.IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        req.destroy();
        resolve(undefined);
      } else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(undefined));
  });
}

function rpcMethodOf(body: unknown): string | null {
  const first = Array.isArray(body) ? body[0] : body;
  return first && typeof first === 'object' && typeof (first as { method?: unknown }).method === 'string' ? (first as { method: string }).method : null;
}

export class FakeMcpServer {
  readonly log: LoggedRequest[] = [];
  private server: http.Server | undefined;
  private sdk: Sdk | undefined;
  private sse = new Map<string, SSEServerTransport>(); // maps an SSE session id to its open stream
  private sessions = new Map<string, StreamableTransport>(); // maps a streamable HTTP session id to its transport, oldest first
  private nextSession = 0;
  port = 0;

  constructor(
    readonly id: string,
    public script: FakeServerScript,
    private readonly budgets: BudgetRegistry,
  ) {}

  get url(): string {
    const scheme = this.script.tls ? 'https' : 'http';
    return `${scheme}://127.0.0.1:${this.port}${this.script.transport === 'sse' ? '/sse' : '/mcp'}`;
  }

  get toolCount(): number {
    return this.script.tools.length + this.script.generatedTools;
  }

  async start(): Promise<void> {
    this.sdk = await loadSdk();
    const handler = (req: http.IncomingMessage, res: http.ServerResponse) => void this.handle(req, res).catch(() => res.destroy());
    // node:https (and TLS) load only for a TLS server: most runs start none.
    this.server = this.script.tls ? (await import('node:https')).createServer(selfSigned(), handler) : http.createServer(handler);
    this.server.on('clientError', (_e, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const t of this.sse.values()) await t.close().catch(() => undefined);
    this.sse.clear();
    for (const t of [...this.sessions.values()]) await t.close().catch(() => undefined);
    this.sessions.clear();
    const s = this.server;
    this.server = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  }

  private authorized(req: http.IncomingMessage): boolean {
    const a = this.script.auth;
    if (a.type === 'none') return true;
    if (a.type === 'bearer') return req.headers.authorization === `Bearer ${a.secret}`;
    const v = req.headers[(a.headerName ?? '').toLowerCase()];
    return v === a.secret;
  }

  private record(entry: LoggedRequest): void {
    this.log.push(entry);
    if (this.log.length > LOG_LIMIT) this.log.splice(0, this.log.length - LOG_LIMIT);
  }

  /** An MCP server of the SDK answering this script's tools. */
  private mcpServer(): Server {
    const { Server, types } = this.sdk!;
    const { CallToolRequestSchema, ListToolsRequestSchema } = types;
    const server = new Server({ name: `fake-mcp-${this.id}`, version: '1.0.0' }, { capabilities: { tools: {} }, jsonSchemaValidator: PASS_THROUGH_VALIDATOR });
    // A tool without a description omits the field (MCP: an optional string, never null).
    const all = allTools(this.script);
    const tools = all.map((t) => ({ name: t.name, inputSchema: t.inputSchema, ...(t.description === null ? {} : { description: t.description }) }));
    const byName = new Map(all.map((t) => [t.name, t]));
    const pageSize = this.script.pageSize;
    server.setRequestHandler(ListToolsRequestSchema, (request) => {
      if (pageSize === null) return { tools };
      const start = Number(request.params?.cursor ?? 0) || 0;
      const next = start + pageSize;
      return { tools: tools.slice(start, next), ...(next < tools.length ? { nextCursor: String(next) } : {}) };
    });
    server.setRequestHandler(CallToolRequestSchema, (request) => {
      const tool = byName.get(request.params.name);
      if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      return toolAnswer(tool, request.params.name, request.params.arguments ?? {});
    });
    return server;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const text = method === 'POST' ? await readBody(req) : '';
    if (text === undefined) return void res.destroy();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    const rpc = rpcMethodOf(body);
    const authorized = this.authorized(req);
    this.record({ httpMethod: method, rpcMethod: rpc, authorized });
    if (!authorized) {
      res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer realm="fake-mcp"' });
      return void res.end('{"error":"unauthorized"}');
    }
    if (this.script.handshake === 'http_error') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return void res.end('internal error');
    }
    if (this.script.handshake === 'garbage') {
      res.writeHead(200, { 'content-type': method === 'GET' ? 'text/html' : 'application/json' });
      return void res.end('<html>this is not an MCP server</html>');
    }
    if (!(await this.delay(req, rpc))) return void res.destroy();
    if (this.script.transport === 'sse') return this.handleSse(req, res, method, body);
    return this.handleStreamable(req, res, method, body, rpc);
  }

  /**
   * Streamable HTTP: an initialize opens a session (one SDK server and transport, kept until the
   * client deletes it or MAX_SESSIONS newer ones push it out); requests naming the session go to
   * it; requests without one are answered statelessly, each by a server of its own.
   */
  private async handleStreamable(req: http.IncomingMessage, res: http.ServerResponse, method: string, body: unknown, rpc: string | null): Promise<void> {
    const sid = req.headers['mcp-session-id'];
    if (typeof sid === 'string') {
      const transport = this.sessions.get(sid);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return void res.end('{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}');
      }
      return transport.handleRequest(req, res, body);
    }
    if (method !== 'POST') {
      res.writeHead(405, { allow: 'POST' });
      return void res.end();
    }
    if (rpc === 'initialize') {
      const server = this.mcpServer();
      const transport: StreamableTransport = new this.sdk!.Streamable({
        sessionIdGenerator: () => `${this.id}-s${++this.nextSession}`,
        enableJsonResponse: true,
        onsessioninitialized: (id) => {
          this.sessions.set(id, transport);
          if (this.sessions.size > MAX_SESSIONS) {
            const [oldest, t] = this.sessions.entries().next().value!;
            this.sessions.delete(oldest);
            void t.close();
          }
        },
      });
      transport.onclose = () => {
        if (transport.sessionId !== undefined) this.sessions.delete(transport.sessionId);
        void server.close();
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    const server = this.mcpServer();
    const transport = new this.sdk!.Streamable({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Spends the scripted delay of this step from the calling test's budget; false: drop the answer. */
  private async delay(req: http.IncomingMessage, rpc: string | null): Promise<boolean> {
    const d = this.script.delays;
    const step = rpc === 'initialize' ? 'handshake' : rpc === 'tools/list' ? 'listTools' : null;
    if (step === null) return true;
    const seconds = d.hang === step ? null : d[step];
    if (seconds === null && d.hang !== step) return true;
    const budget = this.budgets.of(req.socket.remotePort);
    if (!budget) return d.hang !== step; // a client outside any test: no virtual time to spend
    return budget.wait(seconds === null ? null : seconds * 1000);
  }

  private async handleSse(req: http.IncomingMessage, res: http.ServerResponse, method: string, body: unknown): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (method === 'GET' && path === '/sse') {
      const transport = new this.sdk!.Sse('/messages', res);
      const server = this.mcpServer();
      this.sse.set(transport.sessionId, transport);
      res.on('close', () => {
        this.sse.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
      return;
    }
    if (method === 'POST' && path === '/messages') {
      const sessionId = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId') ?? '';
      const transport = this.sse.get(sessionId);
      if (!transport) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('unknown session');
      }
      await transport.handlePostMessage(req, res, body);
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  }
}
