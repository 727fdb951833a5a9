// The `http` block's request to the customer's URL: real I/O over undici through the shared
// egress guard and outbound skeleton (peers/egress.ts, peers/outbound-client.ts), like webhooks and MCP: http(s) only, no credentials in the
// URL; in strict mode (`--strict-egress`, PUT /_sim/egress) internal literals and localhost
// names are refused before connecting, and names are resolved by the guard at the connection
// (fake DNS first), so one that resolves to an internal address is refused too. It registers with the I/O barrier (core/io.ts),
// so a clock advance waits for the answer before time moves on, and every request has a
// wall-clock deadline (AbortSignal), so a URL that hangs ends as "no answer" and never stalls
// the clock for longer than that deadline. Answers are read up to MAX_BODY bytes.
import type { Dispatcher } from 'undici';
import type { IoBarrier } from '../../core/io.ts';
import type { EgressGuard } from '../../peers/egress.ts';
import { GuardedClient } from '../../peers/outbound-client.ts';

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

export class FlowHttpClient extends GuardedClient {
  constructor(
    guard: EgressGuard,
    private readonly io: IoBarrier,
  ) {
    super(guard, DEFAULT_FLOW_HTTP_TIMEOUT_MS);
  }

  /** Why the URL may not be requested, or undefined when it may. */
  refusal(url: string): string | undefined {
    return this.refusalOf(url, ['http:', 'https:'], 'an http or https');
  }

  /**
   * Sends the request and hands the answer to `land` while the request still counts as in
   * flight, so a clock advance waiting on this client sees the walk resumed before it moves on.
   * Callers check refusal() first.
   */
  send(req: FlowHttpRequest, land: (answer: FlowHttpAnswer) => void): void {
    // The answer enters through the I/O barrier (recorded with durable state); a request cut by a restart is sent again.
    this.track(this.io.outcome('flow.http', () => this.attempt(req)), land);
  }

  private async attempt(req: FlowHttpRequest): Promise<FlowHttpAnswer> {
    try {
      const { undici, agent } = await this.connector();
      const headers = { ...req.headers };
      if (req.body !== null && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await undici.request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : (req.body ?? undefined),
        dispatcher: agent,
        reset: true, // no kept-alive socket: every request connects, so the guard checks each one
        signal: AbortSignal.timeout(this.timeoutMs),
        maxRedirections: 0,
      } as Parameters<typeof undici.request>[1]);
      const body = await readBounded(res.body as AsyncIterable<Buffer>);
      return { status: res.statusCode, body };
    } catch {
      return { status: null, body: null };
    }
  }
}
