// Models built on first use (docs/decisions.md "Models built on first use"): the managed agents,
// the Agent SDK and the SIP server (and eight small families, further down) are not built while
// nothing uses them (requests of other families, a reset, closing), are built by a use that
// reaches them through what they registered (a reference to an agent), by a fixture that holds their data, and by a snapshot, which is the
// same as a simulator's that used them and was reset.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';
import { runtimeOf } from '../internal.ts';
import { Runtime } from '../runtime.ts';
import { agentCallHandler } from '../resources/agents/handler.ts';
import { ACME, call } from './helpers.ts';

const LAZY = ['agents', 'agentSdk', 'sipServer'] as const;
const built = (sim: ReturnType<typeof createSimulator> | Runtime) => LAZY.filter((k) => (sim instanceof Runtime ? sim : runtimeOf(sim)).builtModel(k) !== undefined);

describe('models built on first use', () => {
  it('are not built by createSimulator, requests of other families, a health check, a reset or closing', async () => {
    const sim = createSimulator();
    expect(built(sim)).toEqual([]);
    expect((await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/numbers`)).status).toBe(200);
    expect((await call(sim, 'GET', '/_sim/health')).json).toMatchObject({ status: 'ok', sip: null }); // the first request of whoever starts one
    await sim.control.reset();
    await sim.close();
    expect(built(sim)).toEqual([]);
  });

  it('a reference to an agent builds the agents model, which answers it as before', async () => {
    const sim = createSimulator();
    const numbers = (await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/numbers`)).json.data as { number: string; numberType: string }[];
    const n = numbers.find((x) => x.numberType === 'did')!.number;
    const refused = await call(sim, 'PUT', `/v1/accounts/${ACME.accountId}/numbers/${n}`, { routingType: 'agent', agentId: 'AG0123456789ab' });
    expect(refused.status, refused.text).toBe(400);
    expect(built(sim)).toEqual(['agents']);
    const made = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/agents`, { name: 'desk' });
    const routed = await call(sim, 'PUT', `/v1/accounts/${ACME.accountId}/numbers/${n}`, { routingType: 'agent', agentId: made.json.agentId });
    expect(routed.status, routed.text).toBe(200);
    await sim.close();
  });

  it('a fixture holding agents builds the agents model at loading, and only it', () => {
    const fixture = structuredClone(createSimulator().fixture) as any;
    fixture.accounts[0].agents = [{ agentId: 'AG0123456789ab', name: 'Front desk' }];
    const sim = createSimulator({ fixture });
    expect(built(sim)).toEqual(['agents']);
  });

  it('what they registered before being built has the methods of what their models give (call handlers, the dialer)', () => {
    const rt = runtimeOf(createSimulator());
    const handlers = rt.calls.handled.handlers;
    const registered = (kind: 'agent' | 'sdk' | 'sip') => Object.keys(handlers.get(kind)!).sort();
    const dialer = Object.keys(rt.calls.wireDialers.get()!).sort();
    expect(built(rt)).toEqual([]);
    expect(registered('agent')).toEqual(Object.keys(agentCallHandler(rt.agents, () => undefined as never)).sort());
    expect(registered('sdk')).toEqual(Object.keys(rt.agentSdk.handler).sort());
    expect(registered('sip')).toEqual(Object.keys(rt.sipServer.handler).sort());
    expect(dialer).toEqual(['dial', 'online']);
    expect(typeof rt.sipServer.dials.dial).toBe('function');
  });

  it("a snapshot builds them and equals that of a simulator that used them and was reset", async () => {
    const used = createSimulator();
    expect((await call(used, 'POST', `/v1/accounts/${ACME.accountId}/agents`, { name: 'desk' })).status).toBe(201);
    runtimeOf(used).sipServer.forgetTransactions();
    void runtimeOf(used).agentSdk.liveCalls();
    expect(built(used)).toEqual([...LAZY]);
    await used.control.reset();
    const fresh = createSimulator();
    const snapshot = fresh.snapshot();
    expect(built(fresh)).toEqual([...LAZY]);
    expect(JSON.stringify(snapshot)).toBe(JSON.stringify(used.snapshot()));
    await fresh.restore(used.snapshot());
    expect(JSON.stringify(fresh.snapshot())).toBe(JSON.stringify(snapshot));
  });
});

// Families whose model is built on first use and that nothing at start needs: what they hand
// others before that (a directory, a reference check, a carrier outcome) answers as an empty
// model would.
describe('small families built on first use', () => {
  const SMALL = ['emailDomains', 'kakaoChannels', 'verifications', 'webhooks', 'sipEndpoints', 'kyc', 'assignmentLinks', 'mcpApps'] as const; // list order
  const builtSmall = (sim: ReturnType<typeof createSimulator>) => SMALL.filter((k) => runtimeOf(sim).builtModel(k) !== undefined);

  it('are not built by createSimulator, a reference to an unknown endpoint, a reset or closing', async () => {
    const sim = createSimulator();
    expect(builtSmall(sim)).toEqual([]);
    const numbers = (await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/numbers`)).json.data as { number: string; numberType: string }[];
    const n = numbers.find((x) => x.numberType === 'did')!.number;
    const refused = await call(sim, 'PUT', `/v1/accounts/${ACME.accountId}/numbers/${n}`, { routingType: 'sip', sipEndpointId: 'SE0123456789ab' });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.json.code).toBe('INVALID_ENDPOINT');
    await sim.control.reset();
    await sim.close();
    expect(builtSmall(sim)).toEqual([]);
  });

  it('a webhook created builds the webhooks model, whose subscribers the engine then finds', async () => {
    const sim = createSimulator();
    const made = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['message.sent'] });
    expect(made.status, made.text).toBe(201);
    expect(builtSmall(sim)).toEqual(['webhooks']);
    const event = { type: 'message.sent', accountId: ACME.accountId, resourceId: 'MS0123456789ab', at: 0, payload: {} };
    expect(runtimeOf(sim).webhookEngine.targets.resolve(event)).toContainEqual({ kind: 'webhook', webhookId: runtimeOf(sim).webhooks.listFor(ACME.accountId)[0]!.id });
    await sim.close();
  });

  it('a snapshot builds them and equals that of a simulator that used them and was reset', async () => {
    const used = createSimulator();
    for (const k of SMALL) void runtimeOf(used)[k];
    expect(builtSmall(used)).toEqual([...SMALL]);
    await used.control.reset();
    const fresh = createSimulator();
    expect(JSON.stringify(fresh.snapshot())).toBe(JSON.stringify(used.snapshot()));
    expect(builtSmall(fresh)).toEqual([...SMALL]);
  });
});
