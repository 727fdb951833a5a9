// SIP over WebSocket (RFC 7118) on the HTTP port, driven by JsSIP, a browser SIP stack, with ws as
// its WebSocket: it registers through the digest challenge (MD5 alone over WebSocket), a wrong
// password is refused, and a socket without the `sip` subprotocol is refused before it opens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import JsSIP from 'jssip';
import { harness } from './helpers.ts';
import type { ListeningServer } from '../index.ts';

const h = harness();
let server: ListeningServer;
const REALM = 'ac1a2b3c4d.sip.claw-ops.com';
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  server = await h.sim.listen(0);
  (globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket; // JsSIP's socket interface needs a global WebSocket (Node 20 has none)
  JsSIP.debug.disable();
  const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'browser', username: 'web_01', password: PASSWORD });
  expect(r.status, r.text).toBe(201);
});
afterAll(async () => {
  await server.close();
  await h.sim.close();
});

/** Starts a JsSIP user agent and resolves with how its registration went. */
function registerWith(password: string): Promise<{ ok: boolean; cause?: string; ua: JsSIP.UA }> {
  const socket = new JsSIP.WebSocketInterface(`${server.url.replace('http', 'ws')}/sip`);
  const ua = new JsSIP.UA({ sockets: [socket], uri: `sip:web_01@${REALM}`, password, register: true, register_expires: 600 });
  return new Promise((resolve) => {
    ua.on('registered', () => resolve({ ok: true, ua }));
    ua.on('registrationFailed', (e: { cause?: string }) => resolve({ ok: false, cause: e.cause, ua }));
    ua.start();
  });
}

describe('SIP over WebSocket with JsSIP', () => {
  it('registers through the digest challenge; the binding is a ws one', async () => {
    const r = await registerWith(PASSWORD);
    expect(r.ok, r.cause).toBe(true);
    const bindings = (await h.sim.control.request<{ data: { username: string; transport: string; userAgent: string | null }[] }>('GET', '/sip/registrations')).data;
    expect(bindings).toHaveLength(1);
    expect(bindings[0]).toMatchObject({ username: 'web_01', transport: 'ws' });
    expect(bindings[0]!.userAgent).toMatch(/JsSIP/);
    r.ua.stop();
  });

  it('is refused with a wrong password', async () => {
    const r = await registerWith('not the password');
    expect(r.ok).toBe(false);
    expect(r.cause).toBe(JsSIP.C.causes.REJECTED);
    r.ua.stop();
  });

  it('refuses a WebSocket that does not offer the sip subprotocol', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/sip`);
    ws.on('error', () => {}); // the refused handshake
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
    });
    expect(status).toBe(400);
    ws.terminate();
  });
});
