// Durable state, replay (docs/decisions.md "Durable state"): a session that touches every kind of
// wall-clock I/O (webhook attempts and their retries, a webhook test, a flow's http block, a
// VoiceML fetch and media stream, an MCP connection test) is restored exactly after a crash: the
// same state, nothing sent again, and ids and the seeded random stream going on as they would
// have. I/O in flight at the crash is done again (webhooks: at-least-once) or, for a socket that
// died with the process (a media stream), lands as failed.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, call } from './helpers.ts';
import { closeAllReceivers, startReceiver, type Behaviour } from './receivers.ts';
import { startWsServer, type WsServer } from './ws-server.ts';
import { closeDurableTests, compacted, crashAndReopen, journalLines, onDir, stateDir } from './durable-helpers.ts';
import { createSimulator } from '../index.ts';

const servers: WsServer[] = [];
afterEach(async () => {
  await closeDurableTests();
  await closeAllReceivers();
  for (const s of servers.splice(0)) await s.close();
});

const a = (p: string) => `/v1/accounts/${ACME.accountId}${p}`;
const xml = (body: string): Behaviour => ({ status: 200, body: `<Response>${body}</Response>`, headers: { 'content-type': 'application/xml' } });
const trigger = (h: Awaited<ReturnType<typeof onDir>>, callId: string) =>
  h.sim.control.request('POST', '/webhooks/events', { accountId: ACME.accountId, type: 'callflow.ended', payload: { CallId: callId, Status: 'completed' } });

/** Places a VoiceML call to `to` whose document (served by a receiver) streams to `wsUrl`. */
async function streamCall(h: Awaited<ReturnType<typeof onDir>>, to: string, wsUrl: string) {
  const app = await startReceiver(() => xml(`<Connect><Stream url="${wsUrl}"/></Connect><Say>after</Say>`), '/');
  await h.sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', number: to, speakSeconds: 1 });
  const r = await h.call('POST', a('/calls'), { From: '070-1234-0001', To: to, Url: `${app.origin}/start` });
  expect(r.status, r.text).toBe(201);
  return r.json.callId as string;
}

describe('durable state: replay', () => {
  it('restores a session with every kind of I/O exactly, sends nothing again, and goes on as it would have', async () => {
    const dir = stateDir();
    const h = await onDir(dir, { webhooks: { timeoutMs: 3000 } });
    const ok = await startReceiver();
    const flaky = await startReceiver((n) => (n === 1 ? { status: 503 } : { status: 200 }));
    const api = await startReceiver(() => ({ status: 200, body: '{"data":{"name":"Lee"}}', headers: { 'content-type': 'application/json' } }));
    const media = await startWsServer();
    servers.push(media);

    // One receiver is reached through a name the fake DNS answers: the lookup the connection makes is counted in the state.
    await h.sim.control.request('PUT', '/dns/records/hooks.example.test', { records: [{ type: 'A', value: '127.0.0.1' }] });
    const hook = await h.call('POST', a('/webhooks'), { url: ok.url.replace('127.0.0.1', 'hooks.example.test'), events: ['callflow.ended'] });
    await h.call('POST', a('/webhooks'), { url: flaky.url, events: ['callflow.ended'] });
    await trigger(h, 'CA1');
    await h.sim.webhooks.settle();
    await h.sim.clock.advance({ seconds: 15 }); // the flaky receiver's retry falls due and is sent while the advance waits
    expect((await h.call('POST', a(`/webhooks/${hook.json.id}/test`))).status).toBe(200);
    const flow = await h.call('POST', a('/call-flows'), {
      name: 'lookup',
      graph: { version: 1, start: 'h', nodes: { h: { type: 'http', method: 'GET', url: api.url, saveAs: [{ var: 'name', path: 'data.name' }], next: 's', errorNext: null }, s: { type: 'say', text: 'hi {{name}}', next: null } } },
    });
    await h.sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', number: '010-7100-0001' });
    await h.call('POST', a('/calls'), { From: '070-1234-0001', To: '010-7100-0001', CallFlowId: flow.json.callFlowId });
    await streamCall(h, '010-7100-0002', media.url);
    const fake = await h.sim.control.request<{ url: string }>('POST', '/mcp/servers', {});
    const conn = await h.call('POST', a('/mcp-connections'), { name: 'CRM', url: fake.url });
    expect((await h.call('POST', a(`/mcp-connections/${conn.json.connectionId}/test`))).json).toMatchObject({ lastErrorCode: null, toolCount: 1 });
    await h.sim.clock.advance({ seconds: 60 });
    await h.sim.webhooks.settle();

    const kinds = new Set(journalLines(dir).filter((e) => e.t === 'o').map((e) => e.k));
    expect([...kinds].sort()).toEqual(['flow.http', 'mcp.test', 'media.stream', 'webhook.attempt']);
    expect(journalLines(dir).some((e) => e.t === 'q' && e.u === '/_sim/mcp/servers')).toBe(false); // live peers only
    const before = h.sim.snapshot();
    expect(JSON.stringify(before)).toContain('hi Lee');
    expect(JSON.stringify(before)).toMatch(/"addressLookups":\{"hooks\.example\.test":[1-9]/);
    expect(journalLines(dir).some((e) => e.t === 'e' && e.k === 'dns.lookup' && e.a === 'hooks.example.test')).toBe(true);
    const sent = [ok, flaky, api].map((r) => r.requests.length);

    const again = await crashAndReopen(h.sim, dir);
    expect(again.sim.snapshot()).toEqual(before);
    await again.sim.webhooks.settle();
    expect([ok, flaky, api].map((r) => r.requests.length)).toEqual(sent);
    expect(media.connections).toHaveLength(1);
    expect((await again.sim.control.request<{ data: unknown[] }>('GET', '/mcp/servers')).data).toEqual([]); // sockets do not survive

    // Ids and the random stream go on as in a simulator holding the same state.
    const twin = createSimulator();
    twin.restore(before);
    const next = (sim: typeof twin) => call(sim, 'POST', a('/blocked-callers'), { number: '010-5555-0001' });
    expect((await next(again.sim)).json).toEqual((await next(twin)).json);
    await twin.close();
  });

  it('compacts into a new snapshot now and then, and a restart after it is exact', async () => {
    const dir = stateDir();
    const h = await onDir(dir, { compactEvery: 5 });
    for (let i = 0; i < 12; i++) {
      await h.call('POST', a('/blocked-callers'), { number: `010-4400-00${String(i).padStart(2, '0')}` });
      await new Promise((r) => setTimeout(r, 20)); // requests come in turns of their own, as over HTTP
    }
    const names = await compacted(dir, 3); // the snapshot is written in the background
    expect(names.filter((n) => n.startsWith('snapshot-')), names.join(' ')).toEqual(['snapshot-000003.json']);
    expect(journalLines(dir).length).toBeLessThan(5);
    const before = h.sim.snapshot();
    const again = await crashAndReopen(h.sim, dir);
    expect(again.sim.snapshot()).toEqual(before);
  });

  it('a webhook attempt in flight at the crash is sent again after the restart (at-least-once)', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    const slow = await startReceiver((n) => (n === 1 ? { hang: true } : { status: 200 }));
    await h.call('POST', a('/webhooks'), { url: slow.url, events: ['callflow.ended'] });
    await trigger(h, 'CA9');
    for (let i = 0; i < 100 && slow.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(slow.requests).toHaveLength(1);

    const again = await crashAndReopen(h.sim, dir);
    await again.sim.webhooks.settle();
    expect(slow.requests).toHaveLength(2);
    expect(slow.requests[1]!.body).toBe(slow.requests[0]!.body);
    const [delivery] = await again.sim.webhooks.deliveries({ resourceId: 'CA9' });
    expect(delivery).toMatchObject({ status: 'delivered', attempts: 1 });
    // The outcome of the attempt sent again is journaled like any other: a second restart keeps it.
    const state = again.sim.snapshot();
    const third = await crashAndReopen(again.sim, dir);
    expect(third.sim.snapshot()).toEqual(state);
    expect(slow.requests).toHaveLength(2);
  });

  it('a media stream in flight at the crash died with the process: it lands as failed and the call goes on', async () => {
    const dir = stateDir();
    const h = await onDir(dir);
    const media = await startWsServer({ handshake: 'hang' });
    servers.push(media);
    const id = await streamCall(h, '010-7200-0001', media.url);
    void h.sim.clock.advance({ seconds: 30 }); // waits at the stream for its outcome
    for (let i = 0; i < 200 && media.upgrades === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(media.upgrades).toBe(1);

    const again = await crashAndReopen(h.sim, dir);
    await again.sim.clock.advance({ seconds: 60 });
    expect(media.upgrades).toBe(1); // not opened again
    const walk = (await again.sim.control.request<{ walk: { steps: { type: string; result: string }[] } }>('GET', `/calls/${id}`)).walk;
    expect(JSON.stringify(walk)).toMatch(/the simulator restarted/);
    expect((await again.call('GET', a(`/calls/${id}`))).json).toMatchObject({ status: 'completed', hangupCause: 'app_error' });
  });
});
