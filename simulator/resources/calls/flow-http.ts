// The `http` block's request to the customer's URL: real I/O over undici through the shared
// egress guard (peers/egress.ts), like webhooks and MCP: http(s) only, no credentials in the
// URL; in strict mode (`--strict-egress`, PUT /_sim/egress) internal literals and localhost
// names are refused before connecting, and names are resolved by the guard at the connection
// (fake DNS first), so one that resolves to an internal address is refused too. It registers with the I/O barrier (core/io.ts),
// so a clock advance waits for the answer before time moves on, and every request has a
// wall-clock deadline (AbortSignal), so a URL that hangs ends as "no answer" and never stalls
// the clock for longer than that deadline. Answers are read up to MAX_BODY bytes.
import type dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { Agent, Dispatcher } from 'undici';
import { InFlight, type IoBarrier, type PendingIo } from '../../core/io.ts';
import type { EgressGuard } from '../../peers/egress.ts';

export const DEFAULT_FLOW_HTTP_TIMEOUT_MS = 5000;
const MAX_BODY = 65_536;

export interface FlowHttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

/** status null: no usable answer (refused URL, connection error, timeout). */
export interface FlowHttpAnswer {
  status: number | null;
  body: string | null;
}

let undici: Promise<typeof import('undici')> | undefined;
/** undici, loaded on the first request (the media-stream client shares it). */
export const loadUndici = () => (undici ??= import('undici'));

async function readBounded(body: AsyncIterable<Buffer>): Promise<string> {
  const kept: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    kept.push(chunk);
    size += chunk.length;
    if (size > MAX_BODY) break;
  }
  return Buffer.concat(kept).toString('utf8').slice(0, MAX_BODY);
}

/** Connections resolve through the egress guard: the answer checked is the answer connected to. */
export function guardedLookup(guard: EgressGuard): LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    void guard.resolve(hostname).then((r) => {
      if (!r.ok) return callback(Object.assign(new Error(r.reason), { code: r.blocked ? 'EGRESS_BLOCKED' : 'ENOTFOUND' }));
      if (options.all) return callback(null, r.addresses);
      const first = r.addresses[0]!;
      return callback(null, first.address, first.family);
    });
  }) as LookupFunction;
}

/** The URL parsed, or why it may not be used whatever the egress policy: not a URL, another scheme (`schemes` names the allowed ones), credentials in it. */
export function outboundUrl(url: string, protocols: readonly string[], schemes: string): URL | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a URL';
  }
  if (!protocols.includes(u.protocol)) return `not ${schemes} URL`;
  if (u.username !== '' || u.password !== '') return 'carries a user name or password';
  return u;
}

export class FlowHttpClient implements PendingIo {
  private readonly inFlight = new InFlight();
  private agent: Agent | undefined; // made on the first request
  timeoutMs = DEFAULT_FLOW_HTTP_TIMEOUT_MS;

  constructor(
    private readonly guard: EgressGuard,
    private readonly io: IoBarrier,
  ) {}

  get busy(): boolean {
    return this.inFlight.busy;
  }

  whenIdle(): Promise<void> {
    return this.inFlight.whenIdle();
  }

  /** Why the URL may not be requested, or undefined when it may. */
  refusal(url: string): string | undefined {
    const u = outboundUrl(url, ['http:', 'https:'], 'an http or https');
    return typeof u === 'string' ? u : this.guard.hostReason(u.hostname);
  }

  /**
   * Sends the request and hands the answer to `land` while the request still counts as in
   * flight, so a clock advance waiting on this client sees the walk resumed before it moves on.
   * Callers check refusal() first.
   */
  send(req: FlowHttpRequest, land: (answer: FlowHttpAnswer) => void): void {
    // The answer enters through the I/O barrier (recorded with durable state); a request cut by a restart is sent again.
    this.inFlight.track(this.io.outcome('flow.http', () => this.attempt(req)), land);
  }

  private async attempt(req: FlowHttpRequest): Promise<FlowHttpAnswer> {
    try {
      const { Agent: AgentClass, request } = await loadUndici();
      this.agent ??= new AgentClass({ connect: { lookup: guardedLookup(this.guard) } });
      const headers = { ...req.headers };
      if (req.body !== null && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : (req.body ?? undefined),
        dispatcher: this.agent,
        reset: true, // no kept-alive socket: every request connects, so the guard checks each one
        signal: AbortSignal.timeout(this.timeoutMs),
        maxRedirections: 0,
      } as Parameters<typeof request>[1]);
      const body = await readBounded(res.body as AsyncIterable<Buffer>);
      return { status: res.statusCode, body };
    } catch {
      return { status: null, body: null };
    }
  }
}
