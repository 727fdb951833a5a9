import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

describe('numbers', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('lists every number of the account without paging', async () => {
    const r = await h.call('GET', h.acme('/numbers'));
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['data']);
    expect(r.json.data.map((n: any) => n.number).sort()).toEqual(['07012340001', '07012340002', '15881234']);
    expect(r.json.data.find((n: any) => n.number === '15881234').numberType).toBe('representative');
  });

  it('issues the next free pool number with webhook routing and no URL', async () => {
    const r = await h.call('POST', h.acme('/numbers'), undefined);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ number: '07040000000', source: 'pool', numberType: 'did', routingType: 'webhook', webhookUrl: null, webhookMethod: 'POST' });
    const second = await h.call('POST', h.acme('/numbers'), { webhookUrl: 'https://app.example/voice', webhookMethod: 'GET', statusCallbackEvents: 'ringing  completed transfer' });
    expect(second.json).toMatchObject({ number: '07040000001', webhookUrl: 'https://app.example/voice', webhookMethod: 'GET', statusCallbackEvents: 'ringing completed transfer' });
    expect((await h.call('GET', h.acme('/numbers'))).json.data[0].number).toBe('07040000001');
  });

  it('enforces the line limit (422), the subscription (403) and refuses bad settings (400)', async () => {
    // Bistro is on the starter plan: 3 lines, owns 1.
    const asBistro = (m: string, body?: unknown) => h.call(m, h.bistro('/numbers'), body, { key: BISTRO.key });
    expect((await asBistro('POST')).status).toBe(201);
    expect((await asBistro('POST')).status).toBe(201);
    const over = await asBistro('POST');
    expect(over.status).toBe(422);
    expect(over.json).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(over.json.error).toContain('3/3');

    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    const noSub = await h.call('POST', h.acme('/numbers'));
    expect(noSub.status).toBe(403);
    expect(noSub.json.code).toBe('no_active_subscription');
  });

  it('refuses bad register bodies without issuing anything', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    for (const body of [
      { webhookUrl: 'not a url' },
      { webhookUrl: 'ftp://x.example/a' },
      { webhookMethod: 'PATCH' },
      { webhookHeaders: { Authorization: 'x' } },
      { webhookHeaders: { 'X-Signature': 'x' } },
      { webhookHeaders: { 'X-Forwarded-For': 'x' } },
      { webhookHeaders: { 'X-Ok': 'caf\u00e9' } },
      { webhookHeaders: Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`X-H${i}`, 'v'])) },
      { statusCallbackEvents: 'ringing hangup' },
      { statusCallback: 'nope' },
      { routingType: 'agent' },
    ]) {
      const r = await h.call('POST', h.acme('/numbers'), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('updates partially; routing needs its target; switching routing clears old targets', async () => {
    const url = h.acme('/numbers/070-1234-0001');
    expect((await h.call('PUT', url, {})).json.code).toBe('NOTHING_TO_UPDATE');
    const missing = await h.call('PUT', url, { routingType: 'webhook' });
    expect(missing.status).toBe(400);
    expect(missing.json.code).toBe('ROUTING_TARGET_MISSING');

    const a = await h.call('PUT', url, { webhookUrl: 'https://app.example/in', webhookHeaders: { 'X-Tenant': 't1' } });
    expect(a.status).toBe(200);
    expect(a.json).toMatchObject({ number: '07012340001', routingType: 'webhook', webhookUrl: 'https://app.example/in', webhookHeaders: { 'X-Tenant': 't1' } });

    const fwd = await h.call('PUT', url, { routingType: 'forward', forwardTo: '+82 70-1234-0002' });
    expect(fwd.json).toMatchObject({ routingType: 'forward', forwardTo: '07012340002', webhookUrl: 'https://app.example/in' });
    const mismatch = await h.call('PUT', url, { agentId: 'AG1' });
    expect(mismatch.json.code).toBe('ROUTING_FIELD_MISMATCH');
    expect((await h.call('PUT', url, { routingType: 'agent', agentId: 'AG7c2f9b1e4a6d' })).status).toBe(400); // no such agent in the account
    const agentId = (await h.call('POST', h.acme('/agents'), { name: 'bot' })).json.agentId;
    const agent = await h.call('PUT', url, { routingType: 'agent', agentId, callContextUrl: 'https://app.example/ctx' });
    expect(agent.json).toMatchObject({ routingType: 'agent', agentId, forwardTo: null, callContextUrl: 'https://app.example/ctx' });
    const back = await h.call('PUT', url, { routingType: 'webhook' });
    expect(back.json).toMatchObject({ routingType: 'webhook', agentId: null, callContextUrl: null });
    expect((await h.call('PUT', url, { webhookHeaders: null })).json.webhookHeaders).toBeNull();
    expect((await h.call('PUT', url, { statusCallback: '' })).json.statusCallback).toBeNull();
  });

  it('forwardTo must be another number of the same account', async () => {
    const url = h.acme('/numbers/07012340001');
    for (const forwardTo of ['07012340001', '07012349001', '01012345678', 'abc']) {
      const r = await h.call('PUT', url, { routingType: 'forward', forwardTo });
      expect(r.status, forwardTo).toBe(400);
      expect(r.json.code, forwardTo).toBe('INVALID_FORWARD_TO');
    }
  });

  it('sip and softphone routing need the sip_trunk add-on', async () => {
    const r = await h.call('PUT', h.bistro('/numbers/07012349001'), { routingType: 'sip', sipEndpointId: 'SE1' }, { key: BISTRO.key });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('SIP_TRUNK_REQUIRED');
    const endpoint = (await h.call('POST', h.acme('/sip-endpoints'), { name: 'pbx' })).json;
    await h.call('POST', h.acme(`/sip-endpoints/${endpoint.id}/routes`), { uri: 'sip:pbx.acme.example' });
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'sip', sipEndpointId: endpoint.id })).status).toBe(200);
  });

  it('another account\'s number is 403, an unknown one 404', async () => {
    expect((await h.call('PUT', h.acme('/numbers/07012349001'), { webhookMethod: 'GET' })).json.code).toBe('number_not_owned');
    expect((await h.call('DELETE', h.acme('/numbers/07012349001'))).status).toBe(403);
    expect((await h.call('DELETE', h.acme('/numbers/07099999999'))).status).toBe(404);
    expect((await h.call('DELETE', h.acme('/numbers/not-a-number'))).status).toBe(404);
  });

  it('delete returns the number to the pool: 204, gone from the list, forwards cleared, reissued last', async () => {
    await h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'forward', forwardTo: '07012340002' });
    const del = await h.call('DELETE', h.acme('/numbers/070-1234-0002'));
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const list = (await h.call('GET', h.acme('/numbers'))).json.data;
    expect(list.map((n: any) => n.number)).not.toContain('07012340002');
    expect(list.find((n: any) => n.number === '07012340001').forwardTo).toBeNull();
    expect((await h.call('DELETE', h.acme('/numbers/07012340002'))).status).toBe(404);
    const pool = runtimeOf(h.sim).numbers.pool;
    expect(pool.returned).toEqual(['07012340002']);
    const history = runtimeOf(h.sim).numbers.assignments.all().filter((a) => a.number === '07012340002');
    expect(history).toHaveLength(1);
    expect(history[0]!.to).toBe(h.sim.clock.now());
  });
});

describe('representative numbers', () => {
  it('are issued from their own pool with the add-on (201), route by forward only, and go back to that pool', async () => {
    const h = harness();
    const r = await h.call('POST', h.acme('/representative-numbers'));
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ number: '15885000', source: 'pool', numberType: 'representative', routingType: 'forward', forwardTo: null });
    // No forwardTo yet is a valid state (callers hear an announcement); other settings can change.
    expect((await h.call('PUT', h.acme('/numbers/1588-5000'), { webhookMethod: 'GET' })).status).toBe(200);
    const webhook = await h.call('PUT', h.acme('/numbers/15885000'), { routingType: 'webhook', webhookUrl: 'https://app.example/voice' });
    expect([webhook.status, webhook.json.code]).toEqual([400, 'REPRESENTATIVE_FORWARD_ONLY']);
    const fwd = await h.call('PUT', h.acme('/numbers/15885000'), { forwardTo: '070-1234-0001' });
    expect(fwd.json).toMatchObject({ routingType: 'forward', forwardTo: '07012340001' });
    expect((await h.call('DELETE', h.acme('/numbers/15885000'))).status).toBe(204);
    const next = await h.call('POST', h.acme('/representative-numbers'));
    expect(next.json.number).toBe('15885001');
    // A DID from registerNumber never comes from the representative pool, nor the reverse.
    expect((await h.call('POST', h.acme('/numbers'))).json.number).toBe('07040000000');
  });

  it('need the add-on (402) and an active subscription (403); an empty pool is 409; nothing is issued', async () => {
    const h = harness();
    const snapshot = () => JSON.stringify(h.sim.snapshot());
    const before = snapshot();
    const noAddon = await h.call('POST', h.bistro('/representative-numbers'), undefined, { key: BISTRO.key });
    expect([noAddon.status, noAddon.json.code]).toEqual([402, 'ADDON_REQUIRED']);
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    const lapsed = await h.call('POST', h.acme('/representative-numbers'));
    expect([lapsed.status, lapsed.json.code]).toEqual([403, 'no_active_subscription']);
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'active', startedAt: '2026-01-15T03:00:00Z' } });
    expect(snapshot()).toBe(before);
    const tiny = harness({ fixture: { yaml: (await import('node:fs')).readFileSync('fixtures/default.yaml', 'utf8').replace('  size: 100\n', '  size: 1\n') } });
    expect((await tiny.call('POST', tiny.acme('/representative-numbers'))).status).toBe(201);
    const empty = await tiny.call('POST', tiny.acme('/representative-numbers'));
    expect([empty.status, empty.json.code]).toEqual([409, 'REPRESENTATIVE_POOL_EMPTY']);
  });
});
