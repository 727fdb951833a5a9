// The call runtime's MCP tool calls during agent calls (spec: connections are "usable by
// agents"): a real `tools/call` with the official SDK's client over the connection's transport
// and credential. One MCP session per connection target (URL, transport, credential) is kept
// open and shared by the calls that use it, as a runtime keeps its sessions warm; a transport
// failure drops it so the next call reconnects. Connections resolve through the egress guard at
// connect time and names of the fake internet reach only fake servers (as connection tests do).
// Registered with the I/O barrier: a clock advance waits for tool calls in flight. The network
// ceiling is an AbortSignal deadline; no timer of ours decides anything.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Agent } from 'undici';
import { Readable } from 'node:stream';
import { InFlight, type IoBarrier, type PendingIo } from '../../core/io.ts';
import type { EgressGuard } from '../egress.ts';
import type { FakeMcpServers } from './fake-servers.ts';
import { loadSdk, loadUndici, PASS_THROUGH_VALIDATOR } from './sdk-options.ts';

const CLIENT_INFO = { name: 'platform-simulator-call-runtime', version: '1.0.0' };
/** Sessions kept open at once; the least recently used closes beyond it. */
const MAX_SESSIONS = 32;

export interface ToolCallRequest {
  url: string;
  transport: 'streamable_http' | 'sse';
  /** The connection's auth header, in clear. */
  headers: Record<string, string>;
  name: string;
  arguments: Record<string, unknown>;
}

export type ToolCallOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: 'tool_error' | 'TIMEOUT' | 'URL_BLOCKED' | 'AUTH_FAILED' | 'PROTOCOL_ERROR'; detail: string };

/** Requests one session carries at once; more wait their turn (a runtime bounds its sessions too). */
const MAX_CONCURRENT = 256;

/** One open MCP session: its client, its connection pool, and the calls using or awaiting it. */
class Session {
  active = 0;
  broken = false;
  private readonly queue: (() => void)[] = [];

  constructor(
    readonly client: Client,
    readonly agent: Agent,
  ) {}

  /** Runs `work` when a slot is free. */
  async use<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= MAX_CONCURRENT) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.queue.shift()?.();
      if (this.broken && this.idle) this.onIdleBroken?.();
    }
  }

  /** Called once a dropped session has no call left (closes it). */
  onIdleBroken: (() => void) | undefined;

  get idle(): boolean {
    return this.active === 0 && this.queue.length === 0;
  }
}

/** The text a tool result carries: its text parts joined, else its structured content as JSON. */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  const texts = parts.filter((p): p is { type: 'text'; text: string } => p?.type === 'text' && typeof p.text === 'string').map((p) => p.text);
  if (texts.length > 0) return texts.join('\n');
  return result.structuredContent === undefined ? '' : JSON.stringify(result.structuredContent);
}

/**
 * A fetch for the SDK's transports over undici's `request` (a fraction of `fetch`'s cost per
 * call; no redirect is followed). The transport's own abort signal is not passed: it is shared
 * by every request of the session and its listeners would pile up; closing destroys the agent,
 * which ends requests in flight anyway.
 */
function requestFetch(request: typeof import('undici').request, agent: Agent): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((v, k) => (headers[k] = v));
    const r = await request(String(url), { method: (init?.method ?? 'GET') as 'GET', headers, body: (init?.body as string | undefined) ?? null, dispatcher: agent });
    const out = new Headers();
    for (const [k, v] of Object.entries(r.headers)) for (const one of Array.isArray(v) ? v : [v]) if (one !== undefined) out.append(k, one);
    const streaming = /text\/event-stream/i.test(out.get('content-type') ?? '');
    const noBody = r.statusCode === 204 || r.statusCode === 304 || init?.method === 'HEAD';
    const body = noBody ? null : streaming ? (Readable.toWeb(r.body) as ReadableStream) : await r.body.text();
    if (noBody) await r.body.dump();
    return new Response(body, { status: r.statusCode, headers: out });
  }) as typeof fetch;
}

/** A JSON-RPC error the server answered (the session itself is fine). */
function isRpcError(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return (e as Error)?.name === 'McpError' && typeof code === 'number' && code !== -32000 && code !== -32001;
}

function failureOf(e: unknown, blocked: string | undefined): Extract<ToolCallOutcome, { ok: false }> {
  if (blocked) return { ok: false, reason: 'URL_BLOCKED', detail: blocked };
  const text = `${(e as Error)?.name ?? ''} ${(e as Error)?.message ?? String(e)}`;
  if (/TimeoutError|aborted due to timeout|Request timed out/i.test(text)) return { ok: false, reason: 'TIMEOUT', detail: 'the MCP server did not answer in time' };
  if (/\b(401|403)\b|Unauthorized|Forbidden/i.test(text)) return { ok: false, reason: 'AUTH_FAILED', detail: 'the MCP server refused the credential' };
  return { ok: false, reason: 'PROTOCOL_ERROR', detail: `the MCP exchange failed: ${text.trim().slice(0, 300)}` };
}

export class McpToolCaller implements PendingIo {
  private readonly sessions = new Map<string, Promise<Session>>(); // target key → its open session (insertion order = recency)
  private readonly inFlight = new InFlight();

  constructor(
    private readonly egress: EgressGuard,
    private readonly fakes: FakeMcpServers,
    /** Wall-clock ceiling of one tool call, connect included (the runtime's MCP timeout). */
    private readonly timeout: () => number,
    private readonly io: IoBarrier,
  ) {}

  private get timeoutMs(): number {
    return this.timeout();
  }

  get busy(): boolean {
    return this.inFlight.busy;
  }

  whenIdle(): Promise<void> {
    return this.inFlight.whenIdle();
  }

  /** Calls the tool; `land` hears the outcome while the call still counts as in flight. */
  call(req: ToolCallRequest, land: (outcome: ToolCallOutcome) => void): void {
    // The outcome enters through the I/O barrier (recorded with durable state). A call cut by a
    // restart is not made again (a tool may act at the customer's side): it failed (docs/decisions.md "Durable state").
    const cut = (): ToolCallOutcome => ({ ok: false, reason: 'PROTOCOL_ERROR', detail: 'the tool call was cut: the simulator restarted' });
    this.inFlight.track(this.io.outcome('mcp.tool', () => this.run(req), cut), land);
  }

  private async run(req: ToolCallRequest): Promise<ToolCallOutcome> {
    const key = JSON.stringify([req.url, req.transport, Object.entries(req.headers).sort()]);
    const state = { blocked: undefined as string | undefined };
    let pending: Promise<Session> | undefined;
    try {
      await this.precheck(req.url, state);
      pending = this.sessions.get(key);
      if (pending) this.sessions.delete(key); // re-inserted below: most recent last
      pending ??= this.open(req, state);
      this.sessions.set(key, pending);
      this.evict();
      const session = await pending;
      return await session.use(async () => {
        if (session.broken) throw new Error('the MCP session closed');
        const signal = AbortSignal.timeout(this.timeoutMs);
        const result = await session.client.callTool({ name: req.name, arguments: req.arguments }, undefined, { signal, timeout: this.timeoutMs });
        const text = resultText(result as { content?: unknown; structuredContent?: unknown });
        if (result.isError === true) return { ok: false, reason: 'tool_error', detail: text || 'the tool reported an error' } as const;
        return { ok: true, text } as const;
      });
    } catch (e) {
      const failure = failureOf(e, state.blocked);
      // A JSON-RPC error answer (an unknown tool, bad arguments) leaves the session usable;
      // anything else drops it, and it closes once the calls still on it are done.
      if (pending && !isRpcError(e)) this.drop(key, pending);
      return failure;
    }
  }

  private drop(key: string, pending: Promise<Session>): void {
    if (this.sessions.get(key) === pending) this.sessions.delete(key);
    void pending.then(
      (s) => {
        if (s.broken) return;
        s.broken = true;
        s.onIdleBroken = () => void this.close(s);
        if (s.idle) void this.close(s);
      },
      () => undefined,
    );
  }

  /**
   * Strict egress may have been switched on after the session opened: every call checks the
   * URL and, for a name, what it resolves to now (the connector checks again at connect).
   */
  private async precheck(raw: string, state: { blocked: string | undefined }): Promise<void> {
    if (!this.egress.strict) return;
    const u = new URL(raw);
    let why: string | undefined;
    if (u.protocol !== 'https:' || (u.port !== '' && u.port !== '443')) why = 'strict egress: only https on port 443 is allowed';
    else {
      const r = await this.egress.resolve(u.hostname);
      if (!r.ok && r.blocked) why = r.reason;
    }
    if (why !== undefined) {
      state.blocked = why;
      throw new Error(why);
    }
  }

  private async open(req: ToolCallRequest, state: { blocked: string | undefined }): Promise<Session> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const [u, mcp] = await Promise.all([loadUndici(), loadSdk()]);
    const base = u.buildConnector({ timeout: this.timeoutMs });
    const agent = new u.Agent({
      connections: 64,
      connect: (opts, callback) => {
        void this.egress.resolve(opts.hostname).then((r) => {
          if (!r.ok) {
            if (r.blocked) state.blocked = r.reason;
            return callback(Object.assign(new Error(r.reason), { code: r.blocked ? 'EGRESS_BLOCKED' : 'ENOTFOUND' }), null);
          }
          const first = r.addresses[0]!;
          let target = { host: first.address, port: opts.port };
          if (r.fake) {
            const routed = this.fakes.route(first.address);
            if (!routed) return callback(Object.assign(new Error(`connect ECONNREFUSED ${first.address} (fake internet: no server there)`), { code: 'ECONNREFUSED' }), null);
            target = { host: routed.host, port: String(routed.port) };
          }
          const literal = opts.hostname.replace(/^\[|\]$/g, '') === first.address;
          base({ ...opts, hostname: target.host, port: target.port, servername: literal ? undefined : (opts.servername ?? opts.hostname) }, callback);
        });
      },
    });
    const fetchVia = requestFetch(u.request, agent);
    const requestInit: RequestInit = { headers: req.headers };
    const url = new URL(req.url);
    const transport = req.transport === 'sse' ? new mcp.Sse(url, { requestInit, fetch: fetchVia, eventSourceInit: { fetch: fetchVia } }) : new mcp.Streamable(url, { requestInit, fetch: fetchVia });
    const client = new mcp.Client(CLIENT_INFO, { jsonSchemaValidator: PASS_THROUGH_VALIDATOR });
    try {
      await client.connect(transport, { signal, timeout: this.timeoutMs });
    } catch (e) {
      await client.close().catch(() => undefined);
      await agent.destroy().catch(() => undefined);
      throw e;
    }
    return new Session(client, agent);
  }

  /** Beyond MAX_SESSIONS the least recently used goes (closed once its calls are done). */
  private evict(): void {
    while (this.sessions.size > MAX_SESSIONS) {
      const [oldest, session] = this.sessions.entries().next().value!;
      this.drop(oldest, session);
    }
  }

  private async close(s: Session): Promise<void> {
    await s.client.close().catch(() => undefined);
    await s.agent.destroy().catch(() => undefined);
  }

  /** Closes every session (reset, restore, close). */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((p) => p.then((s) => this.close(s), () => undefined)));
  }
}
