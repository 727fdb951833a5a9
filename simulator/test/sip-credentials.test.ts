// SIP credentials (passwords, ACLs and allowed numbers, the fake registrar) and WebRTC tokens.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { digestHa1 } from '../resources/sip-auth/digest.ts';
import { type H, state, REALM, acl, credential } from './sip-auth-helpers.ts';
import { runtimeOf } from '../internal.ts';

describe('SIP credentials', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('issues with 201 without echoing a sent password; get and list never show it or the hash', async () => {
    const a = await acl(h);
    const c = await credential(h, { password: 'correct horse battery', ipAclId: a.id, allowedNumbers: ['+82 10-1234-5678', '070-1234-0001', '01012345678'] });
    expect(c).toEqual({
      id: expect.stringMatching(/^SC[0-9a-f]{32}$/),
      accountId: ACME.accountId,
      name: 'desk phone',
      username: 'desk_01',
      realm: REALM,
      enabled: true,
      status: 'active',
      ipAclId: a.id,
      allowedNumbers: ['01012345678', '07012340001'],
      lastUsedAt: null,
      dateCreated: h.sim.clock.now(),
      dateUpdated: h.sim.clock.now(),
    });
    const stored = c;
    const got = await h.call('GET', h.acme(`/sip-credentials/${c.id}`));
    expect(got.json).toEqual(stored);
    const list = await h.call('GET', h.acme('/sip-credentials'));
    expect(list.json).toEqual({ data: [stored], meta: { page: 0, pageSize: 20, total: 1 } });
    for (const text of [JSON.stringify(c), got.text, list.text, state(h)]) expect(text).not.toContain('correct horse battery');
    expect(got.text).not.toMatch(/ha1|password/);
    expect(runtimeOf(h.sim).sipAuth.credentials.get(c.id)!.ha1).toBe(digestHa1('desk_01', REALM, 'correct horse battery'));
  });

  it('generates a 32-character password from the seeded random when none is given (same seed, same password)', async () => {
    const c = await credential(h);
    expect(c.password).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await h.call('GET', h.acme(`/sip-credentials/${c.id}`))).text).not.toContain(c.password);
    expect(runtimeOf(h.sim).sipAuth.credentials.get(c.id)!.ha1).toBe(digestHa1('desk_01', REALM, c.password));
    const again = harness();
    expect((await again.call('POST', again.acme('/sip-credentials'), { name: 'desk phone', username: 'desk_01' })).json.password).toBe(c.password);
  });

  it('refuses bad input with a stable code and changes nothing', async () => {
    const a = await acl(h);
    await credential(h, { username: 'taken' });
    const other = await h.call('POST', h.bistro('/sip-ip-acls'), { name: 'x' }, { key: BISTRO.key });
    expect(other.json.code).toBe('SIP_TRUNK_REQUIRED');
    const before = state(h);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ name: 'x', username: 'ab' }, 400, 'VALIDATION'],
      [{ name: 'x', username: 'has space' }, 400, 'VALIDATION'],
      [{ name: 'x' }, 400, 'VALIDATION'],
      [{ username: 'good_name' }, 400, 'VALIDATION'],
      [{ name: 'x', username: 'good_name', password: 'short' }, 400, 'VALIDATION'],
      [{ name: 'x', username: 'good_name', ipAclId: 'SAnope' }, 400, 'INVALID_ACL'],
      [{ name: 'x', username: 'good_name', allowedNumbers: ['12345'] }, 400, 'INVALID_PHONE_NUMBER'],
      [{ name: 'x', username: 'good_name', allowedNumbers: ['+1 415 555 0100'] }, 400, 'UNSUPPORTED_COUNTRY'],
      [{ name: 'x', username: 'good_name', allowedNumbers: Array.from({ length: 101 }, () => '01012345678') }, 400, 'VALIDATION'],
      [{ name: 'x', username: 'good_name', extra: 1 }, 400, 'VALIDATION'],
      [{ name: 'x', username: 'taken', ipAclId: a.id }, 409, 'USERNAME_TAKEN'],
    ];
    for (const [body, status, code] of cases) {
      const r = await h.call('POST', h.acme('/sip-credentials'), body);
      expect([r.status, r.json.code], JSON.stringify(body).slice(0, 80)).toEqual([status, code]);
    }
    expect(state(h)).toBe(before);
  });

  it('needs the sip_trunk add-on to create, change or delete, but not to read', async () => {
    const opts = { key: BISTRO.key };
    const before = state(h);
    for (const [method, path, body] of [
      ['POST', '/sip-credentials', { name: 'x', username: 'abc' }],
      ['PUT', '/sip-credentials/SC1', { name: 'x' }],
      ['DELETE', '/sip-credentials/SC1'],
      ['POST', '/sip-ip-acls', { name: 'x' }],
      ['PUT', '/sip-ip-acls/SA1', { name: 'x' }],
      ['DELETE', '/sip-ip-acls/SA1'],
    ] as const) {
      const r = await h.call(method, h.bistro(path), body, opts);
      expect([r.status, r.json.code], `${method} ${path}`).toEqual([403, 'SIP_TRUNK_REQUIRED']);
    }
    expect(state(h)).toBe(before);
    expect((await h.call('GET', h.bistro('/sip-credentials'), undefined, opts)).status).toBe(200);
    expect((await h.call('GET', h.bistro('/sip-credentials/SC1'), undefined, opts)).json.code).toBe('sip_credential_not_found');
  });

  it('usernames are unique per account (one realm each), and free again once deleted', async () => {
    const c = await credential(h, { username: 'shared' });
    await h.sim.control.request('PATCH', `/accounts/${BISTRO.accountId}`, { addons: ['sip_trunk'] });
    const bistro = await h.call('POST', h.bistro('/sip-credentials'), { name: 'b', username: 'shared' }, { key: BISTRO.key });
    expect(bistro.status).toBe(201);
    expect(bistro.json.realm).toBe('ac5e6f7a8b.sip.claw-ops.com');
    expect((await h.call('POST', h.acme('/sip-credentials'), { name: 'again', username: 'shared' })).json.code).toBe('USERNAME_TAKEN');
    await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`));
    expect((await h.call('POST', h.acme('/sip-credentials'), { name: 'again', username: 'shared' })).status).toBe(201);
  });

  it('password on update regenerates the hash and is not echoed; name/allowedNumbers/ipAclId change partially', async () => {
    const a = await acl(h);
    const c = await credential(h, { password: 'first-password-1' });
    const model = runtimeOf(h.sim).sipAuth;
    const ha1 = model.credentials.get(c.id)!.ha1;
    await h.sim.clock.advance({ seconds: 10 });
    const r = await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { password: 'second-password-2' });
    expect(r.status).toBe(200);
    expect(r.json).not.toHaveProperty('password');
    expect(r.json.dateUpdated).toBe(h.sim.clock.now());
    const next = model.credentials.get(c.id)!.ha1;
    expect(next).not.toBe(ha1);
    expect(next).toBe(digestHa1('desk_01', REALM, 'second-password-2'));
    const r2 = await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { name: 'renamed', ipAclId: a.id, allowedNumbers: ['010-9999-8888'] });
    expect(r2.json).toMatchObject({ name: 'renamed', ipAclId: a.id, allowedNumbers: ['01099998888'], username: 'desk_01', status: 'active', enabled: true });
    expect(model.credentials.get(c.id)!.ha1).toBe(next);
    expect((await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { allowedNumbers: [] })).json.allowedNumbers).toEqual([]);
  });

  it('refused updates change nothing: bad ACL, bad number, username, empty body, unknown id', async () => {
    const c = await credential(h);
    const before = state(h);
    const cases: [string, Record<string, unknown>, number, string][] = [
      [c.id, { ipAclId: 'SAnope', name: 'x' }, 400, 'INVALID_ACL'],
      [c.id, { allowedNumbers: ['01012345678', 'nope'], name: 'x' }, 400, 'INVALID_PHONE_NUMBER'],
      [c.id, { username: 'other' }, 400, 'IMMUTABLE_FIELD'],
      [c.id, {}, 400, 'NOTHING_TO_UPDATE'],
      [c.id, { status: 'deleted' }, 400, 'VALIDATION'],
      [c.id, { password: 'x' }, 400, 'VALIDATION'],
      ['SCnope', { name: 'x' }, 404, 'sip_credential_not_found'],
    ];
    for (const [id, body, status, code] of cases) {
      const r = await h.call('PUT', h.acme(`/sip-credentials/${id}`), body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(state(h)).toBe(before);
  });

  it('status=disabled sets enabled=false at once, status=active back to true; the list filters by status', async () => {
    const a = await credential(h, { username: 'aaa' });
    const b = await credential(h, { username: 'bbb' });
    const off = await h.call('PUT', h.acme(`/sip-credentials/${a.id}`), { status: 'disabled' });
    expect(off.json).toMatchObject({ status: 'disabled', enabled: false });
    expect((await h.call('GET', h.acme(`/sip-credentials/${a.id}`))).json.enabled).toBe(false);
    expect((await h.call('GET', h.acme('/sip-credentials?status=disabled'))).json.data.map((x: any) => x.id)).toEqual([a.id]);
    expect((await h.call('GET', h.acme('/sip-credentials?status=active'))).json.data.map((x: any) => x.id)).toEqual([b.id]);
    expect((await h.call('GET', h.acme('/sip-credentials?pageSize=1&page=1'))).json).toMatchObject({ data: [{ id: a.id }], meta: { page: 1, pageSize: 1, total: 2 } });
    const on = await h.call('PUT', h.acme(`/sip-credentials/${a.id}`), { status: 'active' });
    expect(on.json).toMatchObject({ status: 'active', enabled: true });
  });

  it('delete retires: 200 {ok:true}, status deleted and enabled false by id, out of the list, then 404 for changes', async () => {
    const c = await credential(h);
    await h.sim.clock.advance({ seconds: 1 });
    const del = await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`));
    expect([del.status, del.json]).toEqual([200, { ok: true }]);
    const got = await h.call('GET', h.acme(`/sip-credentials/${c.id}`));
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ id: c.id, status: 'deleted', enabled: false, dateUpdated: h.sim.clock.now() });
    expect((await h.call('GET', h.acme('/sip-credentials'))).json.meta.total).toBe(0);
    const before = state(h);
    expect((await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'active' })).json.code).toBe('sip_credential_not_found');
    expect((await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`))).status).toBe(404);
    expect(state(h)).toBe(before);
  });

  it('answers the cross-reference registry: numbers route to active credentials only', async () => {
    const c = await credential(h);
    const num = h.acme('/numbers/07012340001');
    const unknown = await h.call('PUT', num, { routingType: 'softphone', sipCredentialId: 'SCnope' });
    expect([unknown.status, unknown.json.code]).toEqual([400, 'INVALID_CREDENTIAL']);
    expect((await h.call('PUT', num, { routingType: 'softphone', sipCredentialId: c.id })).status).toBe(200);
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'disabled' });
    const disabled = await h.call('PUT', num, { routingType: 'softphone', sipCredentialId: c.id });
    expect([disabled.status, disabled.json.code]).toEqual([409, 'TARGET_INACTIVE']);
    await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`));
    expect(runtimeOf(h.sim).refs.check('sipCredential', ACME.accountId, c.id)).toMatch(/deleted/);
    expect(runtimeOf(h.sim).refs.check('sipCredential', BISTRO.accountId, c.id)).toBe(false);
  });

  it('snapshot and restore bring back ACLs, credentials and hashes exactly', async () => {
    const a = await acl(h);
    const c = await credential(h, { ipAclId: a.id });
    const snap = h.sim.snapshot();
    await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`));
    await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`));
    h.sim.restore(snap);
    expect(JSON.stringify(h.sim.snapshot())).toBe(JSON.stringify(snap));
    expect((await h.call('GET', h.acme(`/sip-credentials/${c.id}`))).json.status).toBe('active');
    expect((await h.call('DELETE', h.acme(`/sip-ip-acls/${a.id}`))).json.code).toBe('IN_USE');
    runtimeOf(h.sim).reset();
    expect((await h.call('GET', h.acme('/sip-ip-acls'))).json.meta.total).toBe(0);
    const bad = structuredClone(snap) as any;
    bad.models.sipAuth.credentials[0].ha1 = 'not-a-hash';
    expect(() => h.sim.restore(bad)).toThrow();
  });

  it('the fake registrar checks password, realm, ACL, allowed numbers and status; success records lastUsedAt', async () => {
    const a = await acl(h, { name: 'office', cidrs: ['203.0.113.0/24'] });
    const c = await credential(h, { password: 'first-password-1', ipAclId: a.id, allowedNumbers: ['07012340001'] });
    const auth = (body: Record<string, unknown>) => h.sim.control.request<any>('POST', '/sip/authenticate', { username: 'desk_01', realm: REALM, sourceIp: '203.0.113.9', ...body });
    const before = state(h);
    expect((await auth({ password: 'wrong-password-0' })).outcome).toBe('wrong_password');
    expect((await auth({ password: 'first-password-1', realm: 'x.example' })).outcome).toBe('unknown_user');
    expect((await auth({ password: 'first-password-1', sourceIp: '203.0.114.1' })).outcome).toBe('ip_not_allowed');
    expect((await auth({ password: 'first-password-1', sourceIp: undefined })).outcome).toBe('ip_not_allowed');
    expect((await auth({ password: 'first-password-1', fromNumber: '010-1111-2222' })).outcome).toBe('number_not_allowed');
    expect(state(h)).toBe(before);
    await h.sim.clock.advance({ seconds: 7 });
    expect(await auth({ password: 'first-password-1', fromNumber: '070-1234-0001' })).toEqual({ ok: true, outcome: 'ok', credentialId: c.id });
    expect((await h.call('GET', h.acme(`/sip-credentials/${c.id}`))).json.lastUsedAt).toBe(h.sim.clock.now());
    await h.call('PUT', h.acme(`/sip-ip-acls/${a.id}`), { status: 'disabled' });
    expect((await auth({ password: 'first-password-1' })).outcome).toBe('ip_not_allowed');
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { ipAclId: null, allowedNumbers: [], password: 'second-password-2' });
    expect((await auth({ password: 'first-password-1', sourceIp: '8.8.8.8' })).outcome).toBe('wrong_password');
    expect((await auth({ password: 'second-password-2', sourceIp: '8.8.8.8', fromNumber: '07012340001' })).ok).toBe(true);
    expect((await auth({ password: 'second-password-2', fromNumber: '07012349001' })).outcome).toBe('number_not_allowed');
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'disabled' });
    expect((await auth({ password: 'second-password-2' })).outcome).toBe('credential_disabled');
    await h.call('DELETE', h.acme(`/sip-credentials/${c.id}`));
    expect((await auth({ password: 'second-password-2' })).outcome).toBe('unknown_user');
  });
});

describe('WebRTC tokens', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });
  const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString());

  it('issues an HS256 JWT with an ephemeral SIP login that authenticates like its parent until revoked', async () => {
    const a = await acl(h, { name: 'office', cidrs: ['203.0.113.0/24'] });
    const c = await credential(h, { ipAclId: a.id, allowedNumbers: ['07012340001'] });
    const r = await h.call('POST', h.acme(`/sip-credentials/${c.id}/tokens`), { ttl_seconds: 600, subject: 'agent-7' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toEqual({
      token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/),
      token_type: 'Bearer',
      expires_at: new Date(Date.parse(h.sim.clock.now()) + 600_000).toISOString(),
      ws_url: 'wss://sip.claw-ops.com:5063',
      sip_uri: expect.stringMatching(new RegExp(`^ephem_[0-9a-f]{32}@${REALM.replace(/\./g, '\\.')}$`)),
    });
    const claims = decode(r.json.token);
    expect(claims).toMatchObject({ account_id: ACME.accountId, parent_credential_id: c.id, sub: 'agent-7', realm: REALM, allowed_caller_ids: ['07012340001'] });
    expect(claims.jti).toBe(claims.credential_id);
    expect(claims.exp - claims.iat).toBe(600);
    expect(`${claims.sip_username}@${REALM}`).toBe(r.json.sip_uri);
    expect(state(h)).not.toContain(claims.sip_password);
    const auth = (body: Record<string, unknown>) =>
      h.sim.control.request<any>('POST', '/sip/authenticate', { username: claims.sip_username, realm: REALM, password: claims.sip_password, sourceIp: '203.0.113.5', ...body });
    expect(await auth({})).toEqual({ ok: true, outcome: 'ok', credentialId: c.id });
    expect((await auth({ sourceIp: '8.8.8.8' })).outcome).toBe('ip_not_allowed');
    expect((await auth({ password: 'nope-nope-nope' })).outcome).toBe('wrong_password');
    const before = state(h);
    expect((await h.call('DELETE', h.acme(`/sip-credentials/${c.id}/tokens/WTnope`))).json.code).toBe('webrtc_token_not_found');
    expect(state(h)).toBe(before);
    const del = await h.call('DELETE', h.acme(`/sip-credentials/${c.id}/tokens/${claims.jti}`));
    expect([del.status, del.text]).toEqual([204, '']);
    expect((await auth({})).outcome).toBe('unknown_user');
    expect((await h.call('DELETE', h.acme(`/sip-credentials/${c.id}/tokens/${claims.jti}`))).status).toBe(404);
  });

  it('expires on the virtual clock, defaults to an hour, follows its parent, and checks its input', async () => {
    const c = await credential(h);
    const r = await h.call('POST', h.acme(`/sip-credentials/${c.id}/tokens`));
    expect(r.status, r.text).toBe(201);
    const claims = decode(r.json.token);
    expect(claims.exp - claims.iat).toBe(3600);
    expect(claims.sub).toBe(`user:${c.id}`);
    const auth = () => h.sim.control.request<any>('POST', '/sip/authenticate', { username: claims.sip_username, realm: REALM, password: claims.sip_password });
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'disabled' });
    expect((await auth()).outcome).toBe('credential_disabled');
    const before = state(h);
    const inactive = await h.call('POST', h.acme(`/sip-credentials/${c.id}/tokens`), {});
    expect([inactive.status, inactive.json.code]).toEqual([400, 'CREDENTIAL_INACTIVE']);
    for (const ttl of [0, 86401, 1.5]) expect((await h.call('POST', h.acme(`/sip-credentials/${c.id}/tokens`), { ttl_seconds: ttl })).json.code).toBe('VALIDATION');
    expect((await h.call('POST', h.acme('/sip-credentials/SCnope/tokens'), {})).status).toBe(404);
    expect(state(h)).toBe(before);
    await h.call('PUT', h.acme(`/sip-credentials/${c.id}`), { status: 'active' });
    expect((await auth()).ok).toBe(true);
    await h.sim.clock.advance({ seconds: 3600 });
    expect((await auth()).outcome).toBe('unknown_user');
    expect((await h.call('DELETE', h.acme(`/sip-credentials/${c.id}/tokens/${claims.jti}`))).status).toBe(404);
  });
});
