// RTP to a SIP client on a realtime clock (ten times speed): with no clock advance from the test,
// the socket adapter's media ticker brings virtual time up to date every 2 ms of wall time while
// the call plays, so packets arrive paced, in one continuous PCMU stream, never ahead of virtual
// time; after the BYE none come.
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { ack, bye, invite, offer, toOf } from './sip-invite-client.ts';

const { h, state, credential } = sipListening({ clock: 'realtime:10' });

/** The virtual instant the (only) call went in-progress, from its status timeline on /_sim/calls/{callId}. */
async function answerInstant(): Promise<number> {
  const [call] = (await h.call('GET', h.acme('/calls'))).json.data;
  const walk = await h.sim.control.request<{ timeline: { status: string; at: string }[] }>('GET', `/calls/${call.callId}`);
  const answered = walk.timeline.find((t) => t.status === 'in-progress');
  expect(answered, JSON.stringify(walk.timeline)).toBeDefined();
  return Date.parse(answered!.at);
}

describe('RTP out on a realtime clock', () => {
  it('goes out paced by the ticker, without any advance, and stops at the BYE', async () => {
    await credential();
    await h.sim.control.request('POST', '/carrier/scripts', { number: '01081000030', outcome: 'delivered', types: ['call'], delaySeconds: 1 });
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', () => r()));
    const got: { seq: number; at: number }[] = [];
    socket.on('message', (b) => got.push({ seq: b.readUInt16BE(2), at: b.readUInt32BE(4) }));
    const d = await invite(state.udp, { to: '01081000030', from: '07012340001', username: 'desk_01', password: PASSWORD, body: offer(socket.address().port) });
    let ok = await state.udp.next();
    while (ok.status < 200) ok = await state.udp.next();
    expect(ok.status, ok.text).toBe(200);
    ack(state.udp, d, toOf(ok));
    // The answer instant as the call recorded it: the clock read here can already be past it.
    const answeredAt = await answerInstant();
    await new Promise((r) => setTimeout(r, 400)); // 4 s of virtual time: about 200 frames
    const soFar = got.length;
    const virtualMs = Date.parse(h.sim.clock.now()) - answeredAt;
    expect(soFar).toBeGreaterThan(20);
    expect(soFar).toBeLessThanOrEqual(Math.floor(virtualMs / 20) + 2); // never ahead of virtual time
    got.forEach((p, i) => i > 0 && expect(p.seq).toBe((got[i - 1]!.seq + 1) & 0xffff));
    expect((await bye(state.udp, d, toOf(ok))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100)); // what was sent before the BYE is read
    const atBye = got.length;
    await new Promise((r) => setTimeout(r, 200));
    socket.close();
    expect(got.length).toBe(atBye);
  });
});
