// Calls from SIP clients over the wire: an INVITE from a credential (proxy digest) or from a trunk
// address becomes an outbound call of the account with the usual record, carrier outcome and
// usage; 100/180/200 with an SDP answer in PCMU; BYE, CANCEL, re-INVITE; the phone hanging up
// sends a BYE; the final code of a call never answered is the call's sipResponseCode; refusals
// (caller id, destination, media, password) place nothing.
import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { ack, answerMedia, bye, cancel, invite, offer, toOf } from './sip-invite-client.ts';

const { h, state, credential } = sipListening();
const ACME_NUMBER = '07012340001';

const calls = async () => (await h.call('GET', h.acme('/calls'))).json.data as any[];
const script = (number: string, outcome: string, extra: Record<string, unknown> = {}) =>
  h.sim.control.request('POST', '/carrier/scripts', { number, outcome, types: ['call'], delaySeconds: 3, ...extra });
const advance = (seconds: number) => h.sim.clock.advance({ seconds });
const as = { username: 'desk_01', password: PASSWORD };

describe('an INVITE from a credential', () => {
  it('is challenged (407), then placed as an outbound call: 100, 180, 200 with PCMU, and BYE ends it with usage', async () => {
    const cred = await credential();
    await script('01081000001', 'delivered');
    const d = await invite(state.udp, { to: '010-8100-0001', from: ACME_NUMBER, ...as });
    expect(d.first.status, d.first.text).toBe(100);
    const [placed] = await calls();
    expect(placed).toMatchObject({ direction: 'outbound', from: ACME_NUMBER, to: '01081000001', status: 'queued' });
    await advance(1);
    const ringing = await state.udp.next();
    expect(ringing.status).toBe(180);
    await advance(3);
    const ok = await state.udp.next();
    expect(ok.status, ok.text).toBe(200);
    expect(answerMedia(ok)).toMatchObject({ port: state.sip.rtp, formats: '0 101', version: '1' });
    expect(state.sip.rtp).toBeGreaterThan(0);
    expect(ok.get('contact')).toBe(`<sip:127.0.0.1:${state.sip.udp};transport=udp>`);
    expect(toOf(ok)).toBe(toOf(ringing));
    ack(state.udp, d, toOf(ok));
    await advance(30);
    const done = await bye(state.udp, d, toOf(ok));
    expect(done.status).toBe(200);
    const [row] = await calls();
    expect(row).toMatchObject({ status: 'completed', duration: 30, sipResponseCode: 200, hangupSource: 'caller' });
    const usage = (await h.call('GET', h.acme('/usage?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z&includeToday=true'))).json;
    expect(usage.totals.find((t: { meter: string }) => t.meter === 'outbound_seconds')?.quantity).toBe(30);
    expect((await h.call('GET', h.acme(`/sip-credentials/${cred.id}`))).json.lastUsedAt).not.toBeNull();
  });

  it('ends a call the phone did not answer with the call\'s own SIP code (486, 480, 603, 503)', async () => {
    await credential();
    const cases = [['01081000002', 'busy', 486], ['01081000003', 'no-answer', 480], ['01081000004', 'rejected', 603], ['01081000005', 'failed', 503]] as const;
    for (const [number, outcome, code] of cases) {
      await script(number, outcome);
      const d = await invite(state.udp, { to: number, from: ACME_NUMBER, ...as });
      expect(d.first.status).toBe(100);
      await advance(1);
      expect((await state.udp.next()).status).toBe(180);
      await advance(3);
      const final = await state.udp.next();
      expect(final.status, outcome).toBe(code);
      const row = (await calls()).find((c) => c.to === number);
      expect(row.sipResponseCode).toBe(code);
      ack(state.udp, d, toOf(final), d.branch);
    }
  });

  it('CANCEL while ringing: 200 to the CANCEL, 487 to the INVITE, the call canceled', async () => {
    await credential();
    await script('01081000006', 'delivered', { delaySeconds: 20 });
    const d = await invite(state.udp, { to: '01081000006', from: ACME_NUMBER, ...as });
    await advance(1);
    expect((await state.udp.next()).status).toBe(180);
    expect((await cancel(state.udp, d)).status).toBe(200);
    expect((await state.udp.next()).status).toBe(487);
    expect((await calls())[0]).toMatchObject({ status: 'canceled', sipResponseCode: 487 });
    expect((await cancel(state.udp, d)).status).toBe(200); // a retransmitted CANCEL: the same answer again
    expect((await cancel(state.udp, { ...d, branch: 'z9hG4bK-no-such-invite' })).status).toBe(481);
  });

  it('the phone hanging up sends a BYE to the client; a re-INVITE gets a new answer; a retransmitted INVITE places one call', async () => {
    await credential();
    await script('01081000007', 'delivered', { hangupAfterSeconds: 10 });
    const d = await invite(state.udp, { to: '01081000007', from: ACME_NUMBER, ...as });
    // The same INVITE again (same branch) is a retransmission: the last provisional answer, no second call.
    const again = await state.udp.request({ method: 'INVITE', uri: d.toUri, from: d.fromHeader, to: `<${d.toUri}>`, callId: d.callId, cseq: d.cseq, branch: d.branch, headers: [['Content-Type', 'application/sdp']], body: offer() });
    expect(again.status).toBe(100);
    expect(await calls()).toHaveLength(1);
    await advance(4);
    expect((await state.udp.next()).status).toBe(180);
    const ok = await state.udp.next();
    expect(ok.status).toBe(200);
    ack(state.udp, d, toOf(ok));
    const re = await state.udp.request({ method: 'INVITE', uri: d.toUri, from: d.fromHeader, to: toOf(ok), callId: d.callId, cseq: d.cseq + 1, headers: [['Content-Type', 'application/sdp']], body: offer(40002, '0', ['a=sendonly']) });
    expect(re.status).toBe(200);
    expect(answerMedia(re)).toMatchObject({ formats: '0', version: '2' });
    expect(re.text).toContain('a=recvonly');
    await advance(10);
    const byeFromServer = await state.udp.nextRaw();
    expect(byeFromServer).toMatch(/^BYE sip:07012340001@127\.0\.0\.1:\d+ SIP\/2\.0\r\n/);
    expect(byeFromServer).toContain(`Call-ID: ${d.callId}`);
    expect((await calls())[0]).toMatchObject({ status: 'completed', duration: 10, hangupSource: 'callee', sipResponseCode: 200 });
    expect((await bye(state.udp, d, toOf(ok))).status).toBe(481);
  });
});

describe('media', () => {
  it('records what the client sends over RTP (PCMU, placed by timestamp, a lost packet as silence) into the call\'s recording', async () => {
    await credential();
    await script('01081000010', 'delivered');
    const rtp = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => rtp.bind(0, '127.0.0.1', () => resolve()));
    const port = rtp.address().port;
    const d = await invite(state.udp, { to: '01081000010', from: ACME_NUMBER, ...as, body: offer(port) });
    await advance(4);
    expect((await state.udp.next()).status).toBe(180);
    const ok = await state.udp.next();
    ack(state.udp, d, toOf(ok));
    // 50 packets of 20 ms; packet 10 is lost; a packet from another port is not this call's.
    const payload = (i: number) => Buffer.alloc(160, 0x10 + (i % 64));
    const packet = (i: number, pt = 0) => {
      const head = Buffer.alloc(12);
      head[0] = 0x80;
      head[1] = pt;
      head.writeUInt16BE(i, 2);
      head.writeUInt32BE(1000 + i * 160, 4);
      head.writeUInt32BE(0x5151, 8);
      return Buffer.concat([head, payload(i)]);
    };
    const send = (b: Buffer, s = rtp) => new Promise<void>((resolve) => s.send(b, state.sip.rtp, '127.0.0.1', () => resolve()));
    for (let i = 0; i < 50; i++) if (i !== 10) await send(packet(i));
    await send(packet(60, 101)); // telephone-event: not audio
    const stranger = dgram.createSocket('udp4');
    await send(packet(70), stranger);
    stranger.close();
    await new Promise((r) => setTimeout(r, 100)); // datagrams on loopback: let them arrive
    await advance(5);
    expect((await bye(state.udp, d, toOf(ok))).status).toBe(200);
    rtp.close();
    const [row] = await calls();
    expect(row.recordingUrl).not.toBeNull();
    const wav = await h.call('GET', h.acme(`/recordings/${row.callId}`));
    expect(wav.status, wav.text).toBe(200);
    const bytes = Buffer.from(wav.bytes!);
    expect(bytes.subarray(0, 4).toString()).toBe('RIFF');
    const samples = (bytes.length - 44) / 2;
    expect(samples).toBe(50 * 160);
    const { decode } = await import('../peers/speech/mulaw.ts');
    const at = (i: number) => bytes.readInt16LE(44 + i * 160 * 2);
    expect(at(3)).toBe(decode(payload(3))[0]);
    expect(at(49)).toBe(decode(payload(49))[0]);
    expect(at(10)).toBe(decode(Buffer.from([0xff]))[0]); // the lost packet: silence
  });
});

describe('who may call, and as which number', () => {
  it('a trunk address (the credential\'s IP ACL) calls without a challenge', async () => {
    const acl = (await h.call('POST', h.acme('/sip-ip-acls'), { name: 'pbx', cidrs: ['127.0.0.1/32'] })).json;
    await credential({ username: 'pbx_trunk', ipAclId: acl.id, allowedNumbers: [ACME_NUMBER] });
    const d = await invite(state.udp, { to: '01081000008', from: ACME_NUMBER });
    expect(d.first.status, d.first.text).toBe(100);
    expect((await calls())[0]).toMatchObject({ from: ACME_NUMBER, to: '01081000008' });
  });

  it('refuses, placing nothing: a caller id outside allowedNumbers, an international or malformed destination, no PCMU, a wrong password', async () => {
    await credential({ allowedNumbers: ['07012340002'] });
    const refused = async (o: Parameters<typeof invite>[1], status: number, why: RegExp) => {
      const d = await invite(state.udp, o);
      expect(d.first.status, d.first.text).toBe(status);
      expect(d.first.get('warning') ?? '').toMatch(why);
      ack(state.udp, d, toOf(d.first), d.branch);
    };
    await refused({ to: '01081000009', from: ACME_NUMBER, ...as }, 403, /allowedNumbers/);
    await refused({ to: '+14155550100', from: '07012340002', ...as }, 403, /domestic/);
    await refused({ to: 'reception', from: '07012340002', ...as }, 484, /domestic number/);
    await refused({ to: '01081000009', from: '07012340002', ...as, body: offer(40000, '8', ['a=rtpmap:8 PCMA/8000']).replace('a=rtpmap:0 PCMU/8000\r\n', '') }, 488, /PCMU/);
    await refused({ to: '01081000009', from: '07012340002', username: 'desk_01', password: 'wrong' }, 403, /wrong password/);
    expect(await calls()).toEqual([]);
    // The allowed number calls.
    expect((await invite(state.udp, { to: '01081000009', from: '07012340002', ...as })).first.status).toBe(100);
  });
});
