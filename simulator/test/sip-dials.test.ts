// Dials to SIP on the wire: with a SIP listener, a call-flow dial block and VoiceML <Dial><Sip>
// to a SIP URI ring a fake device on loopback UDP (an INVITE from the listener), and the leg is
// recorded from what the device answers: 180/200 connect, BYE from either side ends it, a final
// 486/603/404 maps to the leg's status and code, silence past the ring timeout is CANCELed as
// no-answer; the route's counters follow; a route named by DNS resolves through the fake DNS.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { startReceiver, closeAllReceivers } from './receivers.ts';
import { Pbx, sdp } from './sip-pbx.ts';
import type { SipListener } from '../index.ts';

const h = harness();
const steps = voiceSteps(h);
let sip: SipListener;
let pbx: Pbx;

const dialFlow = (uri: string, timeoutSec = 20) => steps.flow({ version: 1, start: 'd', nodes: { d: { type: 'dial', target: { kind: 'sip', value: uri }, timeoutSec, next: 'bye' }, bye: { type: 'hangup', message: 'Goodbye' } } });
const legsOf = async (callId: string) => (await h.call('GET', h.acme(`/calls/${callId}`))).json.transfers;
const routeOf = async (e: { id: string; route: string }) => (await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes/${e.route}`))).json;

async function endpoint(uri: string) {
  const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
  const r = await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri, priority: 10, weight: 100 });
  expect(r.status, r.text).toBe(201);
  return { id: e.id as string, route: r.json.id as string };
}

/** The device hangs up: a BYE in the dialog its 200 opened. */
function byeFrom(device: Pbx, invite: string): void {
  const header = (n: string) => invite.split('\r\n').find((l) => l.toLowerCase().startsWith(`${n.toLowerCase()}:`))!.slice(n.length + 1).trim();
  const contact = /<([^>]+)>/.exec(header('Contact'))![1]!;
  const via = /Via: SIP\/2\.0\/UDP ([\d.]+):(\d+)/.exec(invite)!;
  const lines = [`BYE ${contact} SIP/2.0`, `Via: SIP/2.0/UDP 127.0.0.1:${device.port};branch=z9hG4bKbye1;rport`, 'Max-Forwards: 70', `From: ${header('To')};tag=pbx`, `To: ${header('From')}`, `Call-ID: ${header('Call-ID')}`, 'CSeq: 2 BYE', 'Content-Length: 0'];
  device.socket.send(`${lines.join('\r\n')}\r\n\r\n`, Number(via[2]), via[1]);
}

beforeAll(async () => {
  sip = await h.sim.listenSip(0);
  pbx = await Pbx.start();
});
afterAll(async () => {
  pbx.close();
  await closeAllReceivers();
  await h.sim.close();
});
beforeEach(async () => {
  await h.sim.control.reset();
  pbx.got.length = 0;
});

describe('a dial block to a SIP URI, on the wire', () => {
  it('rings the device, bridges on 200, and records the leg; the device BYE ends it and the flow goes on', async () => {
    const e = await endpoint(`sip:127.0.0.1:${pbx.port}`);
    const flowId = await dialFlow(`sip:alice@127.0.0.1:${pbx.port}`);
    const hook = await startReceiver();
    const callId = await steps.placeWith({ To: '010-7700-0001', CallFlowId: flowId, StatusCallback: hook.url, StatusCallbackEvent: 'transfer completed' });
    await steps.advance(10);
    const invite = await pbx.next('INVITE');
    expect(invite).toMatch(new RegExp(`^INVITE sip:alice@127\\.0\\.0\\.1:${pbx.port} SIP/2\\.0\\r\\n`));
    expect(invite).toContain('m=audio');
    expect(invite).toMatch(new RegExp(`Via: SIP/2\\.0/UDP 127\\.0\\.0\\.1:${sip.udp};branch=z9hG4bK`));
    pbx.answer(invite, 180, 'Ringing');
    pbx.answer(invite, 200, 'OK', [`Contact: <sip:alice@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], sdp(42000));
    expect(await pbx.next('ACK')).toMatch(new RegExp(`^ACK sip:alice@127\\.0\\.0\\.1:${pbx.port} `));
    expect((await legsOf(callId))[0]).toMatchObject({ sequence: 1, to: `sip:alice@127.0.0.1:${pbx.port}`, mode: 'blind', status: 'connected' });
    expect((await routeOf(e)).lastUsedAt).not.toBeNull();
    await steps.advance(30);
    byeFrom(pbx, invite);
    await expect.poll(async () => (await legsOf(callId))[0].status).toBe('completed');
    const leg = (await legsOf(callId))[0];
    expect(leg).toMatchObject({ sipResponseCode: 200, hangupCauseQ850: 16, duration: 30, billable: true });
    await steps.advance(10);
    const call = await steps.get(callId);
    expect(call).toMatchObject({ status: 'completed', transferTo: `sip:alice@127.0.0.1:${pbx.port}`, transferStatus: 'completed' });
    await h.sim.webhooks.settle();
    const transfers = hook.requests.filter((r) => r.fields.StatusCallbackEvent === 'transfer').map((r) => r.fields.TransferStatus);
    expect(transfers).toEqual(['initiated', 'connected', 'completed']);
    expect((await routeOf(e)).failureCount).toBe(0);
  });

  it('maps the device final answer: 486 busy, 603 failed with 603, 404 failed with Q.850 1; the route counts each failure', async () => {
    const e = await endpoint(`sip:127.0.0.1:${pbx.port}`);
    const cases: [number, string, object][] = [
      [486, 'Busy Here', { status: 'busy', sipResponseCode: 486, hangupCauseQ850: 17 }],
      [603, 'Decline', { status: 'failed', sipResponseCode: 603, hangupCauseQ850: 21 }],
      [404, 'Not Found', { status: 'failed', sipResponseCode: 404, hangupCauseQ850: 1 }],
    ];
    for (const [code, reason, expected] of cases) {
      const flowId = await dialFlow(`sip:bob@127.0.0.1:${pbx.port}`);
      const callId = await steps.place('010-7700-0002', flowId);
      await steps.advance(10);
      const invite = await pbx.next('INVITE');
      pbx.answer(invite, code, reason);
      expect(await pbx.next('ACK')).toContain('CSeq: 1 ACK');
      await expect.poll(async () => (await legsOf(callId))[0].status).not.toBe('initiated');
      expect((await legsOf(callId))[0]).toMatchObject({ ...expected, connectedAt: null });
      await steps.advance(5);
      expect(await steps.get(callId)).toMatchObject({ status: 'completed' }); // the flow went on to its hangup
    }
    expect((await routeOf(e)).failureCount).toBe(3);
  });

  it('a device that rings past the timeout is CANCELed: no-answer, 408', async () => {
    await endpoint(`sip:127.0.0.1:${pbx.port}`);
    const flowId = await dialFlow(`sip:carol@127.0.0.1:${pbx.port}`, 8);
    const callId = await steps.place('010-7700-0003', flowId);
    await steps.advance(10);
    const invite = await pbx.next('INVITE');
    pbx.answer(invite, 180, 'Ringing');
    await expect.poll(async () => (await legsOf(callId))[0].status).toBe('ringing');
    await steps.advance(9);
    const cancel = await pbx.next('CANCEL');
    expect(cancel).toContain('CSeq: 1 CANCEL');
    expect((await legsOf(callId))[0]).toMatchObject({ status: 'no-answer', sipResponseCode: 408, hangupCauseQ850: 19 });
  });

  it('the call hanging up sends BYE to the bridged device; the leg completes', async () => {
    await endpoint(`sip:127.0.0.1:${pbx.port}`);
    const flowId = await dialFlow(`sip:dave@127.0.0.1:${pbx.port}`);
    const callId = await steps.place('010-7700-0004', flowId);
    await steps.advance(10);
    const invite = await pbx.next('INVITE');
    pbx.answer(invite, 200, 'OK', [`Contact: <sip:dave@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], sdp(42002));
    await pbx.next('ACK');
    await steps.advance(12);
    const hung = await h.call('POST', h.acme(`/calls/${callId}`), { Status: 'completed' });
    expect(hung.status, hung.text).toBeLessThan(300);
    expect(await pbx.next('BYE')).toMatch(new RegExp(`^BYE sip:dave@127\\.0\\.0\\.1:${pbx.port} `));
    expect((await legsOf(callId))[0]).toMatchObject({ status: 'completed', duration: 12 });
  });

  it('a route named by DNS goes through the fake DNS; a name it does not know fails the leg at once (404) and the route', async () => {
    const e = await endpoint(`sip:pbx.example.test:${pbx.port}`);
    await h.sim.control.request('PUT', '/dns/records/pbx.example.test', { records: [{ type: 'A', value: '127.0.0.1' }] });
    const callId = await steps.place('010-7700-0005', await dialFlow(`sip:erin@pbx.example.test:${pbx.port}`));
    await steps.advance(10);
    const invite = await pbx.next('INVITE');
    expect(invite).toMatch(new RegExp(`^INVITE sip:erin@pbx\\.example\\.test:${pbx.port} SIP/2\\.0`));
    pbx.answer(invite, 486, 'Busy Here');
    await expect.poll(async () => (await legsOf(callId))[0].status).toBe('busy');
    const e2 = await endpoint(`sip:unknown.example.test:${pbx.port}`);
    const other = await steps.place('010-7700-0006', await dialFlow(`sip:erin@unknown.example.test:${pbx.port}`));
    await steps.advance(10);
    expect((await legsOf(other))[0]).toMatchObject({ status: 'failed', sipResponseCode: 404 });
    expect((await routeOf(e2)).failureCount).toBe(1);
    expect((await routeOf(e)).failureCount).toBe(1);
  });
});

describe('routes named by DNS and TLS routes, for a number routed sip', () => {
  it('a TLS route and a name the fake DNS does not know count as failed; a name it knows is offered at its address', async () => {
    const NUMBER = '07012340001';
    await h.sim.control.request('PUT', '/dns/records/pbx.example.test', { records: [{ type: 'A', value: '127.0.0.1' }] });
    const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
    const ids: string[] = [];
    for (const [uri, priority] of [['sips:secure.example.test:5061', 1], ['sip:nowhere.example.test:5060', 2], [`sip:pbx.example.test:${pbx.port}`, 3]] as const) {
      const r = await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri, priority, weight: 10 });
      expect(r.status, r.text).toBe(201);
      ids.push(r.json.id);
    }
    expect((await h.call('PUT', h.acme(`/numbers/${NUMBER}`), { routingType: 'sip', sipEndpointId: e.id })).status).toBe(200);
    await h.sim.control.request('POST', '/carrier/inbound-calls', { from: '01055550001', to: NUMBER });
    await steps.advance(1);
    const invite = await pbx.next('INVITE');
    expect(invite).toMatch(new RegExp(`^INVITE sip:${NUMBER}@pbx\\.example\\.test:${pbx.port} SIP/2\\.0`));
    const counts = await Promise.all(ids.map(async (id) => (await routeOf({ id: e.id, route: id })).failureCount));
    expect(counts).toEqual([1, 1, 0]);
    pbx.answer(invite, 603, 'Decline');
    await pbx.next('ACK');
  });
});

describe('VoiceML <Dial><Sip> on the wire', () => {
  it('rings the device; DialCallStatus and DialCallDuration come from its answer and BYE; a 486 reads busy', async () => {
    await endpoint(`sip:127.0.0.1:${pbx.port}`);
    const app = await startReceiver((_, req) => {
      if (req.path.startsWith('/after')) return { status: 200, body: '<Response><Hangup/></Response>', headers: { 'content-type': 'application/xml' } };
      return { status: 200, body: `<Response><Dial action="/after" timeout="20"><Sip>sip:frank@127.0.0.1:${pbx.port}</Sip></Dial></Response>`, headers: { 'content-type': 'application/xml' } };
    }, '/');
    const callId = await steps.placeVoiceMl('010-7700-0007', `${app.origin}/start`);
    await steps.advance(10);
    const invite = await pbx.next('INVITE');
    pbx.answer(invite, 200, 'OK', [`Contact: <sip:frank@127.0.0.1:${pbx.port}>`, 'Content-Type: application/sdp'], sdp(42004));
    await pbx.next('ACK');
    await steps.advance(25);
    byeFrom(pbx, invite);
    await expect.poll(() => app.requests.some((r) => r.path.startsWith('/after'))).toBe(true);
    const after = app.requests.find((r) => r.path.startsWith('/after'))!;
    expect(after.fields).toMatchObject({ DialCallStatus: 'completed', DialCallDuration: '25' });
    expect((await steps.get(callId)).transfers ?? []).toEqual([]);

    const busyId = await steps.placeVoiceMl('010-7700-0008', `${app.origin}/start`);
    await steps.advance(10);
    pbx.answer(await pbx.next('INVITE'), 486, 'Busy Here');
    await expect.poll(() => app.requests.filter((r) => r.path.startsWith('/after')).length).toBe(2);
    expect(app.requests.filter((r) => r.path.startsWith('/after'))[1]!.fields).toMatchObject({ CallId: busyId, DialCallStatus: 'busy', DialCallDuration: '0' });
  });
});
