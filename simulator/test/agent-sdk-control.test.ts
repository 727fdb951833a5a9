// The Agent SDK control socket end to end (stand-in calls family, faithful runtime): Bearer auth on
// the upgrade, a number the account does not own (4403, no reconnect), one slot per number with
// last wins (agent.retired while calls run, else 4409), role=retiring, the agent.connected /
// agent.disconnected webhooks, server pings, and a closed control socket not ending calls.
import { afterEach, describe, expect, it } from 'vitest';
import { FaithfulAgent } from './agent-runtime/agent.ts';
import { ControlConnection } from './agent-runtime/control.ts';
import { ACCOUNT, KEY, NUMBERS, OTHER_KEY, startHost, type Host, until } from './agent-sdk-harness.ts';
import { ControlClient } from '../../conformance/agent/client.ts';

const hosts: Host[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
  for (const h of hosts.splice(0)) await h.close();
});

async function host(opts: Parameters<typeof startHost>[0] = {}) {
  const h = await startHost(opts);
  hosts.push(h);
  return h;
}

function agent(h: Host, o: Partial<ConstructorParameters<typeof FaithfulAgent>[0]> = {}) {
  const a = new FaithfulAgent({ baseUrl: h.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20, ...o });
  closers.push(() => a.close());
  return a;
}


describe('Agent SDK control socket: admission', () => {
  it('refuses a missing or unknown key with 401 and another account key with 403, as HTTP answers', async () => {
    const h = await host();
    const t = { socketBase: h.baseUrl.replace('http', 'ws'), accountId: ACCOUNT, apiKey: KEY };
    for (const [apiKey, status, code] of [
      ['', 401, 'UNAUTHORIZED'],
      ['sk_nobody', 401, 'UNAUTHORIZED'],
      [OTHER_KEY, 403, 'FORBIDDEN'],
    ] as const) {
      const { open } = await ControlClient.connect(t, NUMBERS[0]!, { apiKey });
      expect(open).toMatchObject({ open: false, status });
      expect(JSON.parse((open as { body: string }).body)).toMatchObject({ code });
    }
    const noNumber = await ControlClient.connect(t, '', {});
    expect(noNumber.open).toMatchObject({ open: false, status: 400 });
  });

  it('closes the socket of a number the account does not own with 4403, and the runtime does not reconnect', async () => {
    const h = await host();
    const a = agent(h, { number: '07055550000' });
    await a.connect();
    await until(() => a.control.ownershipLost);
    await new Promise((r) => setTimeout(r, 60));
    expect(a.control.log.closes).toHaveLength(1);
    expect(a.control.log.closes[0]!.code).toBe(4403);
    expect(h.webhooks).toEqual([]);
  });

  it('accepts the number in any written form and records the hello', async () => {
    const h = await host();
    const a = agent(h, { number: '070-1234-0001' });
    await a.connect();
    await until(() => h.model.slots.owner(ACCOUNT, '07012340001')?.hello !== undefined);
    expect(h.model.slots.owner(ACCOUNT, '07012340001')!.hello).toMatchObject({ name: 'clawops-python', version: '0.57.1', capabilities: ['retire'] });
  });
});

describe('Agent SDK control socket: one slot per number', () => {
  it('last wins: a retire-capable old connection gets agent.retired and keeps its call until it ends; calls go to the new one', async () => {
    const h = await host();
    const old = agent(h);
    await old.connect();
    const first = h.inbound(['one']);
    const oldCall = await old.nextCall();
    const fresh = agent(h);
    await fresh.connect();
    await until(() => old.control.takenOver !== undefined);
    expect(old.control.log.received.find((m) => m.event === 'agent.retired')).toEqual({ event: 'agent.retired', number: NUMBERS[0], reason: 'replaced' });
    expect(old.control.open).toBe(true); // kept open while its call runs
    const second = h.inbound(['two']);
    const newCall = await fresh.nextCall();
    expect(newCall.callId).toBe(second);
    // The old call goes on and its call.ended reaches the old connection, which then closes 4409.
    await oldCall.media!.hangup();
    expect((await oldCall.ended).status).toBe('completed');
    expect(oldCall.callId).toBe(first);
    await until(() => old.control.log.closes.length === 1);
    expect(old.control.log.closes[0]!.code).toBe(4409);
    expect(h.webhooks.map((w) => w.event)).toEqual(['agent.connected']); // a handover is neither connect nor disconnect
  });

  it('an old connection without the retire capability is closed 4409 at once and stops reconnecting', async () => {
    const h = await host();
    const old = agent(h, { capabilities: [] });
    await old.connect();
    await until(() => h.model.slots.owner(ACCOUNT, NUMBERS[0]!)?.hello !== undefined);
    const fresh = agent(h);
    await fresh.connect();
    await until(() => old.control.log.closes.length === 1);
    expect(old.control.log.closes[0]).toEqual({ code: 4409, reason: 'replaced' });
    expect(old.control.takenOver).toEqual({ reason: 'replaced' });
  });

  it('role=retiring never takes the slot', async () => {
    const h = await host();
    const owner = agent(h);
    await owner.connect();
    const stepping = new ControlConnection({ baseUrl: h.baseUrl, accountId: ACCOUNT, apiKey: KEY, number: NUMBERS[0]!, backoffMs: 20 });
    stepping.stepDown();
    closers.push(() => stepping.close());
    await stepping.connect();
    const callId = h.inbound(['x']);
    const call = await owner.nextCall();
    expect(call.callId).toBe(callId);
    expect(stepping.log.received.map((m) => m.event)).toEqual([]);
    expect(owner.control.log.closes).toEqual([]);
  });

  it('agent.connected when a number gains its agent and agent.disconnected when it loses it', async () => {
    const h = await host();
    const a = agent(h);
    await a.connect();
    await a.close();
    await until(() => h.webhooks.length === 2);
    expect(h.webhooks).toEqual([
      { event: 'agent.connected', accountId: ACCOUNT, number: NUMBERS[0], at: expect.any(String) },
      { event: 'agent.disconnected', accountId: ACCOUNT, number: NUMBERS[0], at: expect.any(String) },
    ]);
  });

  it('closing the control socket does not end a call in progress', async () => {
    const h = await host();
    const a = agent(h);
    await a.connect();
    const callId = h.inbound(['still here']);
    const call = await a.nextCall();
    await a.control.close();
    await call.media!.framesReceived(20);
    expect(h.calls.get(callId)!.endedAt).toBeUndefined();
    call.media!.drop();
  });

  it('pings the control socket; the Node runtime, which drops a link without server pings, stays connected', async () => {
    const h = await host({ pingIntervalMs: 50 });
    const a = agent(h, { flavour: 'node', pingTimeoutMs: 200 });
    await a.connect();
    await new Promise((r) => setTimeout(r, 500));
    expect(a.control.log.pings).toBeGreaterThanOrEqual(5);
    expect(a.control.log.closes).toEqual([]);
  });

  it('answers the client\'s pings (the Python runtime pings every 30 s)', async () => {
    const h = await host();
    const a = agent(h);
    await a.connect();
    const ws = (a.control as unknown as { ws: import('ws').WebSocket }).ws;
    const pong = new Promise<void>((r) => ws.once('pong', () => r()));
    ws.ping();
    await pong;
  });
});
