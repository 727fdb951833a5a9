// RTP from the server to SIP clients over the wire: a test-side UDP socket is the client's media
// port. The client of an outbound call hears the phone's lines (speech) at their place on virtual
// time and μ-law silence elsewhere, in PCMU packets of 160 bytes with one SSRC, consecutive
// sequence numbers, timestamps 160 apart and the marker on each talkspurt; a sendonly offer gets
// none; the device that answers an inbound call hears the calling phone; the whole-call recording
// holds both sides.
import { describe, expect, it } from 'vitest';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { ack, bye, invite, offer, toOf } from './sip-invite-client.ts';
import { register, SipTestClient } from './sip-client.ts';
import { expectStream, expectTwoSided, loud, mediaPort, rtpPacket } from './sip-media-port.ts';

const { h, state, credential } = sipListening();
const ACME_NUMBER = '07012340001';
const as = { username: 'desk_01', password: PASSWORD };
const LINE = 'Hello, this is the phone speaking.';

const advance = (seconds: number) => h.sim.clock.advance({ seconds });
const calls = async () => (await h.call('GET', h.acme('/calls'))).json.data as any[];

async function answeredCall(rtpPort: number, number: string, body = offer(rtpPort), lines = [LINE]) {
  await credential();
  await h.sim.control.request('POST', '/carrier/scripts', { number, outcome: 'delivered', types: ['call'], delaySeconds: 3, lines });
  const d = await invite(state.udp, { to: number, from: ACME_NUMBER, ...as, body });
  await advance(4);
  expect((await state.udp.next()).status).toBe(180);
  const ok = await state.udp.next();
  expect(ok.status, ok.text).toBe(200);
  ack(state.udp, d, toOf(ok));
  return { d, ok };
}

describe('RTP to the client of an outbound call', () => {
  it('carries the phone\'s line as speech after 500 ms of silence, then silence, in one continuous PCMU stream; the recording holds both sides', async () => {
    const media = await mediaPort();
    const { d, ok } = await answeredCall(media.port, '01081000020');
    await advance(4);
    const got = await media.until(200);
    expect(got).toHaveLength(200); // 4 s of 20 ms frames
    expectStream(got);
    // The first 25 frames (500 ms) are μ-law silence, the marker on the first packet only.
    for (const p of got.slice(0, 25)) expect(p.payload.every((b) => b === 0xff)).toBe(true);
    expect(got[0]!.marker).toBe(true);
    expect(got.slice(1, 25).some((p) => p.marker)).toBe(false);
    // The line starts at frame 25 (a new talkspurt: marker) and is speech, not silence.
    expect(got[25]!.marker).toBe(true);
    const spoken = got.slice(25).findLastIndex((p) => loud(p) > 0) + 25;
    expect(spoken).toBeGreaterThan(60); // more than 700 ms of speech
    expect(got.slice(25, spoken).filter((p) => loud(p) > 1000).length).toBeGreaterThan(20);
    // After the line (and the phone has nothing more to say): silence to the end.
    for (const p of got.slice(spoken + 1)) expect(p.payload.every((b) => b === 0xff)).toBe(true);
    expect(got.slice(spoken + 1).length).toBeGreaterThan(20);

    // The client talks from the same port (symmetric RTP): 10 packets arriving at frame 200.
    const mine = Buffer.alloc(160, 0x20);
    for (let i = 0; i < 10; i++) {
      await new Promise<void>((r) => media.socket.send(rtpPacket(i, i * 160, mine), state.sip.rtp, '127.0.0.1', () => r()));
    }
    await new Promise((r) => setTimeout(r, 100));
    expect((await bye(state.udp, d, toOf(ok))).status).toBe(200);
    media.socket.close();
    const [row] = await calls();
    const wav = await h.call('GET', h.acme(`/recordings/${row.callId}`));
    expect(wav.status, wav.text).toBe(200);
    // The file: From the first sound (the phone's line at frame 25) to the client's last packet (frame 209).
    const sample = expectTwoSided(Buffer.from(wav.bytes!), got, mine);
    expect(sample(spoken + 5)).toBe(0);
  });

  it('sends nothing to a sendonly offer, and only silence when the phone has no lines', async () => {
    const media = await mediaPort();
    await answeredCall(media.port, '01081000021', offer(media.port, '0', ['a=sendonly']));
    await advance(1);
    expect(await media.until(1)).toHaveLength(0);
    media.socket.close();

    await h.sim.control.reset();
    const quiet = await mediaPort();
    await answeredCall(quiet.port, '01081000022', offer(quiet.port), []);
    await advance(2);
    const got = await quiet.until(100);
    quiet.socket.close();
    expect(got).toHaveLength(100);
    expectStream(got);
    expect(got.every((p) => p.payload.every((b) => b === 0xff))).toBe(true);
    expect(got.filter((p) => p.marker)).toHaveLength(1);
  });

  it('stops at the end of the call: the frames due until the BYE go out, none after', async () => {
    const media = await mediaPort();
    const { d, ok } = await answeredCall(media.port, '01081000023');
    await advance(1);
    expect(await media.until(50)).toHaveLength(50);
    expect((await bye(state.udp, d, toOf(ok))).status).toBe(200);
    await advance(2);
    await new Promise((r) => setTimeout(r, 100));
    media.socket.close();
    expect(media.got).toHaveLength(50);
  });
});

describe('RTP to a device that answered an inbound call', () => {
  it('a softphone that answers hears the calling phone\'s line', async () => {
    const cred = await credential();
    const phone = await SipTestClient.udp(state.sip.udp);
    const media = await mediaPort();
    expect((await register(phone, { username: 'desk_01', password: PASSWORD, realm: 'ac1a2b3c4d.sip.claw-ops.com' })).final.status).toBe(200);
    expect((await h.call('PUT', h.acme(`/numbers/${ACME_NUMBER}`), { routingType: 'softphone', sipCredentialId: cred.id })).status).toBe(200);
    await h.sim.control.request('POST', '/carrier/inbound-calls', { from: '01055550001', to: ACME_NUMBER, lines: [LINE] });
    await advance(1);
    const inviteText = await phone.nextRaw();
    expect(inviteText).toMatch(/^INVITE /);
    const sdp = ['v=0', 'o=phone 1 1 IN IP4 127.0.0.1', 's=phone', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${media.port} RTP/AVP 0`, 'a=rtpmap:0 PCMU/8000', ''].join('\r\n');
    const via = /Via: SIP\/2\.0\/UDP [^\r\n]+/.exec(inviteText)![0];
    const header = (name: string) => new RegExp(`${name}: [^\r\n]+`).exec(inviteText)![0];
    phone.sendRaw([`SIP/2.0 200 OK`, via, header('From'), `${header('To')};tag=phone`, header('Call-ID'), 'CSeq: 1 INVITE', `Contact: <sip:desk_01@127.0.0.1:${phone.localPort}>`, 'Content-Type: application/sdp', `Content-Length: ${sdp.length}`, '', sdp].join('\r\n'));
    expect(await phone.nextRaw()).toMatch(/^ACK /);
    await advance(3);
    const got = await media.until(150);
    media.socket.close();
    phone.close();
    expect(got).toHaveLength(150);
    expectStream(got);
    expect(got[25]!.marker).toBe(true);
    expect(got.slice(25).filter((p) => loud(p) > 1000).length).toBeGreaterThan(20);
  });
});
