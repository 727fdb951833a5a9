// WebSocket upgrades on the HTTP port (server.ts with ws): the host refuses with a real HTTP answer
// (status and the spec's error body, before any WebSocket exists) or accepts with a session that
// gets every message, pong and close; oversized messages close with 1009; a throwing session is a
// reported defect, never a crash; closing the server drops its sockets.
import { afterEach, describe, expect, it } from 'vitest';
import type http from 'node:http';
import WebSocket from 'ws';
import { closeSockets, createHttpServer, listenOn } from '../server.ts';
import type { LiveSocket, SocketSession, UpgradeAnswer } from '../core/live-socket.ts';
import type { SimRequest } from '../core/operation.ts';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    closeSockets(s);
    await new Promise<void>((r) => s.close(() => r()));
  }
});

async function serve(upgrade?: (req: SimRequest) => UpgradeAnswer | Promise<UpgradeAnswer>, defects: unknown[] = []) {
  const server = createHttpServer({ dispatch: () => ({ status: 200, headers: {}, body: 'ok' }), bodyLimit: () => 1024, onDefect: (e) => defects.push(e), ...(upgrade ? { upgrade } : {}) });
  servers.push(server);
  const { port } = await listenOn(server, 0, '127.0.0.1');
  return `ws://127.0.0.1:${port}`;
}

/** Each client's messages, kept from the start (a session may send before 'open' is seen). */
const inbox = new WeakMap<WebSocket, { queue: string[]; wake?: () => void }>();

/** Connects and resolves with the open socket, or the HTTP answer that refused it. */
function connect(url: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket } | { status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const box: { queue: string[]; wake?: () => void } = { queue: [] };
    inbox.set(ws, box);
    ws.on('message', (d) => {
      box.queue.push(d.toString());
      box.wake?.();
    });
    ws.on('open', () => resolve({ ws }));
    ws.on('unexpected-response', (_, res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    ws.on('error', reject);
  });
}

function echoSession(log: string[]): (socket: LiveSocket) => SocketSession {
  return (socket) => {
    socket.send('hello');
    return {
      message: (data, binary) => {
        log.push(binary ? '<binary>' : data);
        if (data === 'ping me') socket.ping();
        else if (data === 'bye') socket.close(4409, 'replaced');
        else socket.send(`echo:${data}`);
      },
      pong: () => log.push('<pong>'),
      closed: (code, reason) => log.push(`<closed ${code} ${reason}>`),
    };
  };
}

async function nextMessage(ws: WebSocket): Promise<string> {
  const box = inbox.get(ws)!;
  while (box.queue.length === 0) await new Promise<void>((r) => (box.wake = r));
  return box.queue.shift()!;
}
const closeOf = (ws: WebSocket) => new Promise<[number, string]>((r) => ws.once('close', (code, reason) => r([code, reason.toString()])));

describe('WebSocket upgrades on the HTTP port', () => {
  it('without an upgrade route, answers 404 with the error body', async () => {
    const url = await serve();
    const r = await connect(`${url}/anything`);
    expect(r).toMatchObject({ status: 404 });
    expect(JSON.parse((r as { body: string }).body)).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('a refusal reaches the client as that HTTP status and body, and the host saw the request headers', async () => {
    const seen: SimRequest[] = [];
    const url = await serve((req) => {
      seen.push(req);
      return { refuse: { status: 401, headers: { 'content-type': 'application/json' }, body: '{"error":"no","code":"UNAUTHORIZED"}' } };
    });
    const r = await connect(`${url}/v1/accounts/AC1/agent/listen?number=070`, { authorization: 'Bearer sk_x' });
    expect(r).toEqual({ status: 401, body: '{"error":"no","code":"UNAUTHORIZED"}' });
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v1/accounts/AC1/agent/listen?number=070' });
    expect(seen[0]!.headers!.authorization).toBe('Bearer sk_x');
  });

  it('an accepted socket carries messages both ways, pings and pongs, and reports the close code', async () => {
    const log: string[] = [];
    const url = await serve(async () => ({ accept: echoSession(log), maxMessageBytes: 1024 }));
    const r = await connect(`${url}/s`);
    const ws = (r as { ws: WebSocket }).ws;
    expect(await nextMessage(ws)).toBe('hello');
    ws.send('one');
    expect(await nextMessage(ws)).toBe('echo:one');
    const pinged = new Promise<void>((res) => ws.once('ping', () => res()));
    ws.send('ping me');
    await pinged; // ws answers the ping with a pong by itself
    await new Promise((res) => setTimeout(res, 20));
    expect(log).toContain('<pong>');
    const closed = closeOf(ws);
    ws.send('bye');
    expect(await closed).toEqual([4409, 'replaced']);
    await new Promise((res) => setTimeout(res, 20));
    expect(log).toEqual(['one', 'ping me', '<pong>', 'bye', '<closed 4409 replaced>']);
  });

  it('a message over the route limit closes the socket with 1009', async () => {
    const log: string[] = [];
    const url = await serve(() => ({ accept: echoSession(log), maxMessageBytes: 100 }));
    const { ws } = (await connect(`${url}/s`)) as { ws: WebSocket };
    const closed = closeOf(ws);
    ws.send('x'.repeat(101));
    expect((await closed)[0]).toBe(1009);
    expect(log).toEqual([expect.stringMatching(/^<closed 1009/)]);
  });

  it('a session that throws is a reported defect; the socket stays open', async () => {
    const defects: unknown[] = [];
    const url = await serve(
      () => ({
        accept: (socket) => ({
          message: (data) => {
            if (data === 'boom') throw new Error('boom');
            socket.send(`ok:${data}`);
          },
          closed: () => {},
        }),
        maxMessageBytes: 1024,
      }),
      defects,
    );
    const { ws } = (await connect(`${url}/s`)) as { ws: WebSocket };
    ws.send('boom');
    ws.send('after');
    expect(await nextMessage(ws)).toBe('ok:after');
    expect(defects).toHaveLength(1);
    ws.close();
  });

  it('closing the server drops its sockets', async () => {
    const url = await serve(() => ({ accept: echoSession([]), maxMessageBytes: 1024 }));
    const { ws } = (await connect(`${url}/s`)) as { ws: WebSocket };
    const closed = closeOf(ws);
    closeSockets(servers[0]!);
    expect((await closed)[0]).toBe(1006);
  });
});
