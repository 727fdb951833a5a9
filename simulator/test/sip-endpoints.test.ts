// SIP endpoints and their origination routes: shapes, route order, uri validation, the add-on,
// active <-> disabled, 409 IN_USE with blockers, the numbers routing check and snapshots.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { sipUriProblem } from '../resources/sip-endpoints/model.ts';
import { expectDocumentedAnswer } from './documented.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

const ENDPOINT_KEYS = ['id', 'accountId', 'name', 'maxConcurrent', 'status', 'routes', 'dateCreated', 'dateUpdated'];
const ROUTE_KEYS = ['id', 'endpointId', 'uri', 'priority', 'weight', 'transport', 'status', 'lastUsedAt', 'lastFailureAt', 'failureCount', 'dateCreated', 'dateUpdated'];

describe('SIP endpoints and routes', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });
  afterEach(async () => {
    await h.sim.close();
  });

  const state = () => JSON.stringify(h.sim.snapshot());

  async function endpoint(body: Record<string, unknown> = { name: 'HQ trunk' }) {
    const r = await h.call('POST', h.acme('/sip-endpoints'), body);
    expect(r.status).toBe(201);
    return r.json;
  }
  async function route(endpointId: string, body: Record<string, unknown>) {
    const r = await h.call('POST', h.acme(`/sip-endpoints/${endpointId}/routes`), body);
    expect(r.status, JSON.stringify(r.json)).toBe(201);
    return r.json;
  }
  /** Routes number 07012340001 to the endpoint. */
  async function routeNumber(endpointId: string, number = '07012340001') {
    const r = await h.call('PUT', h.acme(`/numbers/${number}`), { routingType: 'sip', sipEndpointId: endpointId });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
  }

  it('creates an endpoint with the spec\'s fields: active, unlimited by default, no routes', async () => {
    const e = await endpoint();
    expect(Object.keys(e)).toEqual(ENDPOINT_KEYS);
    expect(e).toMatchObject({ accountId: ACME.accountId, name: 'HQ trunk', maxConcurrent: null, status: 'active', routes: [] });
    expect(e.id).toMatch(/^SE[0-9a-f]{16}$/);
    expect(e.dateCreated).toBe(e.dateUpdated);
    expect((await endpoint({ name: 'limited', maxConcurrent: 50 })).maxConcurrent).toBe(50);
    const got = await h.call('GET', h.acme(`/sip-endpoints/${e.id}`));
    expect(got.status).toBe(200);
    expect(got.json).toEqual(e);
  });

  it('creates a route with defaults and the spec\'s fields', async () => {
    const e = await endpoint();
    const r = await route(e.id, { uri: 'sip:pbx.acme.example:5060' });
    expect(Object.keys(r)).toEqual(ROUTE_KEYS);
    expect(r).toMatchObject({
      endpointId: e.id, uri: 'sip:pbx.acme.example:5060', priority: 10, weight: 100, transport: 'udp', status: 'active',
      lastUsedAt: null, lastFailureAt: null, failureCount: 0,
    });
    expect(r.id).toMatch(/^SR[0-9a-f]{16}$/);
    expect((await route(e.id, { uri: 'sips:pbx.acme.example' })).transport).toBe('tls');
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes/${r.id}`))).json).toEqual(r);
  });

  it('lists routes by priority ascending, equal priorities oldest first, in the route list and the endpoint', async () => {
    const e = await endpoint();
    const a = await route(e.id, { uri: 'sip:a.example', priority: 20 });
    const b = await route(e.id, { uri: 'sip:b.example', priority: 5, weight: 10 });
    const c = await route(e.id, { uri: 'sip:c.example', priority: 20, weight: 900 });
    const d = await route(e.id, { uri: 'sip:d.example', priority: 0 });
    const order = [d.id, b.id, a.id, c.id];
    const list = await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes`));
    expect(list.status).toBe(200);
    expect(Object.keys(list.json)).toEqual(['data']); // no meta
    expect(list.json.data.map((r: any) => r.id)).toEqual(order);
    const got = (await h.call('GET', h.acme(`/sip-endpoints/${e.id}`))).json;
    expect(got.routes.map((r: any) => r.id)).toEqual(order);
    // Moving a route's priority re-sorts it.
    await h.call('PUT', h.acme(`/sip-endpoints/${e.id}/routes/${c.id}`), { priority: 1 });
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes`))).json.data.map((r: any) => r.id)).toEqual([d.id, c.id, b.id, a.id]);
  });

  it('validates route uris strictly', () => {
    const good = ['sip:pbx.acme.example', 'sip:pbx.acme.example:5060', 'sips:pbx.acme.example:5061', 'sip:203.0.113.10', 'sip:203.0.113.10:65535', 'sip:pbx', 'sip:a-b.example:1'];
    const bad = [
      '', 'pbx.acme.example', 'SIP:pbx.example', 'http://pbx.example', 'sip:', 'sip:user@pbx.example', 'sip:pbx.example;transport=tls',
      'sip:pbx.example?x=1', 'sip:pbx.example:0', 'sip:pbx.example:65536', 'sip:pbx.example:05060', 'sip:pbx.example:', 'sip:pbx.example:abc',
      'sip:-pbx.example', 'sip:pbx-.example', 'sip:pbx..example', 'sip:pbx_1.example', 'sip:256.1.1.1', 'sip:1.2.3', 'sip:[2001:db8::1]',
      'sip:pbx.example:5060:1', 'sip: pbx.example', `sip:${'a'.repeat(64)}.example`,
    ];
    for (const u of good) expect(sipUriProblem(u), u).toBeNull();
    for (const u of bad) expect(sipUriProblem(u), u).not.toBeNull();
  });

  it('refuses a bad uri with 400 INVALID_SIP_URI and changes nothing', async () => {
    const e = await endpoint();
    const before = state();
    for (const uri of ['sip:user@pbx.example', 'tel:+821012345678', 'sip:pbx.example:99999', 'sip:pbx.example;lr']) {
      const r = await h.call('POST', h.acme(`/sip-endpoints/${e.id}/routes`), { uri });
      expect(r.status, uri).toBe(400);
      expect(r.json.code, uri).toBe('INVALID_SIP_URI');
      expect(r.json.errors[0].path).toBe('uri');
    }
    expect(state()).toBe(before);
  });

  it('refuses bad bodies with 400 and changes nothing', async () => {
    const e = await endpoint();
    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    const before = state();
    const cases: [string, string, unknown, string][] = [
      ['POST', '/sip-endpoints', {}, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: '' }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: '   ' }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: 'x'.repeat(101) }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: 'x', maxConcurrent: 0 }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: 'x', maxConcurrent: 10000 }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: 'x', maxConcurrent: 1.5 }, 'VALIDATION'],
      ['POST', '/sip-endpoints', { name: 'x', status: 'disabled' }, 'VALIDATION'],
      ['PUT', `/sip-endpoints/${e.id}`, {}, 'NOTHING_TO_UPDATE'],
      ['PUT', `/sip-endpoints/${e.id}`, { status: 'deleted' }, 'VALIDATION'],
      ['PUT', `/sip-endpoints/${e.id}`, { maxConcurrent: '5' }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, {}, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:x.example', priority: -1 }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:x.example', priority: 1001 }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:x.example', weight: 1001 }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:x.example', transport: 'tcp' }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sips:x.example', transport: 'udp' }, 'VALIDATION'],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:x.example', status: 'active' }, 'VALIDATION'],
      ['PUT', `/sip-endpoints/${e.id}/routes/${rt.id}`, {}, 'NOTHING_TO_UPDATE'],
      ['PUT', `/sip-endpoints/${e.id}/routes/${rt.id}`, { uri: 'sips:x.example' }, 'VALIDATION'],
      ['PUT', `/sip-endpoints/${e.id}/routes/${rt.id}`, { uri: 'sip:x.example:0' }, 'INVALID_SIP_URI'],
      ['PUT', `/sip-endpoints/${e.id}/routes/${rt.id}`, { status: 'paused' }, 'VALIDATION'],
    ];
    for (const [method, path, body, code] of cases) {
      const r = await h.call(method, h.acme(path), body);
      expect(r.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(400);
      expect(r.json.code, `${method} ${path} ${JSON.stringify(body)}`).toBe(code);
    }
    expect(state()).toBe(before);
  });

  it('needs the sip_trunk add-on to create, change or delete (403 SIP_TRUNK_REQUIRED)', async () => {
    const before = state();
    const r = await h.call('POST', h.bistro('/sip-endpoints'), { name: 'x' }, { key: BISTRO.key });
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('SIP_TRUNK_REQUIRED');
    expect(state()).toBe(before);
    // Reading needs no add-on: an account without it sees an empty list.
    const list = await h.call('GET', h.bistro('/sip-endpoints'), undefined, { key: BISTRO.key });
    expect(list.json).toEqual({ data: [], meta: { page: 0, pageSize: 20, total: 0 } });

    // The add-on taken away after creation: reads still work, writes are refused.
    const e = await endpoint();
    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: [] });
    const locked = state();
    const writes: [string, string, unknown][] = [
      ['POST', '/sip-endpoints', { name: 'y' }],
      ['PUT', `/sip-endpoints/${e.id}`, { name: 'y' }],
      ['DELETE', `/sip-endpoints/${e.id}`, undefined],
      ['POST', `/sip-endpoints/${e.id}/routes`, { uri: 'sip:y.example' }],
      ['PUT', `/sip-endpoints/${e.id}/routes/${rt.id}`, { weight: 1 }],
      ['DELETE', `/sip-endpoints/${e.id}/routes/${rt.id}`, undefined],
    ];
    for (const [method, path, body] of writes) {
      const w = await h.call(method, h.acme(path), body);
      expect(w.status, `${method} ${path}`).toBe(403);
      expect(w.json.code).toBe('SIP_TRUNK_REQUIRED');
    }
    expect(state()).toBe(locked);
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}`))).status).toBe(200);
  });

  it('answers 404 for unknown, other accounts\' and deleted endpoints and routes', async () => {
    const e = await endpoint();
    const other = await endpoint();
    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    const before = state();
    expect((await h.call('GET', h.acme('/sip-endpoints/SE0000000000000000'))).json.code).toBe('sip_endpoint_not_found');
    expect((await h.call('GET', h.bistro(`/sip-endpoints/${e.id}`), undefined, { key: BISTRO.key })).status).toBe(404);
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}/routes/SR0000000000000000`))).json.code).toBe('sip_route_not_found');
    // A route is found only under its own endpoint.
    expect((await h.call('GET', h.acme(`/sip-endpoints/${other.id}/routes/${rt.id}`))).json.code).toBe('sip_route_not_found');
    expect((await h.call('PUT', h.acme(`/sip-endpoints/${other.id}/routes/${rt.id}`), { weight: 1 })).status).toBe(404);
    expect((await h.call('DELETE', h.acme(`/sip-endpoints/${other.id}/routes/${rt.id}`))).status).toBe(404);
    expect(state()).toBe(before);

    const del = await h.call('DELETE', h.acme(`/sip-endpoints/${e.id}`));
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ ok: true });
    for (const path of [`/sip-endpoints/${e.id}`, `/sip-endpoints/${e.id}/routes`, `/sip-endpoints/${e.id}/routes/${rt.id}`]) {
      const r = await h.call('GET', h.acme(path));
      expect(r.status, path).toBe(404);
      expect(r.json.code).toBe('sip_endpoint_not_found');
    }
    expect((await h.call('DELETE', h.acme(`/sip-endpoints/${e.id}`))).status).toBe(404);
    expect((await h.call('GET', h.acme('/sip-endpoints'))).json.data.map((x: any) => x.id)).toEqual([other.id]);
  });

  it('updates partially; active <-> disabled; dateUpdated moves only on a change', async () => {
    const e = await endpoint({ name: 'HQ', maxConcurrent: 10 });
    await h.sim.clock.advance({ seconds: 60 });
    const r1 = await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'disabled' });
    expect(r1.status).toBe(200);
    expect(r1.json).toMatchObject({ name: 'HQ', maxConcurrent: 10, status: 'disabled', dateCreated: e.dateCreated });
    expect(r1.json.dateUpdated > e.dateUpdated).toBe(true);
    await h.sim.clock.advance({ seconds: 60 });
    const same = await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'disabled' });
    expect(same.json.dateUpdated).toBe(r1.json.dateUpdated);
    const r2 = await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'active', maxConcurrent: null, name: 'HQ 2' });
    expect(r2.json).toMatchObject({ name: 'HQ 2', maxConcurrent: null, status: 'active' });
    expect(Object.keys(r2.json)).toEqual(ENDPOINT_KEYS);

    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    const off = await h.call('PUT', h.acme(`/sip-endpoints/${e.id}/routes/${rt.id}`), { status: 'disabled' });
    expect(off.json.status).toBe('disabled');
    const on = await h.call('PUT', h.acme(`/sip-endpoints/${e.id}/routes/${rt.id}`), { status: 'active', uri: 'sips:pbx.example', transport: 'tls' });
    expect(on.json).toMatchObject({ status: 'active', uri: 'sips:pbx.example', transport: 'tls' });
    const del = await h.call('DELETE', h.acme(`/sip-endpoints/${e.id}/routes/${rt.id}`));
    expect(del.json).toEqual({ ok: true });
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}`))).json.routes).toEqual([]);
  });

  it('lists endpoints newest first with standard paging and a status filter', async () => {
    const a = await endpoint({ name: 'a' });
    const b = await endpoint({ name: 'b' });
    const c = await endpoint({ name: 'c' });
    await h.call('PUT', h.acme(`/sip-endpoints/${b.id}`), { status: 'disabled' });
    const all = await h.call('GET', h.acme('/sip-endpoints'));
    expect(all.json.data.map((x: any) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all.json.meta).toEqual({ page: 0, pageSize: 20, total: 3 });
    const page = await h.call('GET', h.acme('/sip-endpoints?pageSize=2&page=1'));
    expect(page.json.data.map((x: any) => x.id)).toEqual([a.id]);
    expect(page.json.meta).toEqual({ page: 1, pageSize: 2, total: 3 });
    expect((await h.call('GET', h.acme('/sip-endpoints?status=disabled'))).json.data.map((x: any) => x.id)).toEqual([b.id]);
    expect((await h.call('GET', h.acme('/sip-endpoints?status=active'))).json.meta.total).toBe(2);
    expect((await h.call('GET', h.acme('/sip-endpoints?status=deleted'))).status).toBe(400);
    expect((await h.call('GET', h.acme('/sip-endpoints?pageSize=101'))).status).toBe(400);
  });

  it('refuses to disable or delete an endpoint numbers route to: 409 IN_USE with blockers, nothing changed', async () => {
    const e = await endpoint();
    await route(e.id, { uri: 'sip:pbx.example' });
    await routeNumber(e.id, '07012340002');
    await routeNumber(e.id, '07012340001');
    const before = state();
    for (const [method, body] of [['PUT', { status: 'disabled', name: 'renamed' }], ['DELETE', undefined]] as const) {
      const r = await h.call(method, h.acme(`/sip-endpoints/${e.id}`), body);
      expect(r.status, method).toBe(409);
      expect(r.json.code).toBe('IN_USE');
      expect(typeof r.json.error).toBe('string');
      expect(r.json.blockers).toEqual([
        { number: '07012340001', code: 'number_routes_to_endpoint', message: expect.any(String) },
        { number: '07012340002', code: 'number_routes_to_endpoint', message: expect.any(String) },
      ]);
    }
    expect(state()).toBe(before);
    // Other changes stay possible while numbers route to it.
    expect((await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { name: 'renamed' })).status).toBe(200);
    // Once the numbers route elsewhere, the endpoint can be disabled and deleted.
    for (const n of ['07012340001', '07012340002']) {
      expect((await h.call('PUT', h.acme(`/numbers/${n}`), { routingType: 'webhook', webhookUrl: 'https://acme.example/hook' })).status).toBe(200);
    }
    expect((await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'disabled' })).status).toBe(200);
    expect((await h.call('DELETE', h.acme(`/sip-endpoints/${e.id}`))).status).toBe(200);
  });

  it('numbers answer TARGET_INACTIVE 409 for a disabled endpoint or one without an active route, 400 for an unknown one', async () => {
    const e = await endpoint();
    const put = (sipEndpointId: string) => h.call('PUT', h.acme('/numbers/07012340001'), { routingType: 'sip', sipEndpointId });
    const before = state();
    let r = await put(e.id);
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('TARGET_INACTIVE');
    expect(r.json.error).toContain('no active route');
    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    await h.call('PUT', h.acme(`/sip-endpoints/${e.id}/routes/${rt.id}`), { status: 'disabled' });
    expect((await put(e.id)).json.code).toBe('TARGET_INACTIVE');
    await h.call('PUT', h.acme(`/sip-endpoints/${e.id}/routes/${rt.id}`), { status: 'active' });
    await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'disabled' });
    const mid = state();
    r = await put(e.id);
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('TARGET_INACTIVE');
    expect(r.json.error).toContain('disabled');
    expect(state()).toBe(mid);
    r = await put('SE0000000000000000');
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('INVALID_ENDPOINT');
    await h.call('PUT', h.acme(`/sip-endpoints/${e.id}`), { status: 'active' });
    expect((await put(e.id)).status).toBe(200);
    expect(before).not.toBe(state());
  });

  it('an endpoint of another account is INVALID_ENDPOINT for numbers', async () => {
    const rt = runtimeOf(h.sim);
    const other = rt.accounts.create({ addons: ['sip_trunk'] });
    const number = rt.numbers.grant(other.id).id;
    const key = other.apiKeys[0]!;
    const e = await endpoint();
    await route(e.id, { uri: 'sip:pbx.example' });
    const before = state();
    const r = await h.call('PUT', `/v1/accounts/${other.id}/numbers/${number}`, { routingType: 'sip', sipEndpointId: e.id }, { key });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('INVALID_ENDPOINT');
    expect((await h.call('GET', `/v1/accounts/${other.id}/sip-endpoints/${e.id}`, undefined, { key })).status).toBe(404);
    expect(state()).toBe(before);
  });

  it('survives snapshot and restore, and a restore rejects a bad state', async () => {
    const e = await endpoint({ name: 'HQ', maxConcurrent: 3 });
    await route(e.id, { uri: 'sip:b.example', priority: 2 });
    await route(e.id, { uri: 'sip:a.example', priority: 1 });
    const snap = h.sim.snapshot();
    const view = (await h.call('GET', h.acme(`/sip-endpoints/${e.id}`))).json;
    await h.call('DELETE', h.acme(`/sip-endpoints/${e.id}`));
    await endpoint({ name: 'later' });
    h.sim.restore(snap);
    expect((await h.call('GET', h.acme(`/sip-endpoints/${e.id}`))).json).toEqual(view);
    expect((await h.call('GET', h.acme('/sip-endpoints'))).json.meta.total).toBe(1);
    // Ids keep coming from the restored generator: the same request gives the same id again.
    const again = await endpoint({ name: 'later' });
    h.sim.restore(snap);
    expect((await endpoint({ name: 'later' })).id).toBe(again.id);

    const bad = structuredClone(snap) as any;
    bad.models.sipEndpoints.routes[0].transport = 'tcp';
    const current = state();
    expect(() => h.sim.restore(bad)).toThrow();
    expect(state()).toBe(current);
    runtimeOf(h.sim).reset();
    expect((await h.call('GET', h.acme('/sip-endpoints'))).json.meta.total).toBe(0);
  });

  it('answers match the documented schemas, statuses and codes (a tour, refusals included)', async () => {
    const e = await endpoint();
    const rt = await route(e.id, { uri: 'sip:pbx.example' });
    const busy = await endpoint({ name: 'busy' });
    await route(busy.id, { uri: 'sip:busy.example' });
    await routeNumber(busy.id);
    const a = (p: string) => h.acme(p);
    const tour: [string, string, unknown?][] = [
      ['GET', a('/sip-endpoints')],
      ['GET', a('/sip-endpoints?status=active&pageSize=1')],
      ['GET', a('/sip-endpoints?status=x')],
      ['POST', a('/sip-endpoints'), { name: 'n', maxConcurrent: 5 }],
      ['POST', a('/sip-endpoints'), { name: '' }],
      ['GET', a(`/sip-endpoints/${e.id}`)],
      ['GET', a('/sip-endpoints/SEnone')],
      ['PUT', a(`/sip-endpoints/${e.id}`), { maxConcurrent: null }],
      ['PUT', a(`/sip-endpoints/${e.id}`), {}],
      ['PUT', a(`/sip-endpoints/${busy.id}`), { status: 'disabled' }],
      ['DELETE', a(`/sip-endpoints/${busy.id}`)],
      ['GET', a(`/sip-endpoints/${e.id}/routes`)],
      ['POST', a(`/sip-endpoints/${e.id}/routes`), { uri: 'sips:x.example', priority: 1 }],
      ['POST', a(`/sip-endpoints/${e.id}/routes`), { uri: 'sip:a@x.example' }],
      ['GET', a(`/sip-endpoints/${e.id}/routes/${rt.id}`)],
      ['GET', a(`/sip-endpoints/${e.id}/routes/SRnone`)],
      ['PUT', a(`/sip-endpoints/${e.id}/routes/${rt.id}`), { status: 'disabled' }],
      ['PUT', a(`/sip-endpoints/${e.id}/routes/${rt.id}`), {}],
      ['DELETE', a(`/sip-endpoints/${e.id}/routes/${rt.id}`)],
      ['DELETE', a(`/sip-endpoints/${e.id}`)],
      ['POST', h.bistro('/sip-endpoints'), { name: 'x' }],
    ];
    const seen = new Set<string>();
    for (const [method, url, body] of tour) {
      const key = url.startsWith(h.bistro('')) ? BISTRO.key : ACME.key;
      const id = expectDocumentedAnswer(method, url, await h.call(method, url, body, { key }));
      if (id) seen.add(id);
    }
    expect(seen.size).toBe(10);
  });
});
