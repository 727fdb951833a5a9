// Snapshots and Agent SDK calls (docs/decisions.md "Agent SDK", "Reset and snapshots"): while an
// SDK call is in progress its sockets are live, not state, so the control plane refuses a
// snapshot naming the call; work that snapshots internally (creating an account, and rolling it
// back when it fails) goes on and leaves the call and its sockets alone; once the call has ended it is an ordinary call record, in the snapshot
// and back after a restore.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../index.ts';
import { FaithfulAgent } from './agent-runtime/agent.ts';

const ACCOUNT = 'AC1a2b3c4d';
const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const NUMBER = '07012340001';
const running: { sim: Simulator; server: ListeningServer; agent: FaithfulAgent }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.agent.close();
    await r.server.close();
    await r.sim.close();
  }
});

const state = async (sim: Simulator, method = 'GET', body?: unknown) => {
  const res = await sim.handle({ method, url: '/_sim/state', headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined, text: res.body };
};

describe('snapshots while an Agent SDK call is in progress', () => {
  it('are refused naming the call; after the call they hold its record like any other', async () => {
    const sim = createSimulator();
    const server = await sim.listen();
    const agent = new FaithfulAgent({ baseUrl: server.url, accountId: ACCOUNT, apiKey: KEY, number: NUMBER, backoffMs: 20 });
    running.push({ sim, server, agent });
    await agent.connect();
    expect((await state(sim)).status).toBe(200); // a connected agent with no call is no obstacle

    const { callId } = await sim.control.request<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-2222-3333', to: NUMBER, lines: ['Hello?'] });
    const call = await agent.nextCall();
    await call.media!.started;
    const refused = await state(sim);
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'STATE_HAS_LIVE_CALLS', live: [`Agent SDK call ${callId} (media)`] });

    // Creating an account while the call is live: not refused, and the call goes on.
    const made = await sim.control.request<{ accountId: string }>('POST', '/accounts', {});
    expect(made.accountId).toMatch(/^AC/);
    expect(call.media!.open).toBe(true);
    // A creation that fails is taken back (all or nothing): what it touched goes, and the live
    // call's sockets, which it did not touch, stay open.
    const failed = await sim.handle({ method: 'POST', url: '/_sim/accounts', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ numbers: ['not a number'] }) });
    expect(failed.status).toBe(400);
    await new Promise((r) => setTimeout(r, 100));
    expect(call.media!.open).toBe(true);
    expect(agent.control.open).toBe(true);
    expect((await sim.control.request<{ data: unknown[] }>('GET', '/agent-sdk/connections')).data).toHaveLength(1);

    expect((await call.media!.hangup()).echoed).toBe(true);
    expect((await call.ended).status).toBe('completed');
    const snap = await state(sim);
    expect(snap.status).toBe(200);
    expect(snap.text).toContain(callId);
    const before = await sim.handle({ method: 'GET', url: `/v1/accounts/${ACCOUNT}/calls/${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    await sim.control.request('POST', '/reset', {});
    expect((await state(sim, 'PUT', snap.json)).status).toBe(200);
    const after = await sim.handle({ method: 'GET', url: `/v1/accounts/${ACCOUNT}/calls/${callId}`, headers: { authorization: `Bearer ${KEY}` } });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body)).toEqual(JSON.parse(before.body));
    expect(JSON.parse(after.body)).toMatchObject({ status: 'completed', direction: 'inbound' });
  });
});
