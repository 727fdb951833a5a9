// Calls to SIP over the wire: an inbound call to a number routed `sip` is offered to its
// endpoint's routes (fake PBXs on loopback UDP ports) in priority order, failing over on a final
// error or silence, with the routes' lastUsedAt / lastFailureAt / failureCount; maxConcurrent
// turns the next call away busy; a number routed `softphone` rings the credential's registered
// device; BYE either way ends the call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { register, SipTestClient } from './sip-client.ts';
import type { SipListener } from '../index.ts';
import { Pbx, sdp } from './sip-pbx.ts';

const h = harness();
let sip: SipListener;
const NUMBER = '07012340001';
const REALM = 'ac1a2b3c4d.sip.claw-ops.com';

const advance = (seconds: number) => h.sim.clock.advance({ seconds });
const callOf = async (callId: string) => (await h.call('GET', h.acme('/calls'))).json.data.find((c: { callId: string }) => c.callId === callId);
const inbound = async (from = '01055550001') => (await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from, to: NUMBER })).callId;

async function endpoint(routes: { port: number; priority: number; weight?: number }[], maxConcurrent: number | null = null) {
  const e = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx', maxConcurrent })).json;
  const ids: string[] = [];
  for (const r of routes) {
    const created = await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri: `sip:127.0.0.1:${r.port}`, priority: r.priority, weight: r.weight ?? 100 });
    expect(created.status, created.text).toBe(201);
    ids.push(created.json.id);
  }
  const routed = await h.call('PUT', h.acme(`/numbers/${NUMBER}`), { routingType: 'sip', sipEndpointId: e.id });
  expect(routed.status, routed.text).toBe(200);
  return { id: e.id as string, routes: ids };
}
const route = async (e: { id: string }, id: string) => (await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes/${id}`))).json;

let a: Pbx;
let b: Pbx;
beforeAll(async () => {
  sip = await h.sim.listenSip(0);
  a = await Pbx.start();
  b = await Pbx.start();
});
afterAll(async () => {
  a.close();
  b.close();
  await h.sim.close();
});
beforeEach(async () => {
  await h.sim.control.reset();
  a.got.length = 0;
  b.got.length = 0;
});

describe('a number routed sip', () => {
  it('fails over from a busy route to the next priority, which answers; route stats and BYE from the PBX', async () => {
    const e = await endpoint([{ port: a.port, priority: 10 }, { port: b.port, priority: 20 }]);
    const callId = await inbound();
    await advance(1);
    const first = await a.next('INVITE');
    expect(first).toMatch(new RegExp(`^INVITE sip:${NUMBER}@127\\.0\\.0\\.1:${a.port} SIP/2\\.0\\r\\n`));
    expect(first).toContain('m=audio');
    a.answer(first, 486, 'Busy Here');
    expect(await a.next('ACK')).toContain('CSeq: 1 ACK');
    const second = await b.next('INVITE');
    b.answer(second, 180, 'Ringing');
    b.answer(second, 200, 'OK', [`Contact: <sip:pbx@127.0.0.1:${b.port}>`, 'Content-Type: application/sdp'], sdp(41000));
    expect(await b.next('ACK')).toMatch(new RegExp(`^ACK sip:pbx@127\\.0\\.0\\.1:${b.port} `));
    expect(await callOf(callId)).toMatchObject({ status: 'in-progress', direction: 'inbound' });
    const [ra, rb] = [await route(e, e.routes[0]!), await route(e, e.routes[1]!)];
    expect(ra).toMatchObject({ failureCount: 1 });
    expect(ra.lastFailureAt).not.toBeNull();
    expect(rb).toMatchObject({ failureCount: 0, lastFailureAt: null });
    expect(rb.lastUsedAt).not.toBeNull();
    await advance(20);
    // The PBX hangs up: its BYE in the dialog the server opened.
    const callIdHeader = /Call-ID: (.*)/.exec(second)![1]!;
    const fromTag = /From: .*;tag=([^;\r\n]+)/.exec(second)![1]!;
    const client = await SipTestClient.udp(sip.udp);
    const bye = await client.request({ method: 'BYE', uri: `sip:${NUMBER}@127.0.0.1:${sip.udp}`, from: `<sip:${NUMBER}@127.0.0.1>;tag=pbx`, to: `<sip:x@127.0.0.1>;tag=${fromTag}`, callId: callIdHeader, cseq: 5 });
    client.close();
    expect(bye.status).toBe(200);
    expect(await callOf(callId)).toMatchObject({ status: 'completed', duration: 20, hangupSource: 'callee' });
  });

  it('fails over a silent route after 5 s; with none left the call ends no-answer; maxConcurrent turns one more away busy', async () => {
    const e = await endpoint([{ port: a.port, priority: 10 }, { port: b.port, priority: 10, weight: 0 }], 1);
    const callId = await inbound();
    await advance(1);
    await a.next('INVITE'); // never answered
    await advance(5);
    const second = await b.next('INVITE'); // weight 0: last within its priority
    b.answer(second, 100, 'Trying');
    await new Promise((r) => setTimeout(r, 100));
    // One call is on offer: the endpoint's limit of 1 turns the next away.
    const busy = await inbound('01055550002');
    await advance(1);
    expect(await callOf(busy)).toMatchObject({ status: 'busy', sipResponseCode: 486 });
    await advance(30); // rang for 30 s: canceled, and nothing is left
    expect(await b.next('CANCEL')).toContain('CSeq: 1 CANCEL');
    expect(await callOf(callId)).toMatchObject({ status: 'no-answer', sipResponseCode: 480 });
    expect((await route(e, e.routes[0]!)).failureCount).toBe(1);
    expect((await route(e, e.routes[1]!)).failureCount).toBe(1);
  });
});

describe('a number routed softphone', () => {
  it('rings the device its credential registered; the caller hanging up sends it a BYE', async () => {
    const cred = (await h.call('POST', h.acme('/sip-credentials'), { name: 'desk', username: 'desk_01', password: 'correct horse battery' })).json;
    const phone = await SipTestClient.udp(sip.udp);
    expect((await register(phone, { username: 'desk_01', password: 'correct horse battery', realm: REALM })).final.status).toBe(200);
    expect((await h.call('PUT', h.acme(`/numbers/${NUMBER}`), { routingType: 'softphone', sipCredentialId: cred.id })).status).toBe(200);
    await h.sim.control.request('POST', '/carrier/scripts', { number: '01055550003', outcome: 'delivered', types: ['call'] });
    const callId = (await h.sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '01055550003', to: NUMBER, hangupAfterSeconds: 15 })).callId;
    await advance(1);
    const invite = await phone.nextRaw();
    expect(invite).toMatch(new RegExp(`^INVITE sip:desk_01@127\\.0\\.0\\.1:${phone.localPort} SIP/2\\.0`));
    const via = /Via: SIP\/2\.0\/UDP [^\r\n]+/.exec(invite)![0];
    const lines = (status: string, extra: string[], body = '') =>
      [`SIP/2.0 ${status}`, via, /From: [^\r\n]+/.exec(invite)![0], `${/To: [^\r\n]+/.exec(invite)![0]};tag=phone`, /Call-ID: [^\r\n]+/.exec(invite)![0], 'CSeq: 1 INVITE', ...extra, `Content-Length: ${body.length}`, '', body].join('\r\n');
    phone.sendRaw(lines('200 OK', [`Contact: <sip:desk_01@127.0.0.1:${phone.localPort}>`, 'Content-Type: application/sdp'], sdp(42000)));
    expect(await phone.nextRaw()).toMatch(/^ACK /);
    expect(await callOf(callId)).toMatchObject({ status: 'in-progress' });
    await advance(15);
    const bye = await phone.nextRaw();
    expect(bye).toMatch(/^BYE sip:desk_01@127\.0\.0\.1:\d+ SIP\/2\.0/);
    expect(await callOf(callId)).toMatchObject({ status: 'completed', duration: 15, hangupSource: 'caller' });
    phone.close();
  });
});
