// SIP REFER transfers on the wire: a SIP client in a connected call REFERs the other party to a
// number or a SIP URI; the server answers 202, NOTIFYs 100 Trying and then the leg's outcome
// (200 OK or its final code), and records the leg like every transfer (mode refer). A client
// that BYEs after the 200 NOTIFY leaves the call to the parties. Bad REFERs (no, two or
// unreadable Refer-To, another scheme, a number abroad, a host no route reaches, no dialog, a
// call not connected) get their SIP error and store nothing.
import { describe, expect, it } from 'vitest';
import { PASSWORD, sipListening } from './sip-listening.ts';
import { ack, invite, toOf, REALM, type OpenInvite } from './sip-invite-client.ts';
import { type SipTestClient } from './sip-client.ts';
import { Pbx, sdp } from './sip-pbx.ts';

const { h, state, credential } = sipListening();
const ACME_NUMBER = '07012340001';
const as = { username: 'desk_01', password: PASSWORD };
const advance = (seconds: number) => h.sim.clock.advance({ seconds });
const script = (number: string, outcome: string, extra: Record<string, unknown> = {}) =>
  h.sim.control.request('POST', '/carrier/scripts', { number, outcome, types: ['call'], delaySeconds: 3, ...extra });
const callRow = async () => (await h.call('GET', h.acme('/calls'))).json.data[0];
const transfersOf = async (callId: string) => (await h.call('GET', h.acme(`/calls/${callId}`))).json.transfers ?? [];

let cseq = 10;
function refer(c: SipTestClient, d: OpenInvite, to: string, referTo: string[]) {
  return c.request({ method: 'REFER', uri: d.toUri, from: d.fromHeader, to, callId: d.callId, cseq: ++cseq, headers: [...referTo.map((v): [string, string] => ['Refer-To', v]), ['Contact', `<sip:${ACME_NUMBER}@127.0.0.1:${c.localPort}>`]] });
}

/** The next request the server sends to the client (a NOTIFY), answered 200. */
async function nextNotify(c: SipTestClient): Promise<{ text: string; frag: string; state: string }> {
  const text = await c.nextRaw();
  expect(text, text).toMatch(/^NOTIFY /);
  const header = (n: string) => text.split('\r\n').find((l) => l.toLowerCase().startsWith(`${n}:`))!.slice(n.length + 1).trim();
  const answer = ['SIP/2.0 200 OK', `Via: ${header('via')}`, `From: ${header('from')}`, `To: ${header('to')}`, `Call-ID: ${header('call-id')}`, `CSeq: ${header('cseq')}`, 'Content-Length: 0'];
  c.sendRaw(`${answer.join('\r\n')}\r\n\r\n`);
  expect(header('event')).toBe('refer');
  expect(header('content-type')).toBe('message/sipfrag;version=2.0');
  return { text, frag: text.split('\r\n\r\n')[1]!.trim(), state: header('subscription-state') };
}

/** A connected call from the client to a scripted number: its dialog and the server's To. */
async function connected(to: string): Promise<{ d: OpenInvite; to: string; callId: string }> {
  await credential();
  await script(to, 'delivered', { hangupAfterSeconds: 600 });
  const d = await invite(state.udp, { to, from: ACME_NUMBER, ...as });
  expect(d.first.status, d.first.text).toBe(100);
  await advance(1);
  expect((await state.udp.next()).status).toBe(180);
  await advance(3);
  const ok = await state.udp.next();
  expect(ok.status, ok.text).toBe(200);
  ack(state.udp, d, toOf(ok));
  return { d, to: toOf(ok), callId: (await callRow()).callId };
}

describe('REFER from a SIP client in a call', () => {
  it('to a number: 202, NOTIFY 100 then 200; the leg is recorded as refer; the client BYEs and the call goes on until the leg ends', async () => {
    const { d, to, callId } = await connected('01082000001');
    await script('01082000002', 'delivered', { delaySeconds: 4, hangupAfterSeconds: 30 });
    const accepted = await refer(state.udp, d, to, [`<sip:010-8200-0002@${REALM}>`]);
    expect(accepted.status, accepted.text).toBe(202);
    expect(await nextNotify(state.udp)).toMatchObject({ frag: 'SIP/2.0 100 Trying', state: 'active;expires=60' });
    expect((await transfersOf(callId))[0]).toMatchObject({ sequence: 1, to: '01082000002', mode: 'refer', status: 'initiated' });
    await advance(5);
    expect(await nextNotify(state.udp)).toMatchObject({ frag: 'SIP/2.0 200 OK', state: 'terminated;reason=noresource' });
    const left = await state.udp.request({ method: 'BYE', uri: d.toUri, from: d.fromHeader, to, callId: d.callId, cseq: ++cseq });
    expect(left.status).toBe(200);
    expect((await callRow()).status).toBe('in-progress'); // the parties talk on
    await advance(31);
    const leg = (await transfersOf(callId))[0];
    expect(leg).toMatchObject({ mode: 'refer', status: 'completed', duration: 30, sipResponseCode: 200 });
    expect(await callRow()).toMatchObject({ status: 'completed', transferStatus: 'completed', transferTo: '01082000002' });
    expect(await state.udp.nextRaw(200)).toBe('<silence>'); // no BYE to a client that left
  });

  it('a busy number: the final NOTIFY carries 486 and the client stays in the call', async () => {
    const { d, to, callId } = await connected('01082000003');
    await script('01082000004', 'busy', { delaySeconds: 2 });
    expect((await refer(state.udp, d, to, ['<tel:010-8200-0004>'])).status).toBe(202);
    expect((await nextNotify(state.udp)).frag).toBe('SIP/2.0 100 Trying');
    await advance(3);
    expect(await nextNotify(state.udp)).toMatchObject({ frag: 'SIP/2.0 486 Busy Here', state: 'terminated;reason=noresource' });
    expect((await transfersOf(callId))[0]).toMatchObject({ mode: 'refer', status: 'busy' });
    expect((await callRow()).status).toBe('in-progress');
  });

  it('to a SIP URI an active route reaches: rung on the wire; the device answer is the NOTIFY', async () => {
    const pbx = await Pbx.start();
    try {
      const { d, to, callId } = await connected('01082000005');
      const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
      expect((await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${pbx.port}`, priority: 1, weight: 1 })).status).toBe(201);
      const accepted = await refer(state.udp, d, to, [`<sip:queue@127.0.0.1:${pbx.port}?Replaces=abc%40x%3Bto-tag%3D1%3Bfrom-tag%3D2>`]);
      expect(accepted.status, accepted.text).toBe(202);
      expect((await nextNotify(state.udp)).frag).toBe('SIP/2.0 100 Trying');
      const inv = await pbx.next('INVITE');
      expect(inv).toMatch(new RegExp(`^INVITE sip:queue@127\\.0\\.0\\.1:${pbx.port} SIP/2\\.0`));
      pbx.answer(inv, 200, 'OK', [`Contact: <sip:queue@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], sdp(43000));
      await pbx.next('ACK');
      expect((await nextNotify(state.udp)).frag).toBe('SIP/2.0 200 OK');
      expect((await transfersOf(callId))[0]).toMatchObject({ mode: 'refer-attended', status: 'connected', to: `sip:queue@127.0.0.1:${pbx.port}` }); // the target, without the Replaces header
    } finally {
      pbx.close();
    }
  });

  it('refuses bad REFERs with their SIP error and stores nothing', async () => {
    const { d, to, callId } = await connected('01082000006');
    const cases: [string[], number][] = [
      [[], 400],
      [[`<sip:01082000007@${REALM}>`, `<sip:01082000008@${REALM}>`], 400],
      [['<>'], 400],
      [['<mailto:someone@example.com>'], 416],
      [['<tel:+14155550100>'], 403],
      [[`<sip:not-a-number@${REALM}>`], 400],
      [['<sip:bob@203.0.113.9>'], 403],
    ];
    for (const [referTo, status] of cases) {
      const r = await refer(state.udp, d, to, referTo);
      expect(r.status, `${referTo.join(' ')}: ${r.text}`).toBe(status);
      if (status !== 400 || referTo.length > 0) expect(r.get('warning') ?? '', r.text).toMatch(/^399 platform-simulator "/);
    }
    const outside = await refer(state.udp, d, `<${d.toUri}>;tag=not-the-servers`, [`<sip:01082000007@${REALM}>`]);
    expect(outside.status).toBe(481);
    expect(await transfersOf(callId)).toEqual([]);
    expect(await state.udp.nextRaw(200)).toBe('<silence>'); // no NOTIFY for a refused REFER
  });

  it('from a device that answered an inbound call routed sip: 202 and NOTIFYs go to the device; the leg is recorded', async () => {
    const pbx = await Pbx.start();
    try {
      const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
      expect((await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${pbx.port}`, priority: 1, weight: 1 })).status).toBe(201);
      expect((await h.call('PUT', h.acme(`/numbers/${ACME_NUMBER}`), { routingType: 'sip', sipEndpointId: e.id })).status).toBe(200);
      const { callId } = await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '01055550001', to: ACME_NUMBER, hangupAfterSeconds: 600 });
      await advance(1);
      const inv = await pbx.next('INVITE');
      pbx.answer(inv, 200, 'OK', [`Contact: <sip:pbx@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], sdp(43002));
      await pbx.next('ACK');
      await script('01082000011', 'delivered', { delaySeconds: 2 });
      const header = (n: string) => inv.split('\r\n').find((l) => l.toLowerCase().startsWith(`${n.toLowerCase()}:`))!.slice(n.length + 1).trim();
      const via = /Via: SIP\/2\.0\/UDP ([\d.]+):(\d+)/.exec(inv)!;
      const lines = [`REFER ${/<([^>]+)>/.exec(header('Contact'))![1]} SIP/2.0`, `Via: SIP/2.0/UDP 127.0.0.1:${pbx.port};branch=z9hG4bKrefer1;rport`, 'Max-Forwards: 70', `From: ${header('To')};tag=pbx`, `To: ${header('From')}`, `Call-ID: ${header('Call-ID')}`, 'CSeq: 5 REFER', `Contact: <sip:pbx@127.0.0.1:${pbx.port}>`, `Refer-To: <tel:010-8200-0011>`, 'Content-Length: 0'];
      pbx.socket.send(`${lines.join('\r\n')}\r\n\r\n`, Number(via[2]), via[1]);
      await expect.poll(() => pbx.got.some((m) => m.startsWith('SIP/2.0 202 Accepted'))).toBe(true);
      expect(await pbx.next('NOTIFY')).toContain('SIP/2.0 100 Trying');
      await advance(3);
      const done = await pbx.next('NOTIFY');
      expect(done).toContain('Subscription-State: terminated;reason=noresource');
      expect(done).toContain('SIP/2.0 200 OK');
      expect((await transfersOf(callId))[0]).toMatchObject({ mode: 'refer', to: '01082000011', status: 'connected' });
    } finally {
      pbx.close();
    }
  });

  it('a REFER before the call is answered is refused (403) and stores nothing', async () => {
    await credential();
    await script('01082000009', 'delivered', { delaySeconds: 20 });
    const d = await invite(state.udp, { to: '01082000009', from: ACME_NUMBER, ...as });
    await advance(1);
    const ringing = await state.udp.next();
    expect(ringing.status).toBe(180);
    expect((await refer(state.udp, d, toOf(ringing), [`<sip:01082000010@${REALM}>`])).status).toBe(403);
    expect(await transfersOf((await callRow()).callId)).toEqual([]);
  });
});
