// The kit's agent-protocol client against a bare ws server: refused upgrades read as HTTP status
// and body, expectations take the first matching message and leave the others, media frames are
// counted and checked against the runtime's frame rules, and the hang-up handshake.
import { afterEach, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { ControlClient, MediaClient, listenUrl } from '../agent/client.ts';
import { rms, silence, tone } from '../agent/audio.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

async function server(onSocket: (ws: WebSocket, req: http.IncomingMessage) => void, refuse?: (req: http.IncomingMessage) => string | undefined) {
  const wss = new WebSocketServer({ noServer: true });
  const s = http.createServer();
  const open = new Set<WebSocket>();
  s.on('upgrade', (req, socket, head) => {
    const refusal = refuse?.(req);
    if (refusal) {
      socket.on('error', () => {}); // the client may reset a refused socket; not an error of the test
      return socket.end(refusal);
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      onSocket(ws, req);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  closers.push(async () => {
    for (const ws of open) ws.terminate();
    await new Promise<void>((r) => s.close(() => r()));
  });
  return `ws://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

const frame = (i: number, extra: Record<string, unknown> = {}) => JSON.stringify({ event: 'media', sequenceNumber: String(i + 2), media: { track: 'inbound', chunk: String(i + 1), timestamp: String(i * 20), payload: silence(20).toString('base64'), ...extra } });

describe("the kit's agent-protocol client", () => {
  it('reports a refused upgrade as its status and body', async () => {
    const base = await server(
      () => {},
      () => 'HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-length: 19\r\nconnection: close\r\n\r\n{"code":"UNAUTHO"}\n',
    );
    const { open } = await ControlClient.connect({ socketBase: base, accountId: 'AC1', apiKey: 'bad' }, '070');
    expect(open).toEqual({ open: false, status: 401, body: '{"code":"UNAUTHO"}\n' });
  });

  it('connects with Bearer auth, sends hello, and takes the first matching event leaving the others', async () => {
    const seen: { auth?: string; url?: string; first?: any } = {};
    const base = await server((ws, req) => {
      seen.auth = req.headers.authorization;
      seen.url = req.url;
      ws.once('message', (d) => {
        seen.first = JSON.parse(d.toString());
        ws.send(JSON.stringify({ event: 'agent.retired', number: '070', reason: 'replaced' }));
        ws.send(JSON.stringify({ event: 'call.incoming', callId: 'CA1', from: '010', mediaUrl: 'ws://x' }));
      });
    });
    const t = { socketBase: base, accountId: 'AC1', apiKey: 'sk' };
    expect(listenUrl(t, '+8270', true)).toBe(`${base}/v1/accounts/AC1/agent/listen?number=%2B8270&role=retiring`);
    const { client, open } = await ControlClient.connect(t, '070');
    expect(open).toEqual({ open: true });
    const got = await client.channel.take({ event: 'call.incoming', callId: { $regex: '^CA' } }, 2000);
    expect(got).toMatchObject({ message: { callId: 'CA1' } });
    expect(client.channel.inbox.map((m) => m.event)).toEqual(['agent.retired']);
    expect(seen).toMatchObject({ auth: 'Bearer sk', url: '/v1/accounts/AC1/agent/listen?number=070', first: { event: 'agent.hello', sdk: { capabilities: ['retire'] } } });
    const missing = await client.channel.take({ event: 'call.ended' }, 50);
    expect(missing).toMatchObject({ seen: ['agent.retired'] });
    await client.channel.close();
  });

  it('counts media frames apart from events and flags the first frame that breaks the runtime rules', async () => {
    const base = await server((ws) => {
      ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
      for (let i = 0; i < 3; i++) ws.send(frame(i));
      ws.send(frame(3, { timestamp: '60.5' }));
      ws.send(JSON.stringify({ event: 'stop', stop: {} }));
    });
    const { client } = await MediaClient.open(`${base}/m`, 'sk');
    expect(await client.framesReach(4, 2000)).toBe(true);
    await client.channel.take({ event: 'stop' }, 2000);
    expect(client.channel.history.map((m) => m.event)).toEqual(['connected', 'stop']);
    expect(client.frames.frames).toBe(4);
    expect(client.frames.problem).toBe('frame 4 has timestamp "60.5", not an integer string');
  });

  it('hang-up sends a hangup- mark, waits for its echo, then closes with 1000', async () => {
    const order: string[] = [];
    const base = await server((ws) => {
      ws.on('message', (d) => {
        const m = JSON.parse(d.toString());
        order.push(m.event === 'mark' ? m.mark.name.replace(/\d+/, 'N') : m.event);
        if (m.event === 'mark') setTimeout(() => ws.send(JSON.stringify({ event: 'mark', mark: m.mark })), 50);
      });
      ws.on('close', (code) => order.push(`close ${code}`));
    });
    const { client } = await MediaClient.open(`${base}/m`, 'sk');
    client.sendAudio(tone(440, 100), 333);
    expect(await client.hangup()).toEqual({ echoed: true });
    await new Promise((r) => setTimeout(r, 30));
    expect(order).toEqual(['media', 'media', 'media', 'hangup-N', 'close 1000']);
  });

  it('makes tones and silence of the asked length, and measures their level', () => {
    expect(tone(440, 1000)).toHaveLength(8000);
    expect(rms(tone(440, 1000))).toBeGreaterThan(7000);
    expect(rms(silence(100))).toBe(0);
  });
});
