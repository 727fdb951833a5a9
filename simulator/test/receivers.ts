// Webhook receivers for tests: real node:http servers on 127.0.0.1 that record every request
// and answer as the test says (ok, a status, never, a closed socket, a huge body, a redirect).
// Each closes with close(); the suite's afterEach closes whatever a test left open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFormBody } from '../core/signing.ts';

export interface Received {
  method: string;
  /** Path and query as requested. */
  path: string;
  /** The full URL as the receiver reconstructs it (what the signature covers). */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  fields: Record<string, string>;
  /** Requests to this receiver being handled at the same moment, this one included. */
  concurrent: number;
}

/** What to do with the n-th request (1-based): answer normally, or misbehave. */
export type Behaviour =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hang: true }
  | { destroy: true }
  | { huge: number }
  /** Answers 200 at once, then sends one byte every 20 ms and never ends. */
  | { dribble: true }
  | ((req: Received, res: http.ServerResponse) => void);

export interface TestReceiver {
  url: string;
  origin: string;
  requests: Received[];
  close(): Promise<void>;
}

const open = new Set<TestReceiver>();

export async function startReceiver(behave: (n: number, req: Received) => Behaviour = () => ({ status: 200, body: 'ok' }), path = '/hook'): Promise<TestReceiver> {
  const requests: Received[] = [];
  let active = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      active++;
      const body = Buffer.concat(chunks).toString('utf8');
      const rec: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        url: `http://${req.headers.host}${req.url}`,
        headers: req.headers,
        body,
        fields: Object.fromEntries(req.method === 'GET' ? new URL(req.url ?? '', 'http://x').searchParams : parseFormBody(body)),
        concurrent: active,
      };
      requests.push(rec);
      res.on('close', () => active--);
      const b = behave(requests.length, rec);
      if (typeof b === 'function') return b(rec, res);
      if ('hang' in b) return; // never answers; the client's timeout ends it
      if ('destroy' in b) return req.socket.destroy();
      if ('dribble' in b) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const tick = setInterval(() => res.write('.'), 20);
        res.on('close', () => clearInterval(tick));
        return;
      }
      if ('huge' in b) {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < b.huge) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return pump();
      }
      res.writeHead(b.status, { 'content-type': 'text/plain', ...b.headers });
      res.end(b.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  const r: TestReceiver = {
    url: `${origin}${path}`,
    origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(r);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  open.add(r);
  return r;
}

/** A URL on a port nothing listens on (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/gone`;
}

export async function closeAllReceivers(): Promise<void> {
  await Promise.all([...open].map((r) => r.close()));
}

/** A callflow.ended payload that follows the spec's field table; tests override what they vary. */
export function sampleCallflowEnded(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    CallId: 'CA1',
    AccountId: 'AC1a2b3c4d',
    From: '01012345678',
    To: '07012340001',
    Direction: 'inbound',
    Event: 'callflow.ended',
    Timestamp: '2026-03-02T00:00:00.000Z',
    FlowId: 'CF1',
    Status: 'completed',
    Variables: { caller: '01012345678', callee: '07012340001' },
    ...overrides,
  };
}
