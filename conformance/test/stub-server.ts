// Tiny implementations nobody here wrote, for the kit's tests: a node:http server on 127.0.0.1
// whose answers the test scripts, and a port where nothing listens.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubServer {
  url: string;
  /** Requests seen, as "METHOD /path?query". */
  seen: string[];
  /** Connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

export type StubHandler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

export async function stubServer(handler: StubHandler): Promise<StubServer> {
  const seen: string[] = [];
  const sockets = new Set<import('node:net').Socket>();
  let connections = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      handler(req, res, body);
    });
  });
  server.on('connection', (s) => {
    connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 URL where nothing listens (a port just freed). */
export async function closedPortUrl(): Promise<string> {
  const s = await stubServer(() => {});
  await s.close();
  return s.url;
}
