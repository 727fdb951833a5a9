import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';
import { ACME, call, harness } from './helpers.ts';

describe('control plane', () => {
  it('health and clock', async () => {
    const h = harness();
    const health = await h.call('GET', '/_sim/health', undefined, { key: null });
    expect(health.json).toMatchObject({ status: 'ok', now: '2026-03-02T00:00:00.000Z', seed: 1 });
    expect((await h.call('GET', '/_sim/clock', undefined, { key: null })).json).toMatchObject({ now: '2026-03-02T00:00:00.000Z', mode: 'manual' });
  });

  it('advances by seconds or to an instant, refuses going back and bad bodies', async () => {
    const h = harness();
    const a = await h.call('POST', '/_sim/clock/advance', { seconds: 90.5 }, { key: null });
    expect(a.json).toEqual({ now: '2026-03-02T00:01:30.500Z', fired: 0 });
    const b = await h.call('POST', '/_sim/clock/advance', { to: '2026-03-02T09:00:00+09:00' }, { key: null });
    expect(b.status).toBe(400);
    const c = await h.call('POST', '/_sim/clock/advance', { to: '2026-03-03T00:00:00Z' }, { key: null });
    expect(c.json.now).toBe('2026-03-03T00:00:00.000Z');
    for (const body of [{}, { seconds: -1 }, { seconds: 1e15 }, { to: '9999-12-31T23:59:59Z', seconds: 0 }, { seconds: 1, to: '2026-03-04T00:00:00Z' }, { to: 'tomorrow' }, { seconds: '5' }]) {
      const r = await h.call('POST', '/_sim/clock/advance', body, { key: null });
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    expect(h.sim.clock.now()).toBe('2026-03-03T00:00:00.000Z');
  });

  it('creates accounts with defaults: business plan, active subscription from now, one number', async () => {
    const h = harness();
    const r = await h.call('POST', '/_sim/accounts', {}, { key: null });
    expect(r.status).toBe(201);
    expect(r.json.accountId).toMatch(/^AC[0-9a-f]{8}$/);
    expect(r.json.apiKey).toMatch(/^sk_test_[0-9a-f]{32}$/);
    expect(r.json.numbers).toEqual(['07040000000']);
    const view = (await h.call('GET', `/_sim/accounts/${r.json.accountId}`, undefined, { key: null })).json;
    expect(view).toMatchObject({ plan: 'business', subscriptionActive: true, subscription: { status: 'active', startedAt: '2026-03-02T00:00:00.000Z' } });
    const list = await h.call('GET', `/v1/accounts/${r.json.accountId}/numbers`, undefined, { key: r.json.apiKey });
    expect(list.json.data.map((n: any) => n.number)).toEqual(['07040000000']);
    // The new key cannot reach another account.
    expect((await h.call('GET', h.acme('/numbers'), undefined, { key: r.json.apiKey })).status).toBe(403);
  });

  it('creates accounts with explicit fields and refuses conflicts without leaving half an account', async () => {
    const h = harness();
    const r = await h.call('POST', '/_sim/accounts', { accountId: 'ACalt0001', plan: 'starter', addons: [], numbers: ['070-5555-0001', '070-5555-0002'] }, { key: null });
    expect(r.json).toMatchObject({ accountId: 'ACalt0001', numbers: ['07055550001', '07055550002'] });
    expect((await h.call('POST', '/_sim/accounts', { accountId: 'ACalt0001' }, { key: null })).json.code).toBe('ACCOUNT_EXISTS');
    expect((await h.call('POST', '/_sim/accounts', { plan: 'gold' }, { key: null })).json.code).toBe('PLAN_NOT_FOUND');
    const before = JSON.stringify(h.sim.snapshot());
    const taken = await h.call('POST', '/_sim/accounts', { accountId: 'ACalt0002', numbers: ['07012340001'] }, { key: null });
    expect(taken.status).toBe(400);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
    expect((await h.call('POST', '/_sim/accounts', { accountId: 'bad id' }, { key: null })).status).toBe(400);
  });

  it('state round-trips exactly, and reset returns to the fixture', async () => {
    const h = harness();
    await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567' });
    await h.sim.clock.advance({ seconds: 10 });
    const snap = (await h.call('GET', '/_sim/state', undefined, { key: null })).json;
    const listBefore = (await h.call('GET', h.acme('/blocked-callers'))).text;

    await h.call('POST', '/_sim/reset', {}, { key: null });
    expect((await h.call('GET', h.acme('/blocked-callers'))).json.meta.total).toBe(1);
    expect(h.sim.clock.now()).toBe('2026-03-02T00:00:00.000Z');

    const put = await h.call('PUT', '/_sim/state', snap, { key: null });
    expect(put.status).toBe(200);
    expect((await h.call('GET', h.acme('/blocked-callers'))).text).toBe(listBefore);
    expect(h.sim.clock.now()).toBe('2026-03-02T00:00:10.000Z');
    expect((await h.call('GET', '/_sim/state', undefined, { key: null })).json).toEqual(snap);

    // The restored random state continues the same id sequence as the original would.
    const other = harness();
    await other.call('PUT', '/_sim/state', snap, { key: null });
    const x = await h.call('POST', h.acme('/blocked-callers'), { number: '02-765-4321' });
    const y = await other.call('POST', other.acme('/blocked-callers'), { number: '02-765-4321' });
    expect(x.text).toBe(y.text);
  });

  it('refuses a bad snapshot with 400 and keeps the state', async () => {
    const h = harness();
    const before = (await h.call('GET', '/_sim/state', undefined, { key: null })).json;
    const broken = structuredClone(before);
    broken.models.blockLists.callers[0].active = 'yes';
    for (const body of [{}, { ...before, version: 99 }, broken, { ...before, models: { ...before.models, extra: {} } }]) {
      const r = await h.call('PUT', '/_sim/state', body, { key: null });
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
    }
    expect((await h.call('GET', '/_sim/state', undefined, { key: null })).json).toEqual(before);
  });

  it('a snapshot refused at its last part leaves every part as it was, those restored before it included', async () => {
    const h = harness();
    const fixture = (await h.call('GET', '/_sim/state', undefined, { key: null })).json;
    expect((await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567', note: 'spam' })).status).toBeLessThan(300);
    const before = (await h.call('GET', '/_sim/state', undefined, { key: null })).json;
    expect(before.models).not.toEqual(fixture.models);
    // The runtime restores part by part in list order: every part before the last is swapped for
    // the fixture's before the last one fails its schema, so the undo must put each back.
    const names = Object.keys(fixture.models);
    const broken = { ...fixture, models: { ...fixture.models, [names.at(-1)!]: 'not a part' } };
    const r = await h.call('PUT', '/_sim/state', broken, { key: null });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain(names.at(-1));
    expect((await h.call('GET', '/_sim/state', undefined, { key: null })).json).toEqual(before);
    // And the state that stayed still works: the caller blocked above is listed and can be released.
    const listed = (await h.call('GET', h.acme('/blocked-callers'))).json;
    expect(listed.data.map((c: { number: string }) => c.number)).toContain('021234567');
  });

  it('the entry gives the state (snapshot, restore) as the control plane does, not the runtime', async () => {
    const h = harness();
    await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567' });
    const snap = h.sim.snapshot();
    expect(snap).toEqual((await h.call('GET', '/_sim/state', undefined, { key: null })).json);
    await h.call('POST', '/_sim/reset', {}, { key: null });
    h.sim.restore(snap);
    expect(h.sim.snapshot()).toEqual(snap);
    expect(() => h.sim.restore({ ...snap, version: 99 })).toThrow(/version 99/);
    expect(h.sim.snapshot()).toEqual(snap);
    expect('runtime' in h.sim).toBe(false);
  });

  it('reset with a seed changes generated ids; without, returns to the starting seed', async () => {
    const h = harness();
    const idWith = async () => (await h.call('POST', h.acme('/blocked-callers'), { number: '02-111-2222' })).json.id;
    const first = await idWith();
    await h.sim.control.reset(7);
    const seven = await idWith();
    await h.sim.control.reset();
    expect(await idWith()).toBe(first);
    expect(seven).not.toBe(first);
    expect((await h.sim.control.health()).seed).toBe(1);
  });

  it('the control token, when set, guards /_sim but not the API', async () => {
    const sim = createSimulator({ controlToken: 'secret-token' });
    expect((await call(sim, 'GET', '/_sim/health', undefined, { key: null })).status).toBe(401);
    expect((await call(sim, 'GET', '/_sim/health', undefined, { key: 'wrong' })).status).toBe(401);
    expect((await call(sim, 'GET', '/_sim/health', undefined, { key: 'secret-token' })).status).toBe(200);
    expect((await sim.control.health()).status).toBe('ok');
    expect((await call(sim, 'GET', `/v1/accounts/${ACME.accountId}/numbers`)).status).toBe(200);
  });
});
