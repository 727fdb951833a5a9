// The call runtime's side of an MCP connection test: connects to the server with the official
// SDK's client over streamable HTTP or SSE, lists the tools (following cursors), and maps every
// failure to a lastErrorCode. Real I/O, so this is the one MCP file allowed wall-clock timers
// (the network ceiling, test/determinism.test.ts); scripted delays of fake servers are spent
// from the test's virtual budget instead (budget.ts). Connections go through the egress guard at
// connect time, so the address checked is the address connected to; names the fake DNS answers
// live on the fake internet and reach only fake servers. The runner registers with the I/O
// barrier: a clock advance waits for tests in flight.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Agent, buildConnector as BuildConnector } from 'undici';
import type { IoBarrier, PendingIo } from '../../core/io.ts';
import type { EgressGuard } from '../egress.ts';
import { MAX_TOOLS, type ProbeFailure, type ProbedTool, type ProbeOutcome, type ProbeRequest } from './probe.ts';
import { DEFAULT_BUDGET_MS, TestBudget } from './budget.ts';
import type { FakeMcpServers } from './fake-servers.ts';
import { loadSdk, loadUndici, PASS_THROUGH_VALIDATOR } from './sdk-options.ts';

export const DEFAULT_MCP_TIMEOUT_MS = 10_000;
/** tools/list pages followed before the server counts as misbehaving. */
const MAX_PAGES = 100;
const CLIENT_INFO = { name: 'platform-simulator-call-runtime', version: '1.0.0' };

class Failure extends Error {
  constructor(
    readonly code: ProbeFailure,
    message: string,
  ) {
    super(message);
  }
}

/** What one test has seen, to classify its failure. */
interface TestState {
  budget: TestBudget;
  abort: AbortController;
  wallTimedOut: boolean;
  blocked: string | undefined;
  connectError: unknown;
}

function chain(e: unknown): { code?: string; message?: string; name?: string }[] {
  const out: { code?: string; message?: string; name?: string }[] = [];
  let cur = e as { code?: unknown; cause?: unknown; message?: string; name?: string; error?: unknown } | undefined;
  for (let depth = 0; cur && typeof cur === 'object' && depth < 6; depth++) {
    out.push({ code: typeof cur.code === 'string' || typeof cur.code === 'number' ? String(cur.code) : undefined, message: cur.message, name: cur.name });
    cur = (cur.cause ?? cur.error) as typeof cur;
  }
  return out;
}

const TLS_PATTERN = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ERR_TLS|ERR_SSL|EPROTO|certificate|SSL routines|TLS/i;

function classify(e: unknown, t: TestState): { code: ProbeFailure; detail: string } {
  if (e instanceof Failure) return { code: e.code, detail: e.message };
  if (t.blocked) return { code: 'URL_BLOCKED', detail: t.blocked };
  if (t.budget.exceeded) return { code: 'TIMEOUT', detail: `no answer within the ${t.budget.limitMs / 1000} s budget` };
  if (t.wallTimedOut) return { code: 'TIMEOUT', detail: 'no answer within the network timeout' };
  const links = [...chain(t.connectError), ...chain(e)];
  for (const l of links) {
    if (l.code === '401' || l.code === '403' || l.name === 'UnauthorizedError' || /\b(401|403)\b/.test(l.message ?? '') && /unauthori|forbidden|401|403/i.test(l.message ?? '')) {
      return { code: 'AUTH_FAILED', detail: 'the server refused the credential' };
    }
  }
  for (const l of links) {
    if (TLS_PATTERN.test(l.code ?? '') || TLS_PATTERN.test(l.message ?? '')) return { code: 'TLS_ERROR', detail: `TLS failed: ${l.message ?? l.code}` };
  }
  const first = links.find((l) => l.code) ?? links[0];
  return { code: 'PROTOCOL_ERROR', detail: `the server did not complete the MCP exchange (${first?.code ? `${first.code}: ` : ''}${first?.message ?? 'unknown error'})` };
}

export class McpRunner implements PendingIo {
  /** Scripted through PUT /_sim/mcp/runner: false answers 503 to tests and rotations. */
  isAvailable = true;
  /** Wall-clock ceiling of one test (real servers); fake servers' delays use the virtual budget. */
  timeoutMs = DEFAULT_MCP_TIMEOUT_MS;
  /** Virtual milliseconds a test may spend in fake servers' delays. */
  budgetMs = DEFAULT_BUDGET_MS;
  private inFlight = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly egress: EgressGuard,
    private readonly fakes: FakeMcpServers,
    private readonly io: IoBarrier,
  ) {}

  available(): boolean {
    return this.isAvailable;
  }

  get busy(): boolean {
    return this.inFlight > 0;
  }

  whenIdle(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  /** One connection test; its outcome enters through the I/O barrier (recorded with durable state; a test cut by a restart runs again). */
  probe(req: ProbeRequest): Promise<ProbeOutcome> {
    return this.io.outcome('mcp.test', () => this.test(req));
  }

  private async test(req: ProbeRequest): Promise<ProbeOutcome> {
    this.inFlight++;
    const abort = new AbortController();
    const t: TestState = {
      budget: new TestBudget(this.budgetMs, () => abort.abort(new Failure('TIMEOUT', 'budget exceeded'))),
      abort,
      wallTimedOut: false,
      blocked: undefined,
      connectError: undefined,
    };
    const timer = setTimeout(() => {
      t.wallTimedOut = true;
      abort.abort(new Failure('TIMEOUT', 'network timeout'));
    }, this.timeoutMs);
    let agent: Agent | undefined;
    let client: Client | undefined;
    try {
      this.precheck(req.url);
      const pre = await this.egress.resolve(new URL(req.url).hostname);
      if (!pre.ok && pre.blocked) throw new Failure('URL_BLOCKED', pre.reason);
      if (!pre.ok) throw new Failure('PROTOCOL_ERROR', pre.reason);
      const [u, mcp] = await Promise.all([loadUndici(), loadSdk()]);
      agent = new u.Agent({ connect: this.connector(u.buildConnector, t), pipelining: 0 });
      const dispatcher = agent;
      const fetchVia = ((url: string | URL, init?: RequestInit) => u.fetch(url, { ...(init as object), dispatcher } as never)) as unknown as typeof fetch;
      const transport = this.transport(mcp, req, fetchVia);
      client = new mcp.Client(CLIENT_INFO, { jsonSchemaValidator: PASS_THROUGH_VALIDATOR });
      const aborted = new Promise<never>((_, reject) => abort.signal.addEventListener('abort', () => reject(abort.signal.reason), { once: true }));
      aborted.catch(() => undefined);
      const options = { signal: abort.signal, timeout: this.timeoutMs + 1000 };
      await Promise.race([client.connect(transport, options), aborted]);
      const tools = await Promise.race([this.listTools(client, options), aborted]);
      return { ok: true, tools };
    } catch (e) {
      const { code, detail } = classify(e, t);
      return { ok: false, code, detail };
    } finally {
      clearTimeout(timer);
      t.budget.release();
      this.fakes.budgets.unbindAll(t.budget);
      if (!abort.signal.aborted) abort.abort(new Failure('PROTOCOL_ERROR', 'test over'));
      await client?.close().catch(() => undefined);
      await agent?.destroy().catch(() => undefined);
      this.inFlight--;
      if (!this.busy) for (const w of this.idleWaiters.splice(0)) w();
    }
  }

  /** Strict mode may have been switched on after registration: the request rules again. */
  private precheck(url: string): void {
    const u = new URL(url);
    if (!this.egress.strict) return;
    if (u.protocol !== 'https:') throw new Failure('URL_BLOCKED', 'strict egress: only https is allowed');
    if (u.port !== '' && u.port !== '443') throw new Failure('URL_BLOCKED', `strict egress: port ${u.port} is not allowed`);
  }

  private transport(mcp: Awaited<ReturnType<typeof loadSdk>>, req: ProbeRequest, fetchVia: typeof fetch): Transport {
    const url = new URL(req.url);
    const requestInit: RequestInit = { headers: req.headers };
    if (req.transport === 'sse') return new mcp.Sse(url, { requestInit, fetch: fetchVia, eventSourceInit: { fetch: fetchVia } });
    return new mcp.Streamable(url, { requestInit, fetch: fetchVia });
  }

  private async listTools(client: Client, options: { signal: AbortSignal; timeout: number }): Promise<ProbedTool[]> {
    const tools: ProbedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const result = await client.listTools(cursor === undefined ? {} : { cursor }, options);
      for (const tool of result.tools) {
        tools.push({ name: tool.name, description: tool.description ?? null, inputSchema: tool.inputSchema as Record<string, unknown> });
      }
      if (tools.length > MAX_TOOLS) throw new Failure('TOO_MANY_TOOLS', `the server lists more than ${MAX_TOOLS} tools`);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
    }
    throw new Failure('PROTOCOL_ERROR', `tools/list did not end within ${MAX_PAGES} pages`);
  }

  /**
   * undici connector: resolves through the egress guard (refusing blocked answers), sends fake
   * internet addresses to their fake server, and binds the socket's port to the test's budget.
   */
  private connector(buildConnector: typeof BuildConnector, t: TestState): BuildConnector.connector {
    const base = buildConnector({ timeout: this.timeoutMs });
    return (opts, callback) => {
      void this.egress.resolve(opts.hostname).then((r) => {
        if (!r.ok) {
          if (r.blocked) t.blocked = r.reason;
          const err = Object.assign(new Error(r.reason), { code: r.blocked ? 'EGRESS_BLOCKED' : 'ENOTFOUND' });
          return callback(err, null);
        }
        const first = r.addresses[0]!;
        let target = { host: first.address, port: opts.port };
        if (r.fake) {
          const routed = this.fakes.route(first.address);
          if (!routed) {
            const err = Object.assign(new Error(`connect ECONNREFUSED ${first.address} (fake internet: no server there)`), { code: 'ECONNREFUSED' });
            return callback(err, null);
          }
          target = { host: routed.host, port: String(routed.port) };
        }
        const literal = opts.hostname.replace(/^\[|\]$/g, '') === first.address;
        base({ ...opts, hostname: target.host, port: target.port, servername: literal ? undefined : (opts.servername ?? opts.hostname) }, (err, socket) => {
          if (err) t.connectError = err;
          if (socket) this.fakes.budgets.bind(socket.localPort, t.budget);
          if (err) callback(err, null);
          else callback(null, socket!);
        });
      });
    };
  }
}
