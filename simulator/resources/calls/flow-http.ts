// The `http` block's request to the customer's URL: real I/O over undici under the webhook
// egress policy (peers/webhooks/receiver-policy.ts: http(s) only, no credentials in the URL,
// internal addresses refused in strict mode). It registers with the I/O barrier (core/io.ts),
// so a clock advance waits for the answer before time moves on, and every request has a
// wall-clock deadline (AbortSignal), so a URL that hangs ends as "no answer" and never stalls
// the clock for longer than that deadline. Answers are read up to MAX_BODY bytes.
import type { Dispatcher } from 'undici';
import type { PendingIo } from '../../core/io.ts';
import type { ReceiverPolicy } from '../../peers/webhooks/receiver-policy.ts';

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
const loadUndici = () => (undici ??= import('undici'));

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

export class FlowHttpClient implements PendingIo {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  timeoutMs = DEFAULT_FLOW_HTTP_TIMEOUT_MS;

  constructor(private readonly policy: ReceiverPolicy) {}

  get busy(): boolean {
    return this.inFlight > 0;
  }

  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Why the URL may not be requested, or undefined when it may. */
  refusal(url: string): string | undefined {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return 'not a URL';
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'not an http or https URL';
    if (u.username !== '' || u.password !== '') return 'carries a user name or password';
    return this.policy.internalReason(u.hostname);
  }

  /** Sends the request; never rejects. Callers check refusal() first. */
  send(req: FlowHttpRequest): Promise<FlowHttpAnswer> {
    this.inFlight++;
    return this.attempt(req).finally(() => {
      this.inFlight--;
      if (this.inFlight === 0) {
        const w = this.waiters;
        this.waiters = [];
        for (const f of w) f();
      }
    });
  }

  private async attempt(req: FlowHttpRequest): Promise<FlowHttpAnswer> {
    try {
      const { request } = await loadUndici();
      const headers = { ...req.headers };
      if (req.body !== null && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
      const res = await request(req.url, {
        method: req.method as Dispatcher.HttpMethod,
        headers,
        body: req.method === 'GET' || req.method === 'HEAD' ? undefined : (req.body ?? undefined),
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
