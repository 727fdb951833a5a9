// RTP on the legs the server dials and on late offers, over the wire: a fake device on loopback
// UDP answers a dial block's INVITE with a PCMU answer naming a test-side UDP socket as its media
// port; from the bridge it gets one continuous PCMU stream carrying the call's phone speaking its
// line, and what it sends lands in the call's recording. A 200 without PCMU is ACKed, BYEd with a
// Reason and fails the leg. An INVITE without SDP gets the server's offer in the 200 and RTP once
// its ACK carries the answer; an ACK without one ends the call with a BYE saying why.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { voiceSteps } from './voice-steps.ts';
import { Pbx, sdp } from './sip-pbx.ts';
import { invite, toOf } from './sip-invite-client.ts';
import { expectStream, expectTwoSided, loud, mediaPort, rtpPacket } from './sip-media-port.ts';

const { h, state, credential } = sipListening();
const steps = voiceSteps(h);
const LINE = 'Hello, this is the phone speaking.';
let pbx: Pbx;

beforeAll(async () => {
  pbx = await Pbx.start();
});
afterAll(() => pbx.close());
beforeEach(() => {
  pbx.got.length = 0;
});

const mediaCounts = async (callId: string) => (await h.sim.control.request<{ sent: unknown; received: unknown }>('GET', `/sip/calls/${callId}/media`));
const legsOf = async (callId: string) => (await h.call('GET', h.acme(`/calls/${callId}`))).json.transfers;

/** An active route to the fake device and a flow whose dial block rings it (after `before`, if given). */
async function dialSetup(before?: { type: 'record'; maxLengthSec: number; playBeep: boolean }) {
  const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
  expect((await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${pbx.port}`, priority: 10, weight: 100 })).status).toBe(201);
  const dial = { type: 'dial' as const, target: { kind: 'sip' as const, value: `sip:alice@127.0.0.1:${pbx.port}` }, timeoutSec: 20, next: null };
  return steps.flow({ version: 1, start: before ? 'first' : 'd', nodes: { ...(before ? { first: { ...before, next: 'd' } } : {}), d: dial } });
}

/** Virtual time runs a second at a time until the dial's INVITE is in (a device answers within its 5 s). */
async function untilDialed(): Promise<void> {
  for (let i = 0; i < 30 && !pbx.got.some((m) => m.startsWith('INVITE ')); i++) {
    await steps.advance(1);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The device answers the dial's INVITE with `body`; the server ACKs. */
async function answerDial(body: string): Promise<string> {
  const inv = await pbx.next('INVITE');
  pbx.answer(inv, 200, 'OK', [`Contact: <sip:alice@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], body);
  expect(await pbx.next('ACK')).toMatch(/^ACK /);
  return inv;
}

describe('RTP on a leg a dial block rings on the wire', () => {
  it('the device hears the call\'s phone in one continuous PCMU stream from the bridge; the call\'s end BYEs it and stops the stream', async () => {
    await steps.script({ number: '010-7700-0101', lines: [LINE] });
    const flowId = await dialSetup();
    const media = await mediaPort();
    const callId = await steps.place('010-7700-0101', flowId);
    await steps.advance(10);
    await answerDial(sdp(media.port));
    expect((await legsOf(callId))[0]).toMatchObject({ status: 'connected' });
    await steps.advance(4);
    const got = await media.until(200);
    expect(got).toHaveLength(200); // 4 s of 20 ms frames from the bridge
    expectStream(got);
    for (const p of got.slice(0, 25)) expect(p.payload.every((b) => b === 0xff)).toBe(true); // 500 ms before the phone's line
    expect(got[25]!.marker).toBe(true);
    expect(got.slice(25).filter((p) => loud(p) > 1000).length).toBeGreaterThan(20);
    const counts = await mediaCounts(callId);
    expect(counts.sent).toMatchObject({ packets: 200, ssrc: got[0]!.ssrc });
    // The call moving on (its hang-up) BYEs the device; nothing is sent after it.
    await h.call('POST', h.acme(`/calls/${callId}`), { Status: 'completed' });
    expect(await pbx.next('BYE')).toMatch(/^BYE sip:alice@/);
    await steps.advance(2);
    await new Promise((r) => setTimeout(r, 100));
    media.socket.close();
    expect(media.got).toHaveLength(200);
  });

  it('what the device sends is recorded into the call\'s recording with the phone\'s side', async () => {
    await steps.script({ number: '010-7700-0102', lines: [LINE] });
    const flowId = await dialSetup({ type: 'record', maxLengthSec: 1, playBeep: false });
    const media = await mediaPort();
    const callId = await steps.place('010-7700-0102', flowId);
    await untilDialed();
    await answerDial(sdp(media.port));
    await steps.advance(4);
    const got = await media.until(200);
    expect(got).toHaveLength(200);
    // The device talks from its media port (symmetric RTP): 10 packets arriving at frame 200.
    const mine = Buffer.alloc(160, 0x20);
    for (let i = 0; i < 10; i++) await new Promise<void>((r) => media.socket.send(rtpPacket(i, i * 160, mine), state.sip.rtp, '127.0.0.1', () => r()));
    await new Promise((r) => setTimeout(r, 100));
    expect((await mediaCounts(callId)).received).toMatchObject({ packets: 10, ssrc: 0x4242 });
    await h.call('POST', h.acme(`/calls/${callId}`), { Status: 'completed' });
    await pbx.next('BYE');
    media.socket.close();
    const wav = await h.call('GET', h.acme(`/recordings/${callId}`));
    expect(wav.status, wav.text).toBe(200);
    // The file: From the phone's first sound (frame 25 after the bridge) to the device's last packet (frame 209).
    expectTwoSided(Buffer.from(wav.bytes!), got, mine);
  });

  it('a 200 without PCMU is ACKed, then BYEd with a Reason, and the leg fails with 488', async () => {
    const flowId = await dialSetup();
    const media = await mediaPort();
    const callId = await steps.place('010-7700-0103', flowId);
    await steps.advance(10);
    await answerDial(sdp(media.port).replace('RTP/AVP 0', 'RTP/AVP 8').replace('a=rtpmap:0 PCMU/8000', 'a=rtpmap:8 PCMA/8000'));
    const bye = await pbx.next('BYE');
    expect(bye).toMatch(/^Reason: SIP;cause=488;text="the SDP answer has no G\.711 mu-law/m);
    await expect.poll(async () => (await legsOf(callId))[0].status).toBe('failed');
    expect((await legsOf(callId))[0]).toMatchObject({ sipResponseCode: 488, connectedAt: null });
    await steps.advance(2);
    expect(await media.until(1)).toHaveLength(0);
    media.socket.close();
  });
});

describe('a late offer: an INVITE without SDP', () => {
  async function lateOffer(number: string) {
    await credential();
    await steps.script({ number, delaySeconds: 3, lines: [LINE] });
    const d = await invite(state.udp, { to: number, from: '07012340001', username: 'desk_01', password: PASSWORD, body: '' });
    await steps.advance(4);
    expect((await state.udp.next()).status).toBe(180);
    const ok = await state.udp.next();
    expect(ok.status, ok.text).toBe(200);
    expect(ok.text).toMatch(/m=audio \d+ RTP\/AVP 0 101/); // the server's offer
    return { d, ok };
  }
  const ackWith = (d: Awaited<ReturnType<typeof invite>>, to: string, body: string) =>
    state.udp.sendRaw(state.udp.build({ method: 'ACK', uri: d.toUri, from: d.fromHeader, to, callId: d.callId, cseq: d.cseq, branch: `z9hG4bK-ack-${d.branch.slice(12)}`, body, headers: body === '' ? [] : [['Content-Type', 'application/sdp']] }));

  it('gets RTP once its ACK carries the PCMU answer', async () => {
    const media = await mediaPort();
    const { d, ok } = await lateOffer('01081000101');
    await steps.advance(1);
    expect(await media.until(1)).toHaveLength(0); // no answer yet: nowhere to send
    ackWith(d, toOf(ok), sdp(media.port));
    await new Promise((r) => setTimeout(r, 50));
    await steps.advance(2);
    const got = await media.until(100);
    media.socket.close();
    expect(got).toHaveLength(100);
    expectStream(got);
  });

  it('an ACK without an answer ends the call with a BYE saying why', async () => {
    const { d, ok } = await lateOffer('01081000102');
    ackWith(d, toOf(ok), '');
    const bye = await state.udp.nextRaw();
    expect(bye).toMatch(/^BYE /);
    expect(bye).toMatch(/^Reason: SIP;cause=488;text="late offer, the ACK: the answer carries no SDP"/m);
    const [row] = (await h.call('GET', h.acme('/calls'))).json.data;
    expect(row.status).toBe('completed');
  });
});
