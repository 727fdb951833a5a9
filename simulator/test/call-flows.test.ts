// Call flows over HTTP: CRUD, filled defaults, issues[], size, voice ownership, null graphs and
// their repair, canvas kept by PATCH and dropped by PUT, numbers routed to a flow.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

const graph = {
  version: 1,
  start: 'ask',
  nodes: {
    ask: { type: 'menu', prompt: '{{name}}님, 동의하시면 1번', branches: { '1': 'yes' }, invalidNext: null, timeoutNext: 'bye', saveAs: 'consent' },
    yes: { type: 'say', text: '감사합니다 {{consent}}', next: 'bye' },
    bye: { type: 'hangup' },
  },
};

let h: ReturnType<typeof harness>;
beforeEach(() => {
  h = harness();
});

const create = (body: unknown = { name: 'Consent', graph }) => h.call('POST', h.acme('/call-flows'), body);
const state = async () => (await h.call('GET', '/_sim/state')).json.models.callFlows;

describe('create, read, list', () => {
  it('answers 201 with the filled graph, variables and no numbers', async () => {
    const r = await create();
    expect(r.status).toBe(201);
    expect(r.json.callFlowId).toMatch(/^CF[0-9a-f]{12}$/);
    expect(r.json).toMatchObject({ name: 'Consent', phoneNumbers: [], variables: ['name'] });
    expect(r.json.graph.voice).toEqual({ provider: 'google', language: 'ko' });
    expect(r.json.graph.nodes.ask).toMatchObject({ maxDigits: 1, timeoutSec: 5 });
    expect(r.json.dateCreated).toBe(r.json.dateUpdated);
    const got = await h.call('GET', h.acme(`/call-flows/${r.json.callFlowId}`));
    expect(got.json).toEqual(r.json);
  });

  it('lists newest first without graphs or meta', async () => {
    const a = await create({ name: 'A', graph });
    await h.call('POST', '/_sim/clock/advance', { seconds: 1 });
    const b = await create({ name: 'B', graph });
    const list = await h.call('GET', h.acme('/call-flows'));
    expect(list.status).toBe(200);
    expect(Object.keys(list.json)).toEqual(['data']);
    expect(list.json.data.map((f: any) => f.callFlowId)).toEqual([b.json.callFlowId, a.json.callFlowId]);
    expect(list.json.data[0].graph).toBeUndefined();
  });

  it('hides another account\'s flow (404)', async () => {
    const mine = await create();
    const r = await h.call('GET', h.bistro(`/call-flows/${mine.json.callFlowId}`), undefined, { key: BISTRO.key });
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('call_flow_not_found');
  });
});

describe('refusals change nothing', () => {
  it('names each graph problem by path', async () => {
    const bad = { ...graph, nodes: { ...graph.nodes, ask: { ...graph.nodes.ask, timeoutSecs: 9 }, yes: { type: 'say', text: 'x', next: 'ghost' } } };
    const r = await create({ name: 'x', graph: bad });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('call_flow_invalid_graph');
    expect(r.json.issues.map((i: any) => i.path)).toEqual(['nodes.ask.timeoutSecs']);
    const dangling = await create({ name: 'x', graph: { ...graph, nodes: { ...graph.nodes, yes: { type: 'say', text: 'x', next: 'ghost' } } } });
    expect(dangling.json.issues).toEqual([{ path: 'nodes.yes', message: expect.stringContaining('ghost') }]);
    expect((await state()).flows).toEqual([]);
  });

  it('refuses a bad name or a missing graph with code validation', async () => {
    for (const body of [{ graph }, { name: '', graph }, { name: 'x'.repeat(81), graph }, { name: 'x' }, { name: 'x', graph, extra: 1 }, [], 'text']) {
      const r = await create(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code).toBe('validation');
    }
    expect((await state()).flows).toEqual([]);
  });

  it('refuses a graph over 256 KB', async () => {
    const big = { ...graph, nodes: { ...graph.nodes } as Record<string, unknown> };
    for (let i = 0; i < 140; i++) (big.nodes as any)[`n${i}`] = { type: 'say', text: 'x'.repeat(1990), next: null };
    const r = await create({ name: 'big', graph: big });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('call_flow_graph_too_large');
  });

  it('refuses model outside elevenlabs, and a voice another account registered', async () => {
    const m = await create({ name: 'x', graph: { ...graph, voice: { provider: 'cartesia', model: 'sonic' } } });
    expect(m.status).toBe(400);
    expect(m.json.issues).toEqual([{ path: 'voice.model', message: expect.any(String) }]);
    const voiceId = '794f9389-aac1-45b6-b726-9d9369183238';
    expect((await h.call('POST', `/_sim/accounts/${BISTRO.accountId}/voices`, { provider: 'tts_paid_1', voiceId })).status).toBe(201);
    const r = await create({ name: 'x', graph: { ...graph, voice: { provider: 'cartesia', voiceId } } });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('call_flow_voice_forbidden');
    const own = await h.call('POST', h.bistro('/call-flows'), { name: 'x', graph: { ...graph, voice: { provider: 'cartesia', voiceId } } }, { key: BISTRO.key });
    expect(own.status).toBe(201);
    expect(own.json.graph.voice).toEqual({ provider: 'cartesia', voiceId, language: 'ko' });
  });
});

describe('PUT and PATCH', () => {
  it('PATCH needs name or graph; name alone keeps the graph and the canvas', async () => {
    const c = await create();
    const id = c.json.callFlowId;
    await h.call('PUT', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`, { canvas: { ask: { x: 10, y: 20 } } });
    const empty = await h.call('PATCH', h.acme(`/call-flows/${id}`), {});
    expect(empty.status).toBe(400);
    expect(empty.json.code).toBe('validation');
    await h.call('POST', '/_sim/clock/advance', { seconds: 5 });
    const r = await h.call('PATCH', h.acme(`/call-flows/${id}`), { name: 'Renamed' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'Renamed', graph: c.json.graph, dateCreated: c.json.dateCreated });
    expect(r.json.dateUpdated).not.toBe(c.json.dateUpdated);
    const g = await h.call('PATCH', h.acme(`/call-flows/${id}`), { graph: { version: 1, start: 'b', nodes: { b: { type: 'hangup', message: '{{x}}' } } } });
    expect(g.json).toMatchObject({ name: 'Renamed', variables: ['x'] });
    const stored = await h.call('GET', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`);
    expect(stored.json.canvas).toEqual({ ask: { x: 10, y: 20 } });
  });

  it('PUT needs both fields, replaces the graph and drops the canvas', async () => {
    const c = await create();
    const id = c.json.callFlowId;
    await h.call('PUT', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`, { canvas: { ask: { x: 1, y: 2 } } });
    expect((await h.call('PUT', h.acme(`/call-flows/${id}`), { name: 'only' })).status).toBe(400);
    const r = await h.call('PUT', h.acme(`/call-flows/${id}`), { name: 'New', graph: { version: 1, start: 'b', nodes: { b: { type: 'hangup' } } } });
    expect(r.status).toBe(200);
    expect(r.json.graph.nodes).toEqual({ b: { type: 'hangup' } });
    const stored = await h.call('GET', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`);
    expect(stored.json.canvas).toBeNull();
  });

  it('answers graph null for an unreadable stored graph; PATCH of the name keeps it null, PUT repairs it', async () => {
    const c = await create();
    const id = c.json.callFlowId;
    const plant = await h.call('PUT', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`, { graph: { version: 0, blocks: [] } });
    expect(plant.json.readable).toBe(false);
    const got = await h.call('GET', h.acme(`/call-flows/${id}`));
    expect(got.json).toMatchObject({ graph: null, variables: [], name: 'Consent' });
    const renamed = await h.call('PATCH', h.acme(`/call-flows/${id}`), { name: 'Still broken' });
    expect(renamed.json.graph).toBeNull();
    const fixed = await h.call('PUT', h.acme(`/call-flows/${id}`), { name: 'Fixed', graph });
    expect(fixed.json.graph).toEqual(c.json.graph);
  });
});

describe('numbers and delete', () => {
  it('lists routed numbers, refuses delete while routed, deletes with 204 after', async () => {
    const c = await create();
    const id = c.json.callFlowId;
    const route = await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: id });
    expect(route.status).toBe(200);
    expect((await h.call('GET', h.acme(`/call-flows/${id}`))).json.phoneNumbers).toEqual(['07012340001']);
    const refused = await h.call('DELETE', h.acme(`/call-flows/${id}`));
    expect(refused.status).toBe(409);
    expect(refused.json.code).toBe('call_flow_in_use');
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'webhook', webhookUrl: 'https://app.example/in' });
    const del = await h.call('DELETE', h.acme(`/call-flows/${id}`));
    expect(del.status).toBe(204);
    expect((await h.call('GET', h.acme(`/call-flows/${id}`))).status).toBe(404);
  });

  it('numbers refuse a flow id the account does not own', async () => {
    const theirs = await h.call('POST', h.bistro('/call-flows'), { name: 'x', graph }, { key: BISTRO.key });
    const r = await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'callflow', callFlowId: theirs.json.callFlowId });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('INVALID_CALL_FLOW');
  });

  it('the read port gives the filled graph and variables', async () => {
    const c = await create();
    const flow = runtimeOf(h.sim).callFlows.find(ACME.accountId, c.json.callFlowId);
    expect(flow).toMatchObject({ id: c.json.callFlowId, name: 'Consent', variables: ['name'], graph: c.json.graph });
    expect(runtimeOf(h.sim).callFlows.find(BISTRO.accountId, c.json.callFlowId)).toBeUndefined();
  });

  it('flows, planted graphs, canvas and voice owners survive a snapshot round trip', async () => {
    const c = await create();
    const id = c.json.callFlowId;
    await h.call('PUT', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`, { canvas: { a: 1 } });
    await h.call('POST', `/_sim/accounts/${BISTRO.accountId}/voices`, { provider: 'elevenlabs', voiceId: 'ZyXwVuTsRq9876543210' });
    const snap = (await h.call('GET', '/_sim/state')).json;
    await h.call('POST', '/_sim/reset', {});
    expect((await h.call('GET', h.acme(`/call-flows/${id}`))).status).toBe(404);
    expect((await h.call('PUT', '/_sim/state', snap)).status).toBe(200);
    expect((await h.call('GET', h.acme(`/call-flows/${id}`))).json).toEqual(c.json);
    expect((await h.call('GET', `/_sim/accounts/${ACME.accountId}/call-flows/${id}/stored`)).json.canvas).toEqual({ a: 1 });
    const r = await create({ name: 'x', graph: { ...graph, voice: { provider: 'elevenlabs', voiceId: 'ZyXwVuTsRq9876543210' } } });
    expect(r.status).toBe(403);
  });

  it('refuses the 201st flow of an account with call_flow_limit_reached', async () => {
    const tiny = { version: 1, start: 'h', nodes: { h: { type: 'hangup' } } };
    for (let i = 0; i < 200; i++) expect((await create({ name: `f${i}`, graph: tiny })).status).toBe(201);
    const r = await create({ name: 'one too many', graph: tiny });
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('call_flow_limit_reached');
    expect((await h.call('GET', h.acme('/call-flows'))).json.data).toHaveLength(200);
  });
});
