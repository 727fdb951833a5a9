// The kit's webhook receiver: a node:http server the kit starts itself, under which a scenario
// registers one URL per event (`urlFor("callflow.ended")` is <public>/events/callflow.ended), so
// that the path tells which event arrived even when the payload does not name it. It records
// every request and answers 204 (or what the scenario scripts); `expect` waits for a matching
// webhook within a virtual bound (advance the target's clock, which waits for deliveries) or a
// real one (wall-clock time, for targets without a clock).
//
// Against the in-process simulator or a local one, the receiver listens on 127.0.0.1 and its
// public URL is its own address. Against a remote target, the target must reach it: listen on
// a reachable interface or behind a tunnel, and give that URL as `publicUrl`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFormBody } from '../simulator/core/signing.ts';
import { webhookMismatches, type ReceivedWebhook, type WebhookExpectation } from './checks/webhooks.ts';

export interface WebhookReceiverOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** The URL the target reaches this receiver at (default: http://host:port). */
  publicUrl?: string;
  /** Answer to the n-th request (1-based); default 204 with no body. */
  respond?: (w: ReceivedWebhook, n: number) => { status: number; body?: string };
  /** Largest body recorded; longer requests are answered 413 and recorded cut (default 1 MiB). */
  maxBodyBytes?: number;
}

/** How long to wait: advance the target's clock by `seconds`, or wait `ms` of wall time. */
export type WaitBound = { virtualSeconds: number; advance: (seconds: number) => Promise<void>; graceMs?: number } | { realMs: number };

const EVENTS_PREFIX = '/events/';

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private waiters: { test: (w: ReceivedWebhook) => boolean; resolve: (w: ReceivedWebhook | undefined) => void }[] = [];

  private constructor(
    private readonly server: http.Server,
    readonly publicUrl: string,
  ) {}

  static async start(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
    const host = options.host ?? '127.0.0.1';
    const maxBody = options.maxBodyBytes ?? 1024 * 1024;
    let receiver: WebhookReceiver | undefined;
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= maxBody) chunks.push(c);
      });
      req.on('end', () => {
        const w = receiver!.record(req, Buffer.concat(chunks).toString('utf8'));
        const answer = size > maxBody ? { status: 413 } : (options.respond?.(w, receiver!.received.length) ?? { status: 204 });
        res.writeHead(answer.status, { 'content-type': 'text/plain' });
        res.end('body' in answer ? answer.body : undefined);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    receiver = new WebhookReceiver(server, (options.publicUrl ?? `http://${shown}:${addr.port}`).replace(/\/+$/, ''));
    return receiver;
  }

  /** The URL to register for one event: the path names the event. */
  urlFor(event: string): string {
    return `${this.publicUrl}${EVENTS_PREFIX}${encodeURIComponent(event)}`;
  }

  /** A URL for a number's own webhook (inbound calls and messages): <public>/numbers/<number>. */
  numberUrl(number: string): string {
    return `${this.publicUrl}/numbers/${encodeURIComponent(number)}`;
  }

  private record(req: http.IncomingMessage, body: string): ReceivedWebhook {
    const path = req.url ?? '/';
    const url = this.publicUrl + path;
    const method = (req.method ?? '').toUpperCase();
    const pairs = method === 'GET' ? [...new URL(url).searchParams] : parseFormBody(body);
    const fields = Object.fromEntries(pairs);
    const pathname = path.split('?')[0]!;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const w: ReceivedWebhook = {
      method,
      path,
      url,
      headers,
      body,
      pairs,
      fields,
      event: pathname.startsWith(EVENTS_PREFIX) ? decodeURIComponent(pathname.slice(EVENTS_PREFIX.length)) : fields.Event,
      receivedAt: Date.now(),
    };
    this.received.push(w);
    this.waiters = this.waiters.filter((x) => {
      if (!x.test(w)) return true;
      x.resolve(w);
      return false;
    });
    return w;
  }

  /** Webhooks received so far that meet the expectation. */
  matching(e: WebhookExpectation): ReceivedWebhook[] {
    return this.received.filter((w) => webhookMismatches(w, e).length === 0);
  }

  /** The first webhook meeting the expectation, waiting for it up to `ms` of wall time. */
  waitFor(e: WebhookExpectation, ms: number): Promise<ReceivedWebhook | undefined> {
    const test = (w: ReceivedWebhook) => webhookMismatches(w, e).length === 0;
    const seen = this.received.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== waiter);
        resolve(undefined);
      }, ms);
      timer.unref?.();
      const waiter = {
        test,
        resolve: (w: ReceivedWebhook | undefined) => {
          clearTimeout(timer);
          resolve(w);
        },
      };
      this.waiters.push(waiter);
    });
  }

  /**
   * A scenario step's "expect a webhook": resolves with the first match, or with the reasons
   * nothing matched (the closest candidates' mismatches) once the bound is spent.
   */
  async expect(e: WebhookExpectation, bound: WaitBound): Promise<{ webhook: ReceivedWebhook } | { failure: string }> {
    let found = this.matching(e)[0];
    if (!found && 'virtualSeconds' in bound) {
      await bound.advance(bound.virtualSeconds);
      found = await this.waitFor(e, bound.graceMs ?? 2000);
    } else if (!found && 'realMs' in bound) {
      found = await this.waitFor(e, bound.realMs);
    }
    if (found) return { webhook: found };
    const within = 'virtualSeconds' in bound ? `${bound.virtualSeconds} s of virtual time` : `${bound.realMs} ms`;
    const near = this.received.filter((w) => e.event === undefined || w.event === e.event).slice(-3);
    const why = near.map((w) => `${w.method} ${w.path}: ${webhookMismatches(w, e).join('; ')}`).join(' | ');
    return { failure: `no webhook matching ${describe(e)} within ${within}${why ? ` (closest: ${why})` : ` (${this.received.length} received, none for that event)`}` };
  }

  clear(): void {
    this.received.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      for (const w of this.waiters) w.resolve(undefined);
      this.waiters = [];
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

function describe(e: WebhookExpectation): string {
  const parts = [e.event ?? 'any event', ...(e.method ? [e.method] : []), ...Object.entries(e.fields ?? {}).map(([k, v]) => `${k}=${v instanceof RegExp ? v : typeof v === 'object' ? '(absent)' : v}`)];
  return parts.join(' ');
}
