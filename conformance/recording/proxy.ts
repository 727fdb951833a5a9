// The recording proxy (`platform-sim record`): an HTTP server in front of any implementation (the
// real service, or a simulator) that forwards each request unchanged (method, path, headers less
// the hop-by-hop ones, body) and answers with what the upstream answered, unchanged, while it
// writes the exchange, secrets redacted, to the recording (format.ts). Redirects are passed back,
// not followed. Server-sent events stream through (their body is not recorded). WebSocket
// upgrades are passed through byte for byte; the recording notes the upgrade, not its messages.
import http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { Agent, request as undiciRequest, type Dispatcher } from 'undici';
import { appendExchange, beginRecording, MAX_RECORDED_BODY, type Exchange, type RecordedMessage } from './format.ts';
import { Redactor } from './redact.ts';

/** Headers that belong to one connection, not to the message (RFC 9110 §7.6.1), and the ones the transport recomputes. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'host', 'content-length']);

export interface RecorderOptions {
  upstream: string;
  port: number;
  host?: string;
  out: string;
  /** One line per exchange as it completes. */
  log?: (line: string) => void;
}

export interface Recorder {
  url: string;
  /** Exchanges written so far. */
  readonly count: number;
  close(): Promise<void>;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function forwardHeaders(h: http.IncomingHttpHeaders | Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || HOP_BY_HOP.has(k.toLowerCase())) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** UTF-8 text of `bytes`, or undefined; a cut body may end inside a character (up to 3 bytes of it are dropped). */
function utf8(bytes: Buffer, cut: boolean): string | undefined {
  for (let drop = 0; drop <= (cut ? 3 : 0); drop++) {
    try {
      return strictUtf8.decode(bytes.subarray(0, bytes.length - drop));
    } catch {
      // not UTF-8, or cut inside a character: try a byte shorter
    }
  }
  return undefined;
}

/** A body as the recording keeps it: text when it is UTF-8, else base64; cut past the limit; secrets redacted (a cut body too). */
function recordedBody(r: Redactor, bytes: Buffer, contentType: string | undefined): Omit<RecordedMessage, 'headers'> {
  if (bytes.length === 0) return {};
  const cut = bytes.length > MAX_RECORDED_BODY;
  const kept = cut ? bytes.subarray(0, MAX_RECORDED_BODY) : bytes;
  const text = utf8(kept, cut);
  const body = text === undefined ? { bodyBase64: kept.toString('base64') } : { body: r.body(text, contentType) };
  return cut ? { ...body, truncated: true } : body;
}

function readAll(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export async function startRecorder(o: RecorderOptions): Promise<Recorder> {
  const upstream = new URL(o.upstream);
  if (upstream.protocol !== 'http:' && upstream.protocol !== 'https:') throw new Error(`--upstream must be an http(s) URL, got "${o.upstream}"`);
  const base = upstream.origin;
  beginRecording(o.out, base);
  const redactor = new Redactor();
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  let seq = 0;
  let written = 0;
  const write = (e: Exchange) => {
    appendExchange(o.out, e);
    written++;
    o.log?.(`#${e.seq} ${e.request.method} ${e.request.path} -> ${e.response ? e.response.status : `failed (${e.error})`}${e.upgrade ? ' (WebSocket, passed through)' : ''} ${e.ms} ms`);
  };

  const server = http.createServer((req, res) => {
    const n = ++seq;
    const at = new Date().toISOString();
    const started = performance.now();
    void readAll(req).then(async (body) => {
      const headers = forwardHeaders(req.headers);
      const recorded = { method: req.method ?? 'GET', path: redactor.path(req.url ?? '/'), headers: redactor.headers(headers), ...recordedBody(redactor, body, headers['content-type']) };
      try {
        const up = await undiciRequest(`${base}${req.url ?? '/'}`, { method: (req.method ?? 'GET') as Dispatcher.HttpMethod, headers, body: body.length > 0 ? body : undefined, dispatcher: agent });
        const out = forwardHeaders(up.headers as Record<string, string | string[] | undefined>);
        res.writeHead(up.statusCode, out);
        if (/text\/event-stream/i.test(out['content-type'] ?? '')) {
          write({ seq: n, at, ms: Math.round(performance.now() - started), request: recorded, response: { status: up.statusCode, headers: redactor.headers(out) } });
          up.body.on('data', (c: Buffer) => res.write(c));
          up.body.on('end', () => res.end());
          res.on('close', () => up.body.destroy());
          return;
        }
        const answer = Buffer.from(await up.body.arrayBuffer());
        res.end(answer);
        write({ seq: n, at, ms: Math.round(performance.now() - started), request: recorded, response: { status: up.statusCode, headers: redactor.headers(out), ...recordedBody(redactor, answer, out['content-type']) } });
      } catch (e) {
        const error = (e as Error).message;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: `the recorder could not reach ${base}: ${error}`, code: 'BAD_GATEWAY' }));
        write({ seq: n, at, ms: Math.round(performance.now() - started), request: recorded, error });
      }
    });
  });

  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const n = ++seq;
    const headers = forwardHeaders(req.headers);
    write({ seq: n, at: new Date().toISOString(), ms: 0, request: { method: req.method ?? 'GET', path: redactor.path(req.url ?? '/'), headers: redactor.headers(headers) }, upgrade: true, response: { status: 101, headers: {} } });
    const port = Number(upstream.port || (upstream.protocol === 'https:' ? 443 : 80));
    const onConnect = () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`, `host: ${upstream.host}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]!.toLowerCase() !== 'host') lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    };
    const up = upstream.protocol === 'https:' ? tls.connect({ host: upstream.hostname, port, servername: upstream.hostname }, onConnect) : net.connect({ host: upstream.hostname, port }, onConnect);
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.family === 'IPv6' ? `[${addr.address}]` : addr.address}:${addr.port}`,
    get count() {
      return written;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => void agent.close().then(() => resolve()));
        server.closeAllConnections();
      }),
  };
}
