// Real SIP software on the other end of dials and transfers: SIPp (sip-tester) plays a device
// that a call flow's dial block rings (it answers, then gets the simulator's BYE when the call
// ends, echoing the RTP it got meanwhile; or it answers 486 and the leg is busy), and a SIP client that transfers its call with
// REFER (202, NOTIFY 100 Trying then 200 OK, BYE). The simulator's clock runs in realtime, ten
// times faster, as devices meet it. Where SIPp is missing this file skips, saying so loudly.
import { describe, expect, it } from 'vitest';
import { sippHarness } from './sipp-harness.ts';
import { PASSWORD, REALM, available, freePort, sipp, statusLines } from './sipp-run.ts';

describe.skipIf(!available)('SIPp as the device a dial rings, and as a client that REFERs', () => {
  const { h, sip } = sippHarness();

  const script = (number: string, body: Record<string, unknown>) => h.sim.control.request('POST', '/carrier/scripts', { number, types: ['call'], outcome: 'delivered', delaySeconds: 1, ...body });
  const callOf = async (callId: string) => (await h.call('GET', h.acme(`/calls/${callId}`))).json;

  /** A flow that dials `uri`, placed to a scripted phone that hangs up after `hangupAfterSeconds`. */
  async function dialCall(uri: string, phone: string, hangupAfterSeconds: number): Promise<string> {
    const port = /:(\d+)$/.exec(uri)![1];
    const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
    expect((await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${port}`, priority: 1 })).status).toBe(201);
    const flow = (await h.call('POST', h.acme('/call-flows'), { name: 'dial', graph: { version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'sip', value: uri }, timeoutSec: 20, next: 'bye' }, bye: { type: 'hangup' } } } })).json.callFlowId;
    await script(phone, { hangupAfterSeconds });
    const placed = await h.call('POST', h.acme('/calls'), { From: '07012340001', To: phone, CallFlowId: flow });
    expect(placed.status, placed.text).toBe(201);
    return placed.json.callId;
  }

  it('a dial block rings a SIPp device: 180, 200, ACK; the phone hanging up sends BYE; the leg is completed', async () => {
    const port = await freePort();
    const device = sipp(sip.udp, 'uas-answer.xml', [], port);
    await new Promise((r) => setTimeout(r, 500));
    const callId = await dialCall(`sip:alice@127.0.0.1:${port}`, '01083000001', 30);
    const run = await device;
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['INVITE', 'SIP/2.0 180 Ringing', 'SIP/2.0 200 OK', 'ACK', 'BYE', 'SIP/2.0 200 OK']);
    const call = await callOf(callId);
    expect(call).toMatchObject({ status: 'completed', transferStatus: 'completed', transferSipResponseCode: 200 });
    expect(call.transfers[0]).toMatchObject({ mode: 'blind', to: `sip:alice@127.0.0.1:${port}`, status: 'completed' });
  });

  it('RTP flows on the dialed leg: SIPp echoes what it gets (-rtp_echo), so the server gets its own stream back from the device', async () => {
    const port = await freePort();
    const device = sipp(sip.udp, 'uas-answer.xml', ['-rtp_echo', '-rtp_buffsize', '1048576', '-mp', String(await freePort())], port);
    await new Promise((r) => setTimeout(r, 500));
    const callId = await dialCall(`sip:erin@127.0.0.1:${port}`, '01083000005', 20);
    const run = await device;
    expect(run.code, run.errors + run.messages).toBe(0);
    const media = await h.sim.control.request<{ sent: { packets: number; ssrc: number } | null; received: { packets: number; ssrc: number } | null }>('GET', `/sip/calls/${callId}/media`);
    // One packet per 20 ms from the device's 200 to the BYE (under 20 s), less what late wakes skipped.
    expect(media.sent?.packets, JSON.stringify(media)).toBeGreaterThan(250);
    expect(media.sent!.packets).toBeLessThanOrEqual(20 * 50 + 50);
    expect(media.received?.ssrc, JSON.stringify(media)).toBe(media.sent!.ssrc);
    expect(media.received!.packets).toBeGreaterThan(media.sent!.packets * 0.9);
  });

  it('a SIPp device answering 486: the leg is busy with 486 and the flow goes on', async () => {
    const port = await freePort();
    const device = sipp(sip.udp, 'uas-busy.xml', [], port);
    await new Promise((r) => setTimeout(r, 500));
    const callId = await dialCall(`sip:bob@127.0.0.1:${port}`, '01083000002', 600);
    const run = await device;
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['INVITE', 'SIP/2.0 486 Busy Here', 'ACK']);
    await expect.poll(async () => (await callOf(callId)).status, { timeout: 5000 }).toBe('completed');
    expect((await callOf(callId)).transfers[0]).toMatchObject({ status: 'busy', sipResponseCode: 486, hangupCauseQ850: 17 });
  });

  it('a SIPp client REFERs its call to a number: 202, NOTIFY 100 Trying and 200 OK, BYE; the leg is recorded as refer', async () => {
    const r = await h.call('POST', h.acme('/sip-credentials'), { name: 'pbx', username: 'desk_01', password: PASSWORD });
    expect(r.status, r.text).toBe(201);
    await script('01083000003', { hangupAfterSeconds: 600 });
    await script('01083000004', { hangupAfterSeconds: 20 });
    // Each NOTIFY is followed by its sipfrag's status line (the body), then the client's 200.
    const run = await sipp(sip.udp, 'uac-refer.xml', ['-s', '01083000003', '-set', 'realm', REALM, '-set', 'caller', '07012340001', '-set', 'target', '01083000004', '-au', 'desk_01', '-ap', PASSWORD]);
    expect(run.code, run.errors + run.messages).toBe(0);
    expect(statusLines(run)).toEqual(['INVITE', 'SIP/2.0 407 Proxy Authentication Required', 'ACK', 'INVITE', 'SIP/2.0 100 Trying', 'SIP/2.0 180 Ringing', 'SIP/2.0 200 OK', 'ACK', 'REFER', 'SIP/2.0 202 Accepted', 'NOTIFY', 'SIP/2.0 100 Trying', 'SIP/2.0 200 OK', 'NOTIFY', 'SIP/2.0 200 OK', 'SIP/2.0 200 OK', 'BYE', 'SIP/2.0 200 OK']);
    const [call] = (await h.call('GET', h.acme('/calls'))).json.data;
    await expect.poll(async () => (await callOf(call.callId)).status, { timeout: 8000 }).toBe('completed');
    const done = await callOf(call.callId);
    expect(done.transfers[0]).toMatchObject({ mode: 'refer', to: '01083000004', status: 'completed' });
    expect(done).toMatchObject({ transferTo: '01083000004', transferStatus: 'completed' });
  });
});
