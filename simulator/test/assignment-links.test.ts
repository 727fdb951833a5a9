// Assignment links (spec "Assignment link", its state table, endpoints, limits and errors) and the
// end user's session (public API document, AssignmentSessions) with the fake identity provider.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;
const REQUIRED = ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'];
const ALL_AGREED = { items: [...REQUIRED, 'management.marketing'].map((k) => ({ clauseKey: k, agreed: k !== 'management.marketing' })) };

const made: H[] = [];
afterEach(async () => {
  await closeAllReceivers();
  await Promise.all(made.splice(0).map((h) => h.sim.close()));
});
function sim(): H {
  const h = harness({ webhooks: { timeoutMs: 2000 } });
  made.push(h);
  return h;
}

async function domains(h: H, list: string[], accountId = ACME.accountId) {
  return h.sim.control.request('PUT', `/accounts/${accountId}/issuing-page`, { domains: list });
}
async function create(h: H, body?: unknown) {
  return h.call('POST', h.acme('/assignment-links'), body, { headers: { host: 'sim.test:4010' } });
}
async function link(h: H, id: string) {
  return h.call('GET', h.acme(`/assignment-links/${id}`));
}
function session(h: H, token: string) {
  return {
    get: () => h.call('GET', `/v1/assignment-sessions/${token}`, undefined, { key: null }),
    post: (path: string, body?: unknown) => h.call('POST', `/v1/assignment-sessions/${token}${path}`, body, { key: null }),
  };
}
/** Runs a session up to (not including) finalize; returns the verification id. */
async function toReady(h: H, token: string, person = { name: '홍길동', birthDate: '1990-05-17' }): Promise<string> {
  const s = session(h, token);
  expect((await s.post('/subscriber-type', { subscriberType: 'individual' })).status).toBe(200);
  expect((await s.post('/consents', ALL_AGREED)).status).toBe(200);
  const iv = await s.post('/identity-verifications');
  expect(iv.status).toBe(201);
  await h.sim.control.request('POST', `/kyc/verifications/${iv.json.identityVerificationId}/complete`, person);
  expect((await s.post('/identity-verifications/resume')).status).toBe(200);
  return iv.json.identityVerificationId;
}

describe('creating links', () => {
  it('an empty body gives 201 {token,url,expiresAt}: 7 days, the url on the caller\'s origin, the token is the linkId', async () => {
    const h = sim();
    const r = await create(h);
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual(['expiresAt', 'token', 'url']);
    expect(r.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.json.url).toBe(`http://sim.test:4010/assign/${r.json.token}`);
    expect(r.json.expiresAt).toBe('2026-03-09T00:00:00.000Z');
    const got = await link(h, r.json.token);
    expect(got.json).toEqual({
      linkId: r.json.token, url: r.json.url, status: 'pending', createdAt: '2026-03-02T00:00:00.000Z', expiresAt: '2026-03-09T00:00:00.000Z',
      consumedAt: null, webhookUrl: null, webhookMethod: 'POST', note: null, returnUrl: null, webhookHeaders: null, assignment: null,
    });
  });

  it('ttlSeconds 60 to 604800; note at most 200 characters; 400 and nothing created otherwise', async () => {
    const h = sim();
    for (const body of [{ ttlSeconds: 59 }, { ttlSeconds: 604801 }, { ttlSeconds: 90.5 }, { ttlSeconds: '600' }, { note: 'x'.repeat(201) }, { webhookMethod: 'PUT' }, { webhookUrl: 'not a url' }, { notes: 'typo' }]) {
      const r = await create(h, body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([400, 'VALIDATION']);
    }
    expect((await h.call('GET', h.acme('/assignment-links'))).json.meta.total).toBe(0);
    expect((await create(h, { ttlSeconds: 60, note: 'x'.repeat(200) })).json.expiresAt).toBe('2026-03-02T00:01:00.000Z');
    expect((await create(h, { ttlSeconds: 604800 })).json.expiresAt).toBe('2026-03-09T00:00:00.000Z');
  });

  it('returnUrl: the host must equal a registered issuing-page domain; subdomains and other hosts are 400', async () => {
    const h = sim();
    expect((await create(h, { returnUrl: 'https://shop.example.com/done' })).status).toBe(400);
    await domains(h, ['shop.example.com', 'EXAMPLE.org']);
    for (const url of ['https://app.shop.example.com/x', 'https://example.com/x', 'https://shop.example.com.evil.test/', 'ftp://shop.example.com/x']) {
      const r = await create(h, { returnUrl: url });
      expect([r.status, r.json.code], url).toEqual([400, 'VALIDATION']);
    }
    expect((await create(h, { returnUrl: 'https://shop.example.com:8443/done?x=1' })).status).toBe(201);
    expect((await create(h, { returnUrl: 'http://example.org/back' })).status).toBe(201);
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/issuing-page`)).domains).toEqual(['shop.example.com', 'example.org']);
  });

  it('issuing-page domains can come from the fixture and return after a reset', async () => {
    const fixture = structuredClone(harness().sim.fixture);
    fixture.accounts[0]!.issuingPageDomains = ['Shop.Example.com'];
    const h = harness({ fixture });
    made.push(h);
    expect((await create(h, { returnUrl: 'https://shop.example.com/x' })).status).toBe(201);
    await domains(h, []);
    expect((await create(h, { returnUrl: 'https://shop.example.com/x' })).status).toBe(400);
    await h.sim.control.request('POST', '/reset', {});
    expect((await create(h, { returnUrl: 'https://shop.example.com/x' })).status).toBe(201);
  });

  it('webhookHeaders follow the number rules (X- prefix, reserved names refused)', async () => {
    const h = sim();
    expect((await create(h, { webhookHeaders: { Authorization: 'x' } })).status).toBe(400);
    expect((await create(h, { webhookHeaders: { 'X-Signature': 'x' } })).status).toBe(400);
    const ok = await create(h, { webhookHeaders: { 'X-Tenant': 't1' }, webhookMethod: 'GET', webhookUrl: 'https://hooks.example.com/in' });
    expect((await link(h, ok.json.token)).json).toMatchObject({ webhookHeaders: { 'X-Tenant': 't1' }, webhookMethod: 'GET', webhookUrl: 'https://hooks.example.com/in' });
  });

  it('403 FEATURE_DISABLED without the add-on for create and cancel; reading works regardless', async () => {
    const h = sim();
    const made = await create(h);
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: ['sip_trunk'] });
    const r = await create(h);
    expect([r.status, r.json.code]).toEqual([403, 'FEATURE_DISABLED']);
    const d = await h.call('DELETE', h.acme(`/assignment-links/${made.json.token}`));
    expect([d.status, d.json.code]).toEqual([403, 'FEATURE_DISABLED']);
    expect((await link(h, made.json.token)).json.status).toBe('pending');
    expect((await h.call('GET', h.acme('/assignment-links'))).json.meta.total).toBe(1);
    const bistro = await h.call('POST', h.bistro('/assignment-links'), undefined, { key: BISTRO.key });
    expect([bistro.status, bistro.json.code]).toEqual([403, 'FEATURE_DISABLED']);
  });

  it('422 NO_SUBSCRIPTION without an active subscription; 422 QUOTA_EXCEEDED when lines plus pending links reach the plan limit', async () => {
    const h = sim();
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    expect((await create(h)).json.code).toBe('NO_SUBSCRIPTION');
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'active', startedAt: '2026-01-15T03:00:00Z' }, plan: 'starter', addons: ['external_assignment'] });
    // Starter allows 3 lines; ACME holds 3 numbers already.
    const full = await create(h);
    expect([full.status, full.json.code]).toEqual([422, 'QUOTA_EXCEEDED']);
    await h.call('DELETE', h.acme('/numbers/15881234'));
    const one = await create(h);
    expect(one.status).toBe(201);
    expect((await create(h)).json.code).toBe('QUOTA_EXCEEDED'); // the pending link holds the slot
    await h.call('DELETE', h.acme(`/assignment-links/${one.json.token}`));
    expect((await create(h)).status).toBe(201); // a revoked link frees it
  });
});

describe('the state table', () => {
  it('pending -> expired when the TTL elapses (not a moment before); an expired link cannot be cancelled', async () => {
    const h = sim();
    const { json } = await create(h, { ttlSeconds: 60 });
    await h.sim.clock.advance({ seconds: 59 });
    expect((await link(h, json.token)).json.status).toBe('pending');
    await h.sim.clock.advance({ seconds: 1 });
    expect((await link(h, json.token)).json.status).toBe('expired');
    const d = await h.call('DELETE', h.acme(`/assignment-links/${json.token}`));
    expect([d.status, d.json.code, d.json.status]).toEqual([409, 'NOT_PENDING', 'expired']);
    const s = await session(h, json.token).get();
    expect([s.status, s.json.code, s.json.status]).toEqual([410, 'ASSIGNMENT_SESSION_GONE', 'expired']);
  });

  it('pending -> revoked by DELETE (200 {ok:true}); again is 409 NOT_PENDING; the session is 410', async () => {
    const h = sim();
    const { json } = await create(h);
    const d = await h.call('DELETE', h.acme(`/assignment-links/${json.token}`));
    expect([d.status, d.json]).toEqual([200, { ok: true }]);
    expect((await link(h, json.token)).json.status).toBe('revoked');
    const again = await h.call('DELETE', h.acme(`/assignment-links/${json.token}`));
    expect([again.status, again.json.code, again.json.status]).toEqual([409, 'NOT_PENDING', 'revoked']);
    await h.sim.clock.advance({ seconds: 604800 });
    expect((await link(h, json.token)).json.status).toBe('revoked'); // the expiry job leaves it
    for (const r of [await session(h, json.token).get(), await session(h, json.token).post('/subscriber-type', { subscriberType: 'individual' })]) {
      expect([r.status, r.json.code, r.json.status]).toEqual([410, 'ASSIGNMENT_SESSION_GONE', 'revoked']);
    }
  });

  it('pending -> consumed by the session: the number is issued with the link\'s webhook settings, assignment filled, webhook sent', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['assignment.completed'] });
    await domains(h, ['app.example.com']);
    const { json } = await create(h, { note: 'customer #42', webhookUrl: 'https://hooks.example.com/in', webhookMethod: 'GET', webhookHeaders: { 'X-Tenant': 't42' }, returnUrl: 'https://app.example.com/done' });
    await toReady(h, json.token);
    await h.sim.clock.advance({ seconds: 30 });
    const f = await session(h, json.token).post('/finalize');
    expect([f.status, f.json]).toEqual([201, { assignedNumber: '07040000000' }]);

    const got = (await link(h, json.token)).json;
    expect(got).toMatchObject({ status: 'consumed', consumedAt: '2026-03-02T00:00:30.000Z', assignment: { number: '07040000000', name: '홍길동', consumedAt: '2026-03-02T00:00:30.000Z', releasedAt: null } });
    const numbers = (await h.call('GET', h.acme('/numbers'))).json.data;
    expect(numbers[0]).toMatchObject({ number: '07040000000', webhookUrl: 'https://hooks.example.com/in', webhookMethod: 'GET', webhookHeaders: { 'X-Tenant': 't42' } });

    await h.sim.webhooks.settle();
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]!.fields).toMatchObject({ Event: 'assignment.completed', LinkId: json.token, Note: 'customer #42', PhoneNumber: '07040000000', AccountId: ACME.accountId });

    const d = await h.call('DELETE', h.acme(`/assignment-links/${json.token}`));
    expect([d.status, d.json.code, d.json.status]).toEqual([409, 'NOT_PENDING', 'consumed']);
    await h.sim.clock.advance({ seconds: 604800 });
    expect((await link(h, json.token)).json.status).toBe('consumed');
    const s = await session(h, json.token).get();
    expect(s.json).toMatchObject({ status: 'consumed', step: 'done', assignedNumber: '07040000000' });
  });

  it('single use: a replayed token and a second finalize at the same instant are 409; exactly one number is issued', async () => {
    const h = sim();
    const { json } = await create(h);
    await toReady(h, json.token);
    const [a, b] = await Promise.all([session(h, json.token).post('/finalize'), session(h, json.token).post('/finalize')]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect([a, b].find((r) => r.status === 409)!.json.code).toBe('ASSIGNMENT_SESSION_USED');
    for (const step of ['/subscriber-type', '/consents', '/identity-verifications', '/identity-verifications/resume']) {
      const body = step === '/subscriber-type' ? { subscriberType: 'individual' } : step === '/consents' ? ALL_AGREED : undefined;
      expect((await session(h, json.token).post(step, body)).json.code, step).toBe('ASSIGNMENT_SESSION_USED');
    }
    expect((await h.call('GET', h.acme('/numbers'))).json.data.filter((n: any) => n.number.startsWith('0704')).length).toBe(1);
  });
});

describe('list and get', () => {
  it('newest first, status filter, 0-based paging 1 to 100, 404 for an unknown or another account\'s link', async () => {
    const h = sim();
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push((await create(h, { note: `n${i}` })).json.token);
    await h.call('DELETE', h.acme(`/assignment-links/${tokens[1]}`));
    const all = (await h.call('GET', h.acme('/assignment-links'))).json;
    expect(all.data.map((l: any) => l.note)).toEqual(['n2', 'n1', 'n0']);
    expect(all.meta).toEqual({ page: 0, pageSize: 20, total: 3 });
    expect((await h.call('GET', h.acme('/assignment-links?status=revoked'))).json.data.map((l: any) => l.linkId)).toEqual([tokens[1]]);
    expect((await h.call('GET', h.acme('/assignment-links?status=pending&pageSize=1&page=1'))).json).toMatchObject({ data: [{ note: 'n0' }], meta: { page: 1, pageSize: 1, total: 2 } });
    for (const q of ['status=used', 'pageSize=0', 'pageSize=101', 'page=-1', 'pageSize=x']) {
      expect((await h.call('GET', h.acme(`/assignment-links?${q}`))).status, q).toBe(400);
    }
    const none = await link(h, 'A'.repeat(43));
    expect([none.status, none.json.code]).toEqual([404, 'ASSIGNMENT_LINK_NOT_FOUND']);
    const other = await h.call('GET', h.bistro(`/assignment-links/${tokens[0]}`), undefined, { key: BISTRO.key });
    expect(other.status).toBe(404);
    expect((await h.call('GET', h.bistro('/assignment-links'), undefined, { key: BISTRO.key })).json.meta.total).toBe(0);
  });
});

describe('the session', () => {
  it('steps out of order are 409 STEP_OUT_OF_ORDER with the current step; nothing changes', async () => {
    const h = sim();
    const { json } = await create(h);
    const s = session(h, json.token);
    for (const [path, body] of [['/consents', ALL_AGREED], ['/identity-verifications', undefined], ['/identity-verifications/resume', undefined], ['/finalize', undefined]] as const) {
      const r = await s.post(path, body);
      expect([r.status, r.json.code, r.json.step], path).toEqual([409, 'STEP_OUT_OF_ORDER', 'selectType']);
    }
    expect((await s.get()).json.step).toBe('selectType');
    await s.post('/subscriber-type', { subscriberType: 'corporate' });
    expect((await s.post('/subscriber-type', { subscriberType: 'individual' })).status).toBe(200); // may change before consents
    expect((await s.get()).json).toMatchObject({ step: 'consents', subscriberType: 'individual' });
    await s.post('/consents', ALL_AGREED);
    expect((await s.post('/subscriber-type', { subscriberType: 'corporate' })).json.code).toBe('STEP_OUT_OF_ORDER');
  });

  it('422 for a subscriber type outside the enum and for a required clause not agreed (missing listed)', async () => {
    const h = sim();
    const { json } = await create(h);
    const s = session(h, json.token);
    const bad = await s.post('/subscriber-type', { subscriberType: 'robot' });
    expect([bad.status, bad.json.code]).toEqual([422, 'INVALID_SUBSCRIBER_TYPE']);
    await s.post('/subscriber-type', { subscriberType: 'individual' });
    const partial = await s.post('/consents', { items: [{ clauseKey: 'management.terms', agreed: true }, { clauseKey: 'management.privacy', agreed: false }] });
    expect([partial.status, partial.json.code, partial.json.missing]).toEqual([422, 'CONSENT_REQUIRED', ['management.account', 'management.privacy', 'management.thirdParty']]);
    expect((await s.get()).json.step).toBe('consents');
    expect((await s.post('/consents', { items: [] })).status).toBe(400);
  });

  it('the provider: not completed, abandoned, name mismatch, too young each 409 and a new attempt works; provider error 502; rate limit 429', async () => {
    const h = sim();
    const { json } = await create(h);
    const s = session(h, json.token);
    await s.post('/subscriber-type', { subscriberType: 'individual' });
    await s.post('/consents', ALL_AGREED);
    const start = async () => (await s.post('/identity-verifications')).json.identityVerificationId as string;
    const complete = (id: string, body: unknown) => h.sim.control.request('POST', `/kyc/verifications/${id}/complete`, body);

    let id = await start();
    expect((await s.post('/identity-verifications/resume')).json.code).toBe('IDENTITY_NOT_VERIFIED');
    await complete(id, { result: 'abandoned' });
    expect((await s.post('/identity-verifications/resume')).json.code).toBe('IDENTITY_NOT_VERIFIED');

    id = await start();
    await h.sim.control.request('PUT', '/kyc', { nextResult: 'name_mismatch' });
    await complete(id, { name: '김철수', birthDate: '1990-01-01' });
    const mismatch = await s.post('/identity-verifications/resume');
    expect([mismatch.status, mismatch.json.code]).toEqual([409, 'IDENTITY_NAME_MISMATCH']);

    id = await start();
    await complete(id, { name: '어린이', birthDate: '2015-01-01' });
    expect((await s.post('/identity-verifications/resume')).json.code).toBe('IDENTITY_AGE_RESTRICTED');

    id = await start();
    await complete(id, { name: '홍길동', birthDate: '1990-01-01' });
    await h.sim.control.request('PUT', '/kyc', { failure: 'provider_error' });
    const down = await s.post('/identity-verifications/resume');
    expect([down.status, down.json.code]).toEqual([502, 'IDENTITY_PROVIDER_ERROR']);
    expect((await s.get()).json.step).toBe('verify');

    await h.sim.control.request('PUT', '/kyc', { failure: 'rate_limited' });
    const limited = await s.post('/identity-verifications');
    expect([limited.status, limited.json.code]).toEqual([429, 'IDENTITY_VERIFICATION_RATE_LIMITED']);
    await h.sim.control.request('PUT', '/kyc', { failure: 'none' });
    // Four started so far; one more is allowed, the sixth is 429.
    await start();
    expect((await s.post('/identity-verifications')).status).toBe(429);
    // Resume reads the newest verification, which is still open.
    expect((await s.post('/identity-verifications/resume')).json.code).toBe('IDENTITY_NOT_VERIFIED');
  });

  it('an unknown token is 404; the add-on off is 403 ASSIGNMENT_ADDON_INACTIVE on every session operation', async () => {
    const h = sim();
    const none = await session(h, 'x'.repeat(43)).get();
    expect([none.status, none.json.code]).toEqual([404, 'ASSIGNMENT_SESSION_NOT_FOUND']);
    const { json } = await create(h);
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: [] });
    for (const r of [await session(h, json.token).get(), await session(h, json.token).post('/subscriber-type', { subscriberType: 'individual' })]) {
      expect([r.status, r.json.code]).toEqual([403, 'ASSIGNMENT_ADDON_INACTIVE']);
    }
  });

  it('finalize refusals issue nothing: pool exhausted 409, line limit 409', async () => {
    const h = sim();
    const { json } = await create(h);
    await toReady(h, json.token);
    const rt = runtimeOf(h.sim);
    const savedPool = { ...rt.numbers.pool };
    rt.numbers.pool = { first: '07040000000', size: 0, nextOffset: 0, returned: [] };
    const empty = await session(h, json.token).post('/finalize');
    expect([empty.status, empty.json.code]).toEqual([409, 'NUMBER_STOCK_EXHAUSTED']);
    rt.numbers.pool = savedPool;
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { plan: 'starter' });
    const full = await session(h, json.token).post('/finalize');
    expect([full.status, full.json.code]).toEqual([409, 'LINE_LIMIT_REACHED']);
    expect((await link(h, json.token)).json.status).toBe('pending');
    expect((await session(h, json.token).get()).json.step).toBe('ready');
  });
});

describe('managed numbers afterwards', () => {
  it('the issued number is listed; deleting it sets releasedAt; usage by link is cut at the assignment', async () => {
    const h = sim();
    const { json } = await create(h);
    await toReady(h, json.token);
    const number = (await session(h, json.token).post('/finalize')).json.assignedNumber;
    expect((await h.call('GET', h.acme('/numbers'))).json.data.map((n: any) => n.number)).toContain(number);

    // A text sent from the managed number carries the link in usage.
    await h.sim.clock.advance({ seconds: 60 });
    expect((await h.call('POST', h.acme('/messages'), { From: number, To: '01012345678', Body: 'hi' })).status).toBe(201);
    await h.sim.clock.advance({ seconds: 3600 });
    await h.sim.clock.advance({ seconds: 86400 });
    const usage = (await h.call('GET', h.acme('/usage?from=2026-03-01T00:00:00Z&to=2026-03-04T00:00:00Z&groupBy=linkId&groupBy=number&meter=sms'))).json;
    expect(usage.records).toEqual([expect.objectContaining({ meter: 'sms', quantity: 1, linkId: json.token, phoneNumber: number })]);

    await h.sim.clock.advance({ seconds: 100 });
    expect((await h.call('DELETE', h.acme(`/numbers/${number}`))).status).toBe(204);
    const after = (await link(h, json.token)).json;
    expect(after.assignment).toMatchObject({ number, releasedAt: h.sim.clock.now() });
    expect(after.status).toBe('consumed');
  });

  it('texts to the issued number reach the link\'s webhookUrl with its method and headers', async () => {
    const h = sim();
    const inbound = await startReceiver();
    const { json } = await create(h, { webhookUrl: inbound.url, webhookMethod: 'GET', webhookHeaders: { 'X-Tenant': 't42' } });
    await toReady(h, json.token);
    const number = (await session(h, json.token).post('/finalize')).json.assignedNumber;
    await h.sim.control.request('POST', '/carrier/inbound', { from: '010-2222-3333', to: number, body: '안녕하세요' });
    await h.sim.webhooks.settle();
    expect(inbound.requests).toHaveLength(1);
    expect(inbound.requests[0]).toMatchObject({ method: 'GET', headers: { 'x-tenant': 't42' }, fields: { To: number, Body: '안녕하세요' } });
  });

  it('state survives a snapshot round trip, and reset forgets links and domains', async () => {
    const h = sim();
    await domains(h, ['app.example.com']);
    const { json } = await create(h, { returnUrl: 'https://app.example.com/' });
    await toReady(h, json.token);
    const snap = await h.sim.control.request('GET', '/state');
    await h.sim.control.request('POST', '/reset', {});
    expect((await link(h, json.token)).status).toBe(404);
    await h.sim.control.request('PUT', '/state', snap);
    expect((await session(h, json.token).post('/finalize')).status).toBe(201);
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/issuing-page`)).domains).toEqual(['app.example.com']);
  });
});
