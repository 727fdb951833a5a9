// The kit's webhook receiver: a node:http server the kit starts itself when a run needs it
// (docs/scenario-format.md "Webhooks"). Each scenario gets its own base URL,
// <public>/r/<token>, under which it registers its webhooks; a path /events/<name> tells which
// event a request is for even when the payload does not name it. The receiver records every
// request with the answer it gave: 204, or what the scenario scripted (non-2xx for the first N
// deliveries, to make the target retry).
//
// Against the in-process simulator or a local one, the receiver listens on 127.0.0.1 and its
// public URL is its own address. Against a remote target, the target must reach it: the public
// URL (a tunnel, a reachable interface) is given on the command line, and the receiver still
// listens where --webhook-listen says (default 127.0.0.1, any free port).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formFields } from './checks/signature.ts';
import type { ReceivedWebhook } from './checks/webhooks.ts';

export interface WebhookReceiverOptions {
  /** Interface to listen on (default 127.0.0.1). */
  host?: string;
  /** Port (default 0: any free port). */
  port?: number;
  /** The URL the target reaches this receiver at (default: its own address). May have a path. */
  publicUrl?: string;
  /** Largest body recorded; longer requests are answered 413 and recorded cut (default 1 MiB). */
  maxBodyBytes?: number;
}

/** A scripted answer: the next `times` requests of a scope (under `route` when given) get it. */
export interface ReceiverScript {
  status: number;
  body?: string;
  /** How many requests it answers; default: every one until another script replaces it. */
  times?: number;
  /** Only requests to this route (path under the scope's URL, e.g. "/events/callflow.ended"). */
  route?: string;
}

const SCOPE_PREFIX = '/r/';
const EVENTS_PREFIX = '/events/';

function scriptKey(scope: string, route: string | undefined): string {
  return `${scope} ${route ?? '*'}`;
}

function fieldsOf(method: string, url: URL, body: string, contentType: string): { pairs: [string, string][]; format: ReceivedWebhook['format'] } {
  if (method === 'GET') return { pairs: [...url.searchParams], format: 'query' };
  if (/json/i.test(contentType)) {
    // A wrong sender posting JSON: read its fields anyway, so that the step still finds the
    // event and the form-encoding check says what is wrong.
    try {
      const v: unknown = JSON.parse(body);
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const pairs = Object.entries(v).map(([k, x]): [string, string] => [k, typeof x === 'string' ? x : JSON.stringify(x)]);
        return { pairs, format: 'json' };
      }
    } catch {
      // not JSON after all: read it as a form below
    }
  }
  return { pairs: formFields(body), format: 'form' };
}

export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly scripts = new Map<string, { script: ReceiverScript; left: number }>();
  private waiters = new Set<() => void>();
  private readonly publicPath: string;

  private constructor(
    private readonly server: http.Server,
    /** The base URL targets send to. */
    readonly publicUrl: string,
    /** Where it listens, e.g. http://127.0.0.1:43123. */
    readonly localUrl: string,
  ) {
    this.publicPath = new URL(publicUrl).pathname.replace(/\/+$/, '');
  }

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
        const answer = receiver!.take(req, Buffer.concat(chunks).toString('utf8'), size > maxBody);
        // A scripted XML body (a VoiceML document) is served as XML.
        res.writeHead(answer.status, { 'content-type': answer.body?.trimStart().startsWith('<') ? 'application/xml' : 'text/plain' });
        res.end(answer.body);
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => resolve());
    });
    const addr = server.address() as AddressInfo;
    const shown = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    const local = `http://${shown}:${addr.port}`;
    receiver = new WebhookReceiver(server, (options.publicUrl ?? local).replace(/\/+$/, ''), local);
    return receiver;
  }

  /** The base URL of one scope (a scenario run): its webhooks go under it. */
  scopeUrl(scope: string): string {
    return `${this.publicUrl}${SCOPE_PREFIX}${encodeURIComponent(scope)}`;
  }

  /** The URL to register for one event: the path names the event. */
  urlFor(event: string, scope?: string): string {
    return `${scope === undefined ? this.publicUrl : this.scopeUrl(scope)}${EVENTS_PREFIX}${encodeURIComponent(event)}`;
  }

  /** Scripts the answers to a scope's requests (replacing an earlier script for the same route). */
  script(scope: string, script: ReceiverScript): void {
    this.scripts.set(scriptKey(scope, script.route), { script, left: script.times ?? Infinity });
  }

  /** What the receiver got for one scope, in arrival order. */
  inScope(scope: string): ReceivedWebhook[] {
    return this.received.filter((w) => w.scope === scope);
  }

  /** Resolves true as soon as `test()` holds (checked now and after every request), false after `ms`. */
  waitUntil(test: () => boolean, ms: number): Promise<boolean> {
    if (test()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (test()) done(true);
      };
      const timer = setTimeout(() => done(false), ms);
      timer.unref?.();
      this.waiters.add(check);
    });
  }

  private answerFor(w: ReceivedWebhook): { status: number; body?: string } {
    if (w.scope === undefined) return { status: 204 };
    for (const key of [scriptKey(w.scope, w.route), scriptKey(w.scope, undefined)]) {
      const s = this.scripts.get(key);
      if (!s || s.left <= 0) continue;
      s.left--;
      return { status: s.script.status, body: s.script.body };
    }
    return { status: 204 };
  }

  private take(req: http.IncomingMessage, body: string, tooLarge: boolean): { status: number; body?: string } {
    const raw = req.url ?? '/';
    // A tunnel may forward the public URL's path prefix or strip it: accept both.
    const local = this.publicPath && (raw === this.publicPath || raw.startsWith(`${this.publicPath}/`) || raw.startsWith(`${this.publicPath}?`)) ? raw.slice(this.publicPath.length) || '/' : raw;
    const url = this.publicUrl + local;
    const parsed = new URL(url);
    const method = (req.method ?? '').toUpperCase();
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const { pairs, format } = fieldsOf(method, parsed, body, headers['content-type'] ?? '');
    const fields = Object.fromEntries(pairs);
    const pathname = local.split('?')[0]!;
    let scope: string | undefined;
    let route = pathname;
    if (pathname.startsWith(SCOPE_PREFIX)) {
      const rest = pathname.slice(SCOPE_PREFIX.length);
      const slash = rest.indexOf('/');
      scope = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
      route = slash === -1 ? '/' : rest.slice(slash);
    }
    const w: ReceivedWebhook = {
      method,
      path: local,
      url,
      headers,
      body,
      format,
      pairs,
      fields,
      scope,
      route,
      event: route.startsWith(EVENTS_PREFIX) ? decodeURIComponent(route.slice(EVENTS_PREFIX.length)) : fields.Event,
      receivedAt: Date.now(),
      answered: 0,
    };
    const answer = tooLarge ? { status: 413 } : this.answerFor(w);
    w.answered = answer.status;
    this.received.push(w);
    for (const check of [...this.waiters]) check();
    return answer;
  }

  clear(): void {
    this.received.length = 0;
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.waiters.clear();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}
