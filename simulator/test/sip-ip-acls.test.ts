// SIP IP ACLs: their shape, the CIDR rules and limits, updates, deletion and account isolation.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { cidrProblem } from '../resources/sip-auth/cidr.ts';
import { type H, state, acl, credential } from './sip-auth-helpers.ts';
import { runtimeOf } from '../internal.ts';

describe('SIP IP ACLs', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('creates with 201 in the documented shape, reads it back, and lists newest first', async () => {
    const a = await acl(h, { name: 'office', cidrs: ['203.0.113.0/24', '198.51.100.7/32', '203.0.113.0/24'] });
    expect(a).toEqual({
      id: expect.stringMatching(/^SA[0-9a-f]{32}$/),
      accountId: ACME.accountId,
      name: 'office',
      cidrs: ['203.0.113.0/24', '198.51.100.7/32'],
      status: 'active',
      dateCreated: h.sim.clock.now(),
      dateUpdated: h.sim.clock.now(),
    });
    expect((await h.call('GET', h.acme(`/sip-ip-acls/${a.id}`))).json).toEqual(a);
    await h.sim.clock.advance({ seconds: 5 });
    const b = await acl(h, { name: 'no cidrs' });
    expect(b.cidrs).toEqual([]);
    const list = await h.call('GET', h.acme('/sip-ip-acls'));
    expect(list.status).toBe(200);
    expect(list.json.data.map((x: any) => x.id)).toEqual([b.id, a.id]);
    expect(list.json.meta).toEqual({ page: 0, pageSize: 20, total: 2 });
  });

  it('pages with page/pageSize and its aliases, and filters by status', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.unshift((await acl(h, { name: `acl ${i}` })).id);
    await h.call('PUT', h.acme(`/sip-ip-acls/${ids[1]}`), { status: 'disabled' });
    const p1 = (await h.call('GET', h.acme('/sip-ip-acls?page=1&pageSize=2'))).json;
    expect(p1.data.map((x: any) => x.id)).toEqual(ids.slice(2, 4));
    expect(p1.meta).toEqual({ page: 1, pageSize: 2, total: 5 });
    expect((await h.call('GET', h.acme('/sip-ip-acls?limit=3'))).json.meta.pageSize).toBe(3);
    expect((await h.call('GET', h.acme('/sip-ip-acls?page_size=4'))).json.data).toHaveLength(4);
    const disabled = (await h.call('GET', h.acme('/sip-ip-acls?status=disabled'))).json;
    expect(disabled.data.map((x: any) => x.id)).toEqual([ids[1]]);
    expect((await h.call('GET', h.acme('/sip-ip-acls?status=active'))).json.meta.total).toBe(4);
    const bad = await h.call('GET', h.acme('/sip-ip-acls?status=deleted'));
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('VALIDATION');
  });

  it('refuses bad CIDRs and more than 50 with 400 VALIDATION naming the entry, changing nothing', async () => {
    const before = state(h);
    for (const cidr of ['203.0.113.0', '203.0.113.1/24', '256.0.0.0/8', '10.0.0.0/33', '010.0.0.0/8', '::1/128', 'x']) {
      const r = await h.call('POST', h.acme('/sip-ip-acls'), { name: 'bad', cidrs: ['10.0.0.0/8', cidr] });
      expect(r.status, cidr).toBe(400);
      expect(r.json.code, cidr).toBe('VALIDATION');
      expect(r.json.errors.map((e: any) => e.path), cidr).toContain('cidrs[1]');
    }
    const many = Array.from({ length: 51 }, (_, i) => `10.0.${i}.0/24`);
    const tooMany = await h.call('POST', h.acme('/sip-ip-acls'), { name: 'many', cidrs: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.code).toBe('VALIDATION');
    expect((await h.call('POST', h.acme('/sip-ip-acls'), { cidrs: [] })).json.code).toBe('VALIDATION');
    expect(state(h)).toBe(before);
    expect((await h.call('POST', h.acme('/sip-ip-acls'), { name: 'fifty', cidrs: many.slice(0, 50) })).status).toBe(201);
  });

  it('knows what a CIDR is', () => {
    expect(cidrProblem('0.0.0.0/0')).toBeNull();
    expect(cidrProblem('192.168.1.128/25')).toBeNull();
    expect(cidrProblem('192.168.1.129/25')).toMatch(/192\.168\.1\.128\/25/);
    expect(cidrProblem('1.2.3.4/032')).not.toBeNull();
  });

  it('updates partially, replaces cidrs, toggles status; an empty body is 400 NOTHING_TO_UPDATE', async () => {
    const a = await acl(h);
    await h.sim.clock.advance({ seconds: 30 });
    const r = await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), { cidrs: ['192.0.2.0/24'], status: 'disabled' });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ ...a, cidrs: ['192.0.2.0/24'], status: 'disabled', dateUpdated: h.sim.clock.now() });
    expect((await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), { status: 'active', name: 'renamed' })).json).toMatchObject({ status: 'active', name: 'renamed', cidrs: ['192.0.2.0/24'] });
    const before = state(h);
    const empty = await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), {});
    expect([empty.status, empty.json.code]).toEqual([400, 'NOTHING_TO_UPDATE']);
    const bad = await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), { cidrs: ['1.1.1.1/8'] });
    expect([bad.status, bad.json.code]).toEqual([400, 'VALIDATION']);
    expect((await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), { status: 'deleted' })).status).toBe(400);
    expect((await h.call('PUT', h.acme('/sip-ip-acls/SAnope'), { name: 'x' })).json.code).toBe('sip_ip_acl_not_found');
    expect(state(h)).toBe(before);
  });

  it('soft-deletes with 200 {ok:true}; afterwards 404 everywhere and gone from the list', async () => {
    const a = await acl(h);
    const del = await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`));
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ ok: true });
    expect(runtimeOf(h.sim).sipAuth.acls.get(a.id)?.deletedAt).toBe(h.sim.clock.now());
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const r = await h.call(method, h.acme(`/sip-ip-acls/${a.id}`), body);
      expect([r.status, r.json.code], method).toEqual([404, 'sip_ip_acl_not_found']);
    }
    expect((await h.call('GET', h.acme('/sip-ip-acls'))).json.meta.total).toBe(0);
    const ref = await h.call('POST', h.acme('/sip-credentials'), { name: 'n', username: 'user_x', ipAclId: a.id });
    expect([ref.status, ref.json.code]).toEqual([400, 'INVALID_ACL']);
  });

  it('refuses to delete an ACL a credential refers to (409 IN_USE) until the credential lets go or is deleted', async () => {
    const a = await acl(h);
    const c1 = await credential(h, { username: 'one', ipAclId: a.id });
    const c2 = await credential(h, { username: 'two', ipAclId: a.id });
    const before = state(h);
    const r = await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`));
    expect([r.status, r.json.code]).toEqual([409, 'IN_USE']);
    expect(state(h)).toBe(before);
    expect((await h.call('PUT', h.acme(`/sip-credentials/${c1.id}`), { ipAclId: null })).json.ipAclId).toBeNull();
    expect((await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`))).status).toBe(409);
    expect((await h.call('DELETE', h.acme(`/sip-credentials/${c2.id}`))).status).toBe(200);
    expect((await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`))).json).toEqual({ ok: true });
  });

  it('another account\'s ACL is 404 and cannot be referred to', async () => {
    const a = await acl(h);
    expect((await h.call('GET', h.bistro(`/sip-ip-acls/${a.id}`), undefined, { key: BISTRO.key })).status).toBe(404);
    expect((await h.call('GET', h.bistro('/sip-ip-acls'), undefined, { key: BISTRO.key })).json.data).toEqual([]);
  });
});
