// The protocol-faithful agent runtime (test/agent-runtime/) checked against a bare fake platform
// made with ws: it must hold servers to what the official runtime holds them to, or the
// simulator's own tests would prove nothing. Each case is a [S] fact of the reference sheet.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ControlConnection, controlUrl } from './agent-runtime/control.ts';
import { MediaConnection } from './agent-runtime/media.ts';
import { CallRefused, FaithfulAgent } from './agent-runtime/agent.ts';

interface Fake {
  base: string;
  /** Each control connection: its URL, headers and messages, and the server side of the socket. */
  sockets: { url: string; auth: string | undefined; messages: any[]; ws: WebSocket }[];
  /** Answer of POST .../calls. */
  callAnswer: { status: number; body: unknown };
  posted: any[];
  close(): Promise<void>;
}

const fakes: Fake[] = [];
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close();
});

async function fakePlatform(onSocket?: (ws: WebSocket, url: string) => void): Promise<Fake> {
  const wss = new WebSocketServer({ noServer: true });
  const fake: Fake = { base: '', sockets: [], callAnswer: { status: 201, body: { callId: 'CA1' } }, posted: [], close: async () => {} };
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      fake.posted.push({ url: req.url, auth: req.headers.authorization, body: JSON.parse(body || 'null') });
      res.writeHead(fake.callAnswer.status, { 'content-type': 'application/json' }).end(JSON.stringify(fake.callAnswer.body));
    });
  });
  server.on('upgrade', (req, socket, head) =>
    wss.handleUpgrade(req, socket, head, (ws) => {
      const entry = { url: req.url!, auth: req.headers.authorization, messages: [] as any[], ws };
      fake.sockets.push(entry);
      ws.on('message', (d) => entry.messages.push(JSON.parse(d.toString())));
      onSocket?.(ws, req.url!);
    }),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = async () => {
    for (const s of fake.sockets) s.ws.terminate();
    await new Promise<void>((r) => server.close(() => r()));
  };
  fakes.push(fake);
  return fake;
}

const until = async (test: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
};

const opts = (f: Fake) => ({ baseUrl: f.base, accountId: 'AC 1', apiKey: 'sk_test', number: '+82 70-1234', backoffMs: 20 });

describe('faithful runtime: control socket', () => {
  it('builds the URL from the base (ws for http, wss for https), encoding the account and number, role=retiring when stepping down', () => {
    expect(controlUrl({ baseUrl: 'http://h:1', accountId: 'AC 1', number: '+82 70' })).toBe('ws://h:1/v1/accounts/AC%201/agent/listen?number=%2B82%2070');
    expect(controlUrl({ baseUrl: 'https://api.example', accountId: 'AC1', number: '070' }, true)).toBe('wss://api.example/v1/accounts/AC1/agent/listen?number=070&role=retiring');
  });

  it('sends Bearer auth on the upgrade and agent.hello once per connect, not after a reconnect; backoff doubles and resets after an open', async () => {
    const f = await fakePlatform();
    const c = new ControlConnection(opts(f));
    await c.connect();
    await until(() => f.sockets[0]?.messages.length === 1);
    expect(f.sockets[0]!.auth).toBe('Bearer sk_test');
    expect(f.sockets[0]!.messages[0]).toMatchObject({ event: 'agent.hello', sdk: { name: 'clawops-python', capabilities: ['retire'] } });
    // Server drops the link twice: the runtime reconnects after 20 ms each time (reset by the open between).
    f.sockets[0]!.ws.terminate();
    await until(() => f.sockets.length === 2);
    f.sockets[1]!.ws.close(1001, 'gateway draining');
    await until(() => f.sockets.length === 3);
    await new Promise((r) => setTimeout(r, 50));
    expect(f.sockets.slice(1).every((s) => s.messages.length === 0)).toBe(true); // no second hello
    expect(c.log.reconnectDelays).toEqual([20, 20]);
    await c.close();
  });

  it('without an open in between, the delay doubles up to thirty times the first', async () => {
    // A platform that refuses every upgrade: each attempt fails, the delay grows 20, 40, 80...
    const server = http.createServer();
    server.on('upgrade', (_, socket) => {
      // The client drops the refused socket at once; its reset must not become an uncaught error here.
      socket.on('error', () => {});
      socket.end('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Six refused attempts and 61 ms of delays must fit in the connect timeout even on a loaded machine (200 ms did not).
    const c = new ControlConnection({ baseUrl: base, accountId: 'AC1', apiKey: 'k', number: '070', backoffMs: 1, connectTimeoutMs: 1500 });
    await expect(c.connect()).rejects.toThrow(/did not open/);
    await c.close();
    expect(c.log.reconnectDelays.slice(0, 6)).toEqual([1, 2, 4, 8, 16, 30]);
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('stops reconnecting on 4409 (taken over, with the reason) and on 4403 (ownership lost)', async () => {
    const f = await fakePlatform();
    const a = new ControlConnection(opts(f));
    await a.connect();
    f.sockets[0]!.ws.close(4409, 'handover');
    await until(() => a.takenOver !== undefined);
    expect(a.takenOver).toEqual({ reason: 'handover' });
    const b = new ControlConnection(opts(f));
    await b.connect();
    f.sockets[1]!.ws.close(4403, 'ownership lost');
    await until(() => b.ownershipLost);
    await new Promise((r) => setTimeout(r, 80));
    expect(f.sockets).toHaveLength(2);
  });

  it('agent.retired marks the runtime taken over while the socket stays open', async () => {
    const f = await fakePlatform();
    const c = new ControlConnection(opts(f));
    await c.connect();
    f.sockets[0]!.ws.send(JSON.stringify({ event: 'agent.retired', number: '070', reason: 'replaced' }));
    await until(() => c.takenOver !== undefined);
    expect(c.open).toBe(true);
    await c.close();
  });

  it('Node flavour drops a link that sends no ping within its watchdog, and a ping keeps it', async () => {
    const f = await fakePlatform((ws) => {
      if (f.sockets.length === 1) {
        const t = setInterval(() => ws.ping(), 30);
        ws.on('close', () => clearInterval(t));
      }
    });
    const c = new ControlConnection({ ...opts(f), flavour: 'node', pingTimeoutMs: 120 });
    await c.connect();
    await new Promise((r) => setTimeout(r, 300));
    expect(c.log.closes).toHaveLength(0); // pinged every 30 ms: kept
    f.sockets[0]!.ws.terminate();
    await until(() => f.sockets.length === 2);
    await until(() => c.log.closes.length === 2, 2000); // the second link sends no pings: dropped
    await c.close();
  });
});

describe('faithful runtime: media socket', () => {
  async function mediaWith(serverSends: (ws: WebSocket) => void) {
    const f = await fakePlatform((ws) => serverSends(ws));
    const m = new MediaConnection(`${f.base.replace('http', 'ws')}/v1/agent/media/CA1?token=t`, 'sk_test');
    await m.opened();
    return { f, m };
  }

  it('a start without streamId tears the call down (Python KeyError)', async () => {
    const { m } = await mediaWith((ws) => ws.send(JSON.stringify({ event: 'start', sequenceNumber: '1', start: { callId: 'CA1' } })));
    await m.closed;
    expect(m.crash).toBe("KeyError: 'streamId'");
  });

  it('a timestamp that is not an integer string tears the call down (Python int())', async () => {
    const { m } = await mediaWith((ws) => {
      ws.send(JSON.stringify({ event: 'start', start: { streamId: 'MZ1', callId: 'CA1' } }));
      ws.send(JSON.stringify({ event: 'media', media: { payload: '', timestamp: '20.5' } }));
    });
    await m.closed;
    expect(m.crash).toMatch(/ValueError/);
  });

  it('hang-up: sends hangup-<ms>, waits for the echo, then closes normally', async () => {
    const order: string[] = [];
    const { f, m } = await mediaWith((ws) => {
      ws.on('message', (d) => {
        const msg = JSON.parse(d.toString());
        order.push(`got ${msg.event}`);
        if (msg.event === 'mark') setTimeout(() => (order.push('echo'), ws.send(JSON.stringify({ event: 'mark', mark: msg.mark }))), 100);
      });
      ws.on('close', (code) => order.push(`closed ${code}`));
    });
    const r = await m.hangup();
    await until(() => order.includes('closed 1000'));
    expect(r.echoed).toBe(true);
    expect(order).toEqual(['got mark', 'echo', 'closed 1000']);
    expect(f.sockets[0]!.messages[0].mark.name).toMatch(/^hangup-\d{13}$/);
    expect(f.sockets[0]!.auth).toBe('Bearer sk_test');
  });

  it('sends media {payload} without streamId, marks, clear and one dtmf per digit', async () => {
    const { f, m } = await mediaWith(() => {});
    m.sendAudio(Buffer.from([1, 2]));
    void m.mark('a');
    m.clear();
    await m.sendDigits('1#');
    await until(() => f.sockets[0]!.messages.length === 5);
    expect(f.sockets[0]!.messages).toEqual([
      { event: 'media', media: { payload: 'AQI=' } },
      { event: 'mark', mark: { name: 'a' } },
      { event: 'clear' },
      { event: 'dtmf', dtmf: { digit: '1' } },
      { event: 'dtmf', dtmf: { digit: '#' } },
    ]);
    m.drop();
  });
});

describe('faithful runtime: calls', () => {
  it('createCall sends exactly To, From, Timeout; a 200 is an error carrying error and code', async () => {
    const f = await fakePlatform();
    const agent = new FaithfulAgent(opts(f));
    await agent.connect();
    const call = await agent.call('01012345678');
    expect(call.callId).toBe('CA1');
    expect(f.posted[0]).toEqual({ url: '/v1/accounts/AC%201/calls', auth: 'Bearer sk_test', body: { To: '01012345678', From: '+82 70-1234', Timeout: 60 } });
    f.callAnswer = { status: 200, body: { callId: 'CA2' } };
    await expect(agent.call('010')).rejects.toBeInstanceOf(CallRefused);
    f.callAnswer = { status: 409, body: { error: 'no agent', code: 'agent_not_connected' } };
    await expect(agent.call('010')).rejects.toMatchObject({ status: 409, body: { code: 'agent_not_connected' } });
    await agent.close();
  });

  it('accepts an incoming call at once; an outbound_ready it did not place gets session_failed UnknownOutboundCall', async () => {
    const f = await fakePlatform();
    const agent = new FaithfulAgent(opts(f));
    await agent.connect();
    const server = f.sockets[0]!;
    server.ws.send(JSON.stringify({ event: 'call.incoming', callId: 'CA9', from: '010', mediaUrl: '' }));
    server.ws.send(JSON.stringify({ event: 'call.outbound_ready', callId: 'CA8', from: '070', to: '010', mediaUrl: 'ws://x' }));
    await until(() => server.messages.length >= 4);
    expect(server.messages.slice(1).map((m) => [m.event, m.callId, m.reason])).toEqual([
      ['call.accept', 'CA9', undefined],
      ['call.telemetry', 'CA9', undefined],
      ['call.session_failed', 'CA8', 'UnknownOutboundCall'],
    ]);
    await agent.close();
  });

  it('reads call.ended without status as completed', async () => {
    const f = await fakePlatform();
    const agent = new FaithfulAgent(opts(f));
    await agent.connect();
    const call = await agent.call('010');
    f.sockets[0]!.ws.send(JSON.stringify({ event: 'call.ended', callId: call.callId, duration: 0 }));
    expect(await call.ended).toEqual({ status: 'completed', duration: 0 });
    await agent.close();
  });
});
