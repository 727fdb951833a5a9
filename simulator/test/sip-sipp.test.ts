// Real SIP software against the listener: SIPp (Debian `sip-tester`, installed by .ci/run) runs
// the scenarios in simulator/test/sipp/ as child processes: a register through the digest
// challenge, a register refused for a wrong password, an outbound call (407, 100/180/200 with
// SDP, ACK, a tone over RTP, BYE) whose record and recording the API then shows, an outbound
// call whose SIPp echoes the RTP it gets (-rtp_echo), so the phone's side the simulator sends
// comes back to it, and two SIPp processes playing an endpoint's routes for an inbound call (the
// first answers 486, the second answers and gets the simulator's BYE). The simulator runs its
// clock in realtime (ten times faster), as a PBX would meet it. SIPp 3.6 answers only MD5 and
// reads only the topmost challenge, so the listener offers MD5 (docs/decisions.md "SIP on the
// wire", Digest).
// Where SIPp is missing this file skips, saying so loudly.
import { beforeEach, describe, expect, it } from 'vitest';
import { sippHarness } from './sipp-harness.ts';
import { decode, encode } from '../peers/speech/mulaw.ts';
import { PASSWORD, REALM, available, freePort, sipp, statusLines, tone } from './sipp-run.ts';

describe.skipIf(!available)('SIPp against the SIP listener', () => {
  const { h, sip } = sippHarness();

  beforeEach(async () => {
    const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'pbx', username: 'desk_01', password: PASSWORD });
    expect(r.status, r.text).toBe(201);
  });

  const registrations = async () => (await h.sim.control.request<{ data: { username: string; userAgent: string | null }[] }>('GET', '/sip/registrations')).data;

  it('registers through the digest challenge (401, then 200); the binding shows SIPp', async () => {
    const run = await sipp(sip.udp, 'register.xml', ['-s', 'desk_01', '-set', 'realm', REALM, '-au', 'desk_01', '-ap', PASSWORD]);
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['REGISTER', 'SIP/2.0 401 Unauthorized', 'REGISTER', 'SIP/2.0 200 OK']);
    expect(await registrations()).toMatchObject([{ username: 'desk_01', userAgent: 'SIPp' }]);
  });

  it('is refused with a wrong password (401, then 403), and nothing is bound', async () => {
    const run = await sipp(sip.udp, 'register-refused.xml', ['-s', 'desk_01', '-set', 'realm', REALM, '-au', 'desk_01', '-ap', 'not the password']);
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['REGISTER', 'SIP/2.0 401 Unauthorized', 'REGISTER', 'SIP/2.0 403 Forbidden']);
    expect(await registrations()).toEqual([]);
    // The same scenario expecting 200 fails against the wrong password: the check can fail.
    expect((await sipp(sip.udp, 'register.xml', ['-s', 'desk_01', '-set', 'realm', REALM, '-au', 'desk_01', '-ap', 'not the password'])).code).not.toBe(0);
  });

  it('places an outbound call with media: 407, 100, 180, 200 with SDP, ACK, a second of tone over RTP, BYE; the record is completed with SIP 200 and its recording holds the tone', async () => {
    const run = await sipp(sip.udp, 'uac-call.xml', ['-s', '01081000001', '-set', 'realm', REALM, '-set', 'caller', '07012340001', '-d', '2000', '-au', 'desk_01', '-ap', PASSWORD]);
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['INVITE', 'SIP/2.0 407 Proxy Authentication Required', 'ACK', 'INVITE', 'SIP/2.0 100 Trying', 'SIP/2.0 180 Ringing', 'SIP/2.0 200 OK', 'ACK', 'BYE', 'SIP/2.0 200 OK']);
    expect(run.messages).toMatch(new RegExp(`m=audio ${sip.rtp} RTP/AVP 0 101`));
    const calls = (await h.call('GET', h.acme('/calls'))).json.data;
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ direction: 'outbound', from: '07012340001', to: '01081000001', status: 'completed', sipResponseCode: 200, hangupSource: 'caller' });
    // 2 s of wall time at ten times speed, give or take the machine's load.
    expect(calls[0].duration).toBeGreaterThanOrEqual(15);
    const wav = await h.call('GET', h.acme(`/recordings/${calls[0].callId}`));
    expect(wav.status, wav.text).toBe(200);
    const pcm = Buffer.from(wav.bytes!).subarray(44);
    const heard = pcm.length / 2;
    expect(heard).toBe(8000); // one second: 50 packets of 160 samples
    // The tone as it went over the wire (mu-law), sample for sample.
    const sent = decode(encode(tone(1)));
    for (const i of [0, 1, 17, 4000, 7999]) expect(pcm.readInt16LE(i * 2), `sample ${i}`).toBe(sent[i]);
  });

  it('sends SIPp the phone\'s side over RTP: SIPp echoes every packet (-rtp_echo), so the server gets back its own stream, one packet per 20 ms of the call', async () => {
    const line = 'Hello, this is the phone speaking.';
    await h.sim.control.request('POST', '/carrier/scripts', { number: '01081000002', outcome: 'delivered', types: ['call'], lines: [line], delaySeconds: 10 });
    const run = await sipp(sip.udp, 'uac-echo.xml', ['-s', '01081000002', '-set', 'realm', REALM, '-set', 'caller', '07012340001', '-d', '2000', '-au', 'desk_01', '-ap', PASSWORD, '-rtp_echo', '-rtp_buffsize', '1048576', '-mp', String(await freePort())]);
    expect(run.code, run.errors + run.messages).toBe(0);
    const [call] = (await h.call('GET', h.acme('/calls'))).json.data;
    expect(call).toMatchObject({ status: 'completed', sipResponseCode: 200 });
    const media = await h.sim.control.request<{ sent: { packets: number; ssrc: number }; received: { packets: number; ssrc: number } | null }>('GET', `/sip/calls/${call.callId}/media`);
    // One packet per 20 ms of virtual time from the answer to the BYE (the duration is whole
    // seconds), less what late wakes skipped (realtime mode sends at most a second late; a loaded
    // machine wakes late often at ten times speed).
    expect(media.sent.packets, JSON.stringify(media)).toBeLessThanOrEqual(call.duration * 50 + 50);
    expect(media.sent.packets, JSON.stringify(media)).toBeGreaterThan(250);
    // SIPp got them: the echo carries the server's own SSRC, nearly every packet back (loopback).
    expect(media.received?.ssrc).toBe(media.sent.ssrc);
    expect(media.received!.packets).toBeGreaterThan(media.sent.packets * 0.9);
    // The recording holds the phone's line, played and echoed.
    const wav = await h.call('GET', h.acme(`/recordings/${call.callId}`));
    expect(wav.status, wav.text).toBe(200);
    const pcm = Buffer.from(wav.bytes!).subarray(44);
    let loud = 0;
    for (let i = 0; i < pcm.length; i += 2) if (Math.abs(pcm.readInt16LE(i)) > 1000) loud++;
    expect(loud).toBeGreaterThan(4000); // half a second of speech at least
  });

  it('offers an inbound call to the endpoint\'s routes: a SIPp route answers 486, the next SIPp route answers 200, and the simulator\'s BYE ends it', async () => {
    const [busyPort, answerPort] = [await freePort(), await freePort()];
    // The routes listen first (SIPp as a server), then the call comes in.
    const busy = sipp(sip.udp, 'uas-busy.xml', [], busyPort);
    const answer = sipp(sip.udp, 'uas-answer.xml', [], answerPort);
    await new Promise((r) => setTimeout(r, 500));
    const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
    for (const [port, priority] of [[busyPort, 10], [answerPort, 20]] as const) {
      expect((await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${port}`, priority })).status).toBe(201);
    }
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'sip', sipEndpointId: e.id })).status).toBe(200);
    const { callId } = await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '01055550001', to: '07012340001', hangupAfterSeconds: 20 });
    const [b, a] = await Promise.all([busy, answer]);
    expect(b.code, b.errors + b.messages).toBe(0);
    expect(a.code, a.errors + a.messages).toBe(0);
    expect(statusLines(b)).toEqual(['INVITE', 'SIP/2.0 486 Busy Here', 'ACK']);
    expect(statusLines(a)).toEqual(['INVITE', 'SIP/2.0 180 Ringing', 'SIP/2.0 200 OK', 'ACK', 'BYE', 'SIP/2.0 200 OK']);
    const call = (await h.call('GET', h.acme('/calls'))).json.data.find((c: { callId: string }) => c.callId === callId);
    expect(call).toMatchObject({ direction: 'inbound', status: 'completed', hangupSource: 'caller', sipResponseCode: 200 });
    const routes = (await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes`))).json.data;
    expect(routes.map((r: { failureCount: number }) => r.failureCount)).toEqual([1, 0]);
  });
});
