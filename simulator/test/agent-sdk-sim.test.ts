// The Agent SDK family inside the simulator: the control socket on the simulator's own HTTP port
// (fixture account and number), the agent.connected / agent.disconnected webhooks delivered for
// real, the control plane's connections and journal, a plain GET told to upgrade (426), and a
// reset closing the sockets with 1012 so the runtime reconnects.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../index.ts';
import { FaithfulAgent } from './agent-runtime/agent.ts';
import { until } from './agent-sdk-harness.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';

const ACCOUNT = 'AC1a2b3c4d';
const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const NUMBER = '07012340001';

const open: { sim: Simulator; server: ListeningServer; agents: FaithfulAgent[] }[] = [];
afterEach(async () => {
  for (const o of open.splice(0)) {
    for (const a of o.agents) await a.close();
    await o.server.close();
    await o.sim.close();
  }
  await closeAllReceivers();
});

async function served() {
  const sim = createSimulator();
  const server = await sim.listen();
  const entry = { sim, server, agents: [] as FaithfulAgent[] };
  open.push(entry);
  const agent = (o: Partial<ConstructorParameters<typeof FaithfulAgent>[0]> = {}) => {
    const a = new FaithfulAgent({ baseUrl: server.url, accountId: ACCOUNT, apiKey: KEY, number: NUMBER, backoffMs: 20, ...o });
    entry.agents.push(a);
    return a;
  };
  return { sim, server, agent };
}

describe('Agent SDK in the simulator', () => {
  it('an agent connects for the fixture number; agent.connected and agent.disconnected reach the webhook', async () => {
    const { sim, agent } = await served();
    const receiver = await startReceiver();
    const hook = await sim.handle({ method: 'POST', url: `/v1/accounts/${ACCOUNT}/webhooks`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['agent.connected', 'agent.disconnected'] }) });
    expect(hook.status).toBe(201);
    const a = agent();
    await a.connect();
    await until(() => receiver.requests.length >= 1);
    const connections = await sim.control.request<{ data: any[] }>('GET', '/agent-sdk/connections');
    expect(connections.data).toEqual([{ id: 1, accountId: ACCOUNT, number: NUMBER, role: 'owner', openedAt: expect.any(String), hello: expect.objectContaining({ name: 'clawops-python', capabilities: ['retire'] }), calls: [] }]);
    await a.close();
    await until(() => receiver.requests.length >= 2);
    expect(receiver.requests.map((r) => [r.fields.Event, r.fields.AccountId, r.fields.Number])).toEqual([
      ['agent.connected', ACCOUNT, NUMBER],
      ['agent.disconnected', ACCOUNT, NUMBER],
    ]);
  });

  it('a plain GET of the control endpoint is told to upgrade (426); the health lists agent-sdk', async () => {
    const { server, sim } = await served();
    const res = await fetch(`${server.url}/v1/accounts/${ACCOUNT}/agent/listen?number=${NUMBER}`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBe(426);
    expect(await res.json()).toMatchObject({ code: 'UPGRADE_REQUIRED' });
    expect((await sim.control.health()).capabilities).toContain('agent-sdk');
  });

  it('a reset closes the control sockets with 1012 and the runtime reconnects', async () => {
    const { sim, agent } = await served();
    const a = agent();
    await a.connect();
    await sim.control.reset();
    await until(() => a.control.log.opens === 2);
    expect(a.control.log.closes[0]!.code).toBe(1012);
  });

  it('the journal lists what an agent sent that was ignored', async () => {
    const { sim, agent } = await served();
    const a = agent();
    await a.connect();
    a.control.send({ event: 'call.wave', callId: 'CA1' });
    let entries: any[] = [];
    for (let i = 0; i < 200 && entries.length === 0; i++) {
      entries = (await sim.control.request<{ data: any[] }>('GET', `/agent-sdk/journal?accountId=${ACCOUNT}`)).data;
      if (entries.length === 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(entries[0]).toMatchObject({ accountId: ACCOUNT, number: NUMBER, message: 'control message ignored: unknown event "call.wave"' });
  });
});

describe('Agent SDK and numbers', () => {
  it('releasing the number closes its control socket with 4403 and the runtime stops reconnecting', async () => {
    const { sim, agent } = await served();
    const a = agent();
    await a.connect();
    const res = await sim.handle({ method: 'DELETE', url: `/v1/accounts/${ACCOUNT}/numbers/${NUMBER}`, headers: { authorization: `Bearer ${KEY}` } });
    expect(res.status).toBeLessThan(300);
    await until(() => a.control.ownershipLost);
    expect(a.control.log.closes[0]!.code).toBe(4403);
  });
});
