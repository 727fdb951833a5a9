// Email sender domains (spec "Email domain", its record table and status enums, "States and
// transitions / Email domain", "Endpoints / Email domains", the 503 and 404 error rows):
// every rule, every refusal (status, code, state unchanged), driven by the fake DNS and the
// virtual clock. The properties (zone -> statuses, no 5xx) are in email-domains.property.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness, type CallResult } from './helpers.ts';
import { router } from '../app.ts';
import { errorStatuses } from '../openapi.ts';
import { schemaErrors } from '../core/schema.ts';
import { ErrorBodySchema } from '../core/error-schema.ts';
import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURE_PATH, FixtureError, parseFixture } from '../fixture/load.ts';

type H = ReturnType<typeof harness>;
const HOUR = 3600;

let h: H;
const sim = (method: string, path: string, body?: unknown) => h.call(method, `/_sim${path}`, body, { key: null });
const snapshotText = () => JSON.stringify(h.sim.runtime.snapshot());

/** Every answer matches its documented schema, or is a documented error code (checked on each call). */
function documented(method: string, url: string, r: CallResult): CallResult {
  const m = router().match(method, url.split('?')[0]!);
  if (m.kind !== 'found') throw new Error(`${method} ${url} is not routed`);
  const success = m.value.responses[r.status];
  if (success) {
    if (success.schema) expect(schemaErrors(success.schema, r.json), `${method} ${url} -> ${r.status}`).toEqual([]);
  } else {
    expect(schemaErrors(ErrorBodySchema, r.json)).toEqual([]);
    expect(errorStatuses(m.value).get(r.status)?.map((i) => i.code) ?? [], `${method} ${url} -> ${r.status} ${r.text}`).toContain(r.json.code);
  }
  return r;
}

async function api(method: string, path: string, body?: unknown, who: { accountId: string; key: string } = ACME): Promise<CallResult> {
  const url = `/v1/accounts/${who.accountId}/email-domains${path}`;
  return documented(method, url, await h.call(method, url, body, { key: who.key }));
}
const register = (domain: string, who = ACME) => api('POST', '', { domain }, who);
const verify = (id: string, who = ACME) => api('POST', `/${id}/verification`, undefined, who);
const get = (id: string, who = ACME) => api('GET', `/${id}`, undefined, who);
const setReceiving = (id: string, receivingEnabled: boolean) => api('PATCH', `/${id}`, { receivingEnabled });
const plant = (emailDomainId: string, purposes?: string[]) => sim('POST', '/dns/plant', { emailDomainId, purposes });
const setRecords = (name: string, records: unknown[]) => sim('PUT', `/dns/records/${name}`, { records });
const removeRecords = (name: string) => sim('DELETE', `/dns/records/${name}`);
const fail = (rule: Record<string, unknown>) => sim('POST', '/dns/failures', rule);
const lift = () => sim('DELETE', '/dns/failures');
const advance = (seconds: number) => h.sim.clock.advance({ seconds });
const now = () => h.sim.clock.now();
const later = (seconds: number) => new Date(Date.parse(now()) + seconds * 1000).toISOString();
const recordsOf = (d: any, purpose: string) => d.dnsRecords.filter((r: any) => r.purpose === purpose);

/** Registers and verifies (DKIM planted); returns the domain as answered by the verification. */
async function verified(domain: string, purposes = ['dkim']): Promise<any> {
  const d = (await register(domain)).json;
  await plant(d.id, purposes);
  const v = await verify(d.id);
  expect(v.json.status).toBe('verified');
  return v.json;
}

beforeEach(() => {
  h = harness();
});

describe('registration and normalisation', () => {
  it('registers a pending domain with the spec\'s record table', async () => {
    const r = await register('example.com');
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      domain: 'example.com',
      status: 'pending',
      receivingEnabled: false,
      receivingStatus: null,
      receivingCheckedAt: null,
      mailFromStatus: null,
      dmarcStatus: null,
      lastCheckedAt: null,
      verifiedAt: null,
      pendingExpiresAt: later(72 * HOUR),
      createdAt: now(),
      updatedAt: now(),
    });
    expect(r.json.id).toMatch(/^ed_[0-9a-f]{24}$/);
    const dkim = recordsOf(r.json, 'dkim');
    expect(dkim).toHaveLength(3);
    for (const rec of dkim) {
      const token = rec.name.split('.')[0];
      expect(rec).toEqual({ purpose: 'dkim', requirement: 'required', type: 'CNAME', name: `${token}._domainkey.example.com`, value: `${token}.dkim.amazonses.com`, priority: null });
    }
    expect(new Set(dkim.map((x: any) => x.name)).size).toBe(3);
    expect(r.json.dnsRecords.slice(3)).toEqual([
      { purpose: 'mail_from_mx', requirement: 'recommended', type: 'MX', name: 'bounce.example.com', value: 'feedback-smtp.ap-northeast-2.amazonses.com', priority: 10 },
      { purpose: 'mail_from_spf', requirement: 'recommended', type: 'TXT', name: 'bounce.example.com', value: 'v=spf1 include:amazonses.com ~all', priority: null },
      { purpose: 'dmarc', requirement: 'recommended', type: 'TXT', name: '_dmarc.example.com', value: 'v=DMARC1; p=none;', priority: null },
    ]);
    for (const rec of r.json.dnsRecords) {
      expect(rec.priority === null, rec.purpose).toBe(rec.type !== 'MX');
      if (rec.type === 'TXT') expect(rec.value).not.toMatch(/"/);
    }
  });

  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  Mail.Example.com.  ', 'mail.example.com'],
    ['Bücher.de', 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['ＥＸＡＭＰＬＥ．ｃｏｍ', 'example.com'],
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['a-b--c.co.kr', 'a-b--c.co.kr'],
  ])('normalises %j to %j', async (input, expected) => {
    const r = await register(input);
    expect(r.status).toBe(201);
    expect(r.json.domain).toBe(expected);
    expect(recordsOf(r.json, 'mail_from_mx')[0].name).toBe(`bounce.${expected}`);
  });

  it('is idempotent for the same account, whatever the spelling', async () => {
    const first = (await register('bücher.de')).json;
    await advance(60);
    const before = snapshotText();
    for (const spelling of ['BÜCHER.DE.', 'xn--bcher-kva.de', ' Bücher.de ']) {
      const again = await register(spelling);
      expect(again.status).toBe(200);
      expect(again.json).toEqual(first);
    }
    expect(snapshotText()).toBe(before);
  });

  it('treats root and subdomain as separate domains, even across accounts', async () => {
    const root = await register('example.com');
    const sub = await register('mail.example.com');
    expect([root.status, sub.status]).toEqual([201, 201]);
    expect(sub.json.id).not.toBe(root.json.id);
    expect((await register('news.example.com', BISTRO)).status).toBe(201);
    expect((await api('GET', '', undefined, ACME)).json.meta.total).toBe(2);
  });

  it.each([
    ['', 'VALIDATION'],
    [' ', 'invalid_email_domain'],
    ['.', 'invalid_email_domain'],
    ['a..example.com', 'invalid_email_domain'],
    ['.example.com', 'invalid_email_domain'],
    ['example.com..', 'invalid_email_domain'],
    ['-a.example.com', 'invalid_email_domain'],
    ['a-.example.com', 'invalid_email_domain'],
    ['exa mple.com', 'invalid_email_domain'],
    ['exa_mple.com', 'invalid_email_domain'],
    ['ex%41mple.com', 'invalid_email_domain'],
    ['user@example.com', 'invalid_email_domain'],
    ['https://example.com', 'invalid_email_domain'],
    ['example.com/path', 'invalid_email_domain'],
    ['example.com:25', 'invalid_email_domain'],
    [`${'a'.repeat(64)}.com`, 'invalid_email_domain'],
    [`${Array.from({ length: 5 }, () => 'a'.repeat(60)).join('.')}.com`, 'invalid_email_domain'],
    ['com', 'invalid_email_domain'],
    ['localhost', 'invalid_email_domain'],
    ['192.0.2.1', 'invalid_email_domain'],
    ['1.2.3', 'invalid_email_domain'],
    ['xn--zz.com', 'invalid_email_domain'],
    ['a\u200db.com', 'invalid_email_domain'],
  ])('refuses the malformed name %j with 400 %s and changes nothing', async (domain, code) => {
    const before = snapshotText();
    const r = await register(domain);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(code);
    if (code === 'invalid_email_domain') expect(r.json.errors).toEqual([{ path: 'domain', message: expect.any(String) }]);
    expect(snapshotText()).toBe(before);
  });

  it('refuses bodies that are not {domain} with 400 VALIDATION', async () => {
    const before = snapshotText();
    for (const body of [undefined, {}, { domain: 7 }, { domain: null }, { domain: 'example.com', extra: 1 }, ['example.com'], { domain: 'x'.repeat(1025) }]) {
      const r = await api('POST', '', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
    }
    expect(snapshotText()).toBe(before);
  });
});

describe('ownership across accounts', () => {
  it('refuses another account\'s domain with 409 and hides it as 404 everywhere', async () => {
    const d = (await register('example.com')).json;
    const before = snapshotText();
    const taken = await register('EXAMPLE.com', BISTRO);
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('email_domain_taken');
    for (const [method, path, body] of [
      ['GET', `/${d.id}`],
      ['POST', `/${d.id}/verification`],
      ['PATCH', `/${d.id}`, { receivingEnabled: false }],
      ['DELETE', `/${d.id}`],
    ] as const) {
      const r = await api(method, path, body, BISTRO);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.code).toBe('email_domain_not_found');
    }
    expect((await api('GET', '', undefined, BISTRO)).json).toEqual({ data: [], meta: { page: 0, pageSize: 20, total: 0 } });
    expect(snapshotText()).toBe(before);
  });

  it('lets another account take a pending domain only after its claim expires', async () => {
    const d = (await register('example.com')).json;
    await h.sim.clock.advance({ to: d.pendingExpiresAt });
    expect((await register('example.com', BISTRO)).status).toBe(409); // "after this time": not at it
    await advance(0.001);
    const taken = await register('example.com', BISTRO);
    expect(taken.status).toBe(201);
    expect(taken.json.id).not.toBe(d.id);
    expect(taken.json.pendingExpiresAt).toBe(later(72 * HOUR));
    expect(recordsOf(taken.json, 'dkim').map((r: any) => r.value)).not.toEqual(recordsOf(d, 'dkim').map((r: any) => r.value));
    // The first account's registration is gone; the domain is now the other account's.
    expect((await get(d.id)).status).toBe(404);
    expect((await api('GET', '')).json.meta.total).toBe(0);
    expect((await register('example.com')).status).toBe(409);
  });

  it('re-registering your own lapsed claim returns it unchanged', async () => {
    const d = (await register('example.com')).json;
    await advance(100 * HOUR);
    const again = await register('example.com');
    expect(again.status).toBe(200);
    expect(again.json).toEqual(d);
  });

  it('each verification request of a pending domain moves pendingExpiresAt later', async () => {
    const d = (await register('example.com')).json;
    await advance(48 * HOUR);
    const v = await verify(d.id);
    expect(v.json.status).toBe('pending');
    expect(v.json.pendingExpiresAt).toBe(later(72 * HOUR));
    expect(v.json.pendingExpiresAt > d.pendingExpiresAt).toBe(true);
    await h.sim.clock.advance({ to: d.pendingExpiresAt });
    await advance(1);
    expect((await register('example.com', BISTRO)).status).toBe(409);
    // A request after the claim lapsed (nobody took it yet) renews it too.
    await advance(100 * HOUR);
    const renewed = await verify(d.id);
    expect(renewed.json.pendingExpiresAt).toBe(later(72 * HOUR));
    expect((await register('example.com', BISTRO)).status).toBe(409);
  });

  it('never releases a verified or failed domain', async () => {
    const d = await verified('example.com');
    expect(d.pendingExpiresAt).toBeNull();
    await advance(30 * 24 * HOUR);
    expect((await register('example.com', BISTRO)).status).toBe(409);
    for (const r of recordsOf(d, 'dkim')) await removeRecords(r.name);
    await advance(HOUR);
    expect((await get(d.id)).json).toMatchObject({ status: 'failed', pendingExpiresAt: null });
    await advance(30 * 24 * HOUR);
    expect((await register('example.com', BISTRO)).status).toBe(409);
  });
});

describe('verification (DKIM)', () => {
  it('stays pending until all three DKIM CNAMEs point at their targets', async () => {
    const d = (await register('example.com')).json;
    const [a, b, c] = recordsOf(d, 'dkim');
    await setRecords(a.name, [{ type: 'CNAME', value: a.value }]);
    await setRecords(b.name, [{ type: 'CNAME', value: b.value }]);
    await setRecords(c.name, [{ type: 'CNAME', value: 'elsewhere.example.net' }]);
    await advance(60);
    const v = await verify(d.id);
    expect(v.json).toMatchObject({ status: 'pending', verifiedAt: null, lastCheckedAt: now(), mailFromStatus: null });
    // The name doubled by a DNS host that appends the zone does not count either.
    await setRecords(`${c.name}.example.com`, [{ type: 'CNAME', value: c.value }]);
    expect((await verify(d.id)).json.status).toBe('pending');
    await setRecords(c.name, [{ type: 'CNAME', value: `${c.value.toUpperCase()}.` }]);
    await advance(60);
    const ok = await verify(d.id);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: 'verified', verifiedAt: now(), lastCheckedAt: now(), pendingExpiresAt: null, updatedAt: now() });
  });

  it('re-checks verified domains every hour: verified -> failed -> verified, verifiedAt kept', async () => {
    const d = await verified('example.com');
    const firstVerifiedAt = d.verifiedAt;
    const cname = recordsOf(d, 'dkim')[1];
    await advance(30 * 60);
    await removeRecords(cname.name);
    // GET and list return the stored state; nothing re-checks until the next hourly check.
    expect((await get(d.id)).json).toEqual(d);
    expect((await api('GET', '')).json.data[0]).toEqual(d);
    await advance(30 * 60 - 1);
    expect((await get(d.id)).json.status).toBe('verified');
    await advance(1);
    const failed = (await get(d.id)).json;
    expect(failed).toMatchObject({ status: 'failed', lastCheckedAt: now(), updatedAt: now(), verifiedAt: firstVerifiedAt });
    await advance(5 * HOUR);
    expect((await get(d.id)).json).toMatchObject({ status: 'failed', lastCheckedAt: now(), updatedAt: failed.updatedAt });
    await setRecords(cname.name, [{ type: 'CNAME', value: cname.value }]);
    await advance(HOUR);
    expect((await get(d.id)).json).toMatchObject({ status: 'verified', verifiedAt: firstVerifiedAt, lastCheckedAt: now(), pendingExpiresAt: null });
  });

  it('a verification request re-checks at once, in both directions', async () => {
    const d = await verified('example.com');
    const cname = recordsOf(d, 'dkim')[0];
    await removeRecords(cname.name);
    await advance(60);
    expect((await verify(d.id)).json).toMatchObject({ status: 'failed', lastCheckedAt: now() });
    await setRecords(cname.name, [{ type: 'CNAME', value: cname.value }]);
    await advance(60);
    expect((await verify(d.id)).json).toMatchObject({ status: 'verified', verifiedAt: d.verifiedAt, lastCheckedAt: now() });
  });

  it('does not check pending domains on the clock: only a verification request moves them', async () => {
    const d = (await register('example.com')).json;
    await plant(d.id, ['dkim']);
    await advance(24 * HOUR);
    expect((await get(d.id)).json).toEqual(d);
    expect((await verify(d.id)).json.status).toBe('verified');
  });

  it('keeps checking on its hourly grid after a snapshot is restored elsewhere', async () => {
    const d = await verified('example.com');
    await advance(20 * 60);
    const snap = (await sim('GET', '/state')).json;
    const other = harness();
    await other.call('PUT', '/_sim/state', snap, { key: null });
    await other.call('DELETE', `/_sim/dns/records/${recordsOf(d, 'dkim')[2].name}`, undefined, { key: null });
    await other.sim.clock.advance({ seconds: 40 * 60 });
    const after = (await other.call('GET', other.acme(`/email-domains/${d.id}`))).json;
    expect(after).toMatchObject({ status: 'failed', lastCheckedAt: '2026-03-02T01:00:00.000Z' });
    expect((await other.call('GET', '/_sim/clock', undefined, { key: null })).json.pendingJobs).toBe(1);
  });
});

describe('provider outage and lookup failures', () => {
  it('an outage answers 503 to a verification request and changes nothing', async () => {
    const d = await verified('example.com');
    await removeRecords(recordsOf(d, 'dkim')[0].name);
    await fail({ kind: 'outage' });
    await advance(60);
    const before = snapshotText();
    const r = await verify(d.id);
    expect(r.status).toBe(503);
    expect(r.json.code).toBe('email_provider_unavailable');
    expect(snapshotText()).toBe(before);
    // Periodic checks skip while the outage lasts: a verified domain is never flipped by it.
    await advance(5 * HOUR);
    expect((await get(d.id)).json).toEqual(d);
    await lift();
    await advance(HOUR);
    // Checks keep the hourly grid of the first verification (00:00).
    expect((await get(d.id)).json).toMatchObject({ status: 'failed', lastCheckedAt: '2026-03-02T06:00:00.000Z' });
  });

  it('an outage of one domain (and its subdomains) leaves other domains checkable', async () => {
    const a = (await register('example.com')).json;
    const b = (await register('mail.example.com')).json;
    const c = (await register('example.org')).json;
    for (const d of [a, b, c]) await plant(d.id, ['dkim']);
    await fail({ kind: 'outage', domain: 'example.com' });
    expect((await verify(a.id)).status).toBe(503);
    expect((await verify(b.id)).status).toBe(503);
    expect((await verify(c.id)).json.status).toBe('verified');
    expect((await get(a.id)).json).toEqual(a);
  });

  it('a DKIM lookup timeout is a 503 too; state kept', async () => {
    const d = (await register('example.com')).json;
    await plant(d.id, ['dkim']);
    await fail({ kind: 'timeout', name: recordsOf(d, 'dkim')[2].name });
    const before = snapshotText();
    const r = await verify(d.id);
    expect(r.status).toBe(503);
    expect(r.json.code).toBe('email_provider_unavailable');
    expect(snapshotText()).toBe(before);
    await lift();
    await fail({ kind: 'timeout', domain: 'example.com' });
    expect((await verify(d.id)).status).toBe(503);
    await lift();
    await fail({ kind: 'timeout' });
    expect((await verify(d.id)).status).toBe(503);
    await lift();
    expect((await verify(d.id)).json.status).toBe('verified');
  });

  it('lastCheckedAt moves only on successful lookups', async () => {
    const d = await verified('example.com');
    await fail({ kind: 'timeout' });
    await advance(3 * HOUR);
    expect((await get(d.id)).json.lastCheckedAt).toBe(d.lastCheckedAt);
    await lift();
    await advance(HOUR);
    expect((await get(d.id)).json.lastCheckedAt).toBe(now());
  });
});

describe('receiving', () => {
  it('can be turned on only for a verified domain (403, nothing changed)', async () => {
    const d = (await register('example.com')).json;
    const before = snapshotText();
    const r = await setReceiving(d.id, true);
    expect(r.status).toBe(403);
    expect(r.json.code).toBe('email_domain_not_verified');
    expect(snapshotText()).toBe(before);
    // Turning it off (already off) is fine and changes nothing.
    expect((await setReceiving(d.id, false)).json).toEqual(d);
    expect(snapshotText()).toBe(before);
  });

  it('lists the inbound MX only while on; receivingStatus pending until the next check', async () => {
    const d = await verified('example.com');
    await advance(60);
    const on = await setReceiving(d.id, true);
    expect(on.json).toMatchObject({ receivingEnabled: true, receivingStatus: 'pending', receivingCheckedAt: null, updatedAt: now() });
    expect(recordsOf(on.json, 'inbound')).toEqual([
      { purpose: 'inbound', requirement: 'optional', type: 'MX', name: 'example.com', value: 'inbound-smtp.ap-northeast-2.amazonaws.com', priority: 10 },
    ]);
    expect((await setReceiving(d.id, true)).json).toEqual(on.json);
    await advance(60);
    const off = await setReceiving(d.id, false);
    expect(off.json).toMatchObject({ receivingEnabled: false, receivingStatus: null, receivingCheckedAt: null, updatedAt: now() });
    expect(recordsOf(off.json, 'inbound')).toEqual([]);
  });

  it('follows the strictly-lowest-priority MX rule', async () => {
    const d = await verified('example.com');
    await setReceiving(d.id, true);
    const service = 'inbound-smtp.ap-northeast-2.amazonaws.com';
    const cases: [unknown[], string][] = [
      [[], 'not_found'],
      [[{ type: 'MX', value: 'mx.example.net', priority: 10 }], 'not_found'],
      [[{ type: 'MX', value: 'inbound-smtp.us-east-1.amazonaws.com', priority: 1 }], 'not_found'],
      [[{ type: 'MX', value: service, priority: 10 }], 'verified'],
      [[{ type: 'MX', value: service, priority: 10 }, { type: 'MX', value: 'mx.example.net', priority: 20 }], 'verified'],
      [[{ type: 'MX', value: service, priority: 10 }, { type: 'MX', value: 'mx.example.net', priority: 10 }], 'not_lowest_priority'],
      [[{ type: 'MX', value: service, priority: 10 }, { type: 'MX', value: 'mx.example.net', priority: 5 }], 'not_lowest_priority'],
      [[{ type: 'MX', value: service, priority: 30 }, { type: 'MX', value: service, priority: 0 }, { type: 'MX', value: 'mx.example.net', priority: 1 }], 'verified'],
      [[{ type: 'MX', value: `${service.toUpperCase()}.`, priority: 0 }], 'verified'],
    ];
    for (const [records, expected] of cases) {
      await setRecords('example.com', records);
      await advance(60);
      const v = await verify(d.id);
      expect(v.json.receivingStatus, JSON.stringify(records)).toBe(expected);
      expect(v.json.receivingCheckedAt).toBe(now());
    }
  });

  it('is unsupported_region when the domain\'s region does not receive (scriptable)', async () => {
    const d = await verified('example.com');
    await setReceiving(d.id, true);
    await setRecords('example.com', [{ type: 'MX', value: 'inbound-smtp.ap-northeast-2.amazonaws.com', priority: 10 }]);
    expect((await sim('PATCH', '/email-provider', { receivingRegions: ['us-east-1'] })).json).toEqual({ region: 'ap-northeast-2', receivingRegions: ['us-east-1'] });
    await advance(HOUR);
    expect((await get(d.id)).json).toMatchObject({ receivingStatus: 'unsupported_region', receivingCheckedAt: now() });
    // A domain registered in another region carries that region in its provider hosts.
    await sim('PATCH', '/email-provider', { region: 'us-east-1' });
    const other = (await register('example.org')).json;
    expect(recordsOf(other, 'mail_from_mx')[0].value).toBe('feedback-smtp.us-east-1.amazonses.com');
    expect((await get(d.id)).json.dnsRecords).toEqual(d.dnsRecords.concat(recordsOf((await get(d.id)).json, 'inbound')));
    await sim('PATCH', '/email-provider', { receivingRegions: ['ap-northeast-2'] });
    await advance(HOUR);
    expect((await get(d.id)).json.receivingStatus).toBe('verified');
  });

  it('stays unchanged (and never leaves verified) when the MX lookup or the provider fails', async () => {
    const d = await verified('example.com');
    await setReceiving(d.id, true);
    await setRecords('example.com', [{ type: 'MX', value: 'inbound-smtp.ap-northeast-2.amazonaws.com', priority: 10 }]);
    await advance(HOUR);
    const ok = (await get(d.id)).json;
    expect(ok.receivingStatus).toBe('verified');
    await removeRecords('example.com');
    await fail({ kind: 'timeout', name: 'example.com' });
    await advance(HOUR);
    const kept = (await get(d.id)).json;
    expect(kept).toMatchObject({ receivingStatus: 'verified', receivingCheckedAt: ok.receivingCheckedAt, lastCheckedAt: now() });
    await lift();
    await fail({ kind: 'outage' });
    await advance(HOUR);
    expect((await verify(d.id)).status).toBe(503);
    expect((await get(d.id)).json.receivingStatus).toBe('verified');
    await lift();
    await advance(HOUR);
    expect((await get(d.id)).json).toMatchObject({ receivingStatus: 'not_found', receivingCheckedAt: now() });
  });
});

describe('MAIL FROM', () => {
  it('is null while pending; detection starts at the first verification', async () => {
    const d = (await register('example.com')).json;
    await plant(d.id, ['mail_from_mx', 'mail_from_spf']);
    expect((await verify(d.id)).json.mailFromStatus).toBeNull();
    await plant(d.id, ['dkim']);
    expect((await verify(d.id)).json).toMatchObject({ status: 'verified', mailFromStatus: 'verified' });
  });

  it('gives up 72 hours after detection started; a new verification request resets it', async () => {
    const d = await verified('example.com');
    expect(d.mailFromStatus).toBe('pending');
    await advance(71 * HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('pending');
    await advance(HOUR);
    const gaveUp = (await get(d.id)).json;
    expect(gaveUp).toMatchObject({ mailFromStatus: 'failed', updatedAt: now() });
    // Planting the records alone does not revive it; a verification request does.
    await plant(d.id, ['mail_from_mx', 'mail_from_spf']);
    await advance(5 * HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('failed');
    expect((await verify(d.id)).json.mailFromStatus).toBe('verified');
  });

  it('a request while records are missing restarts the 72-hour window', async () => {
    const d = await verified('example.com');
    await advance(70 * HOUR);
    expect((await verify(d.id)).json.mailFromStatus).toBe('pending');
    await advance(71 * HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('pending');
    await advance(HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('failed');
  });

  it('needs both records on bounce.<domain>: exactly one MX to the region\'s feedback host, one SPF including amazonses.com', async () => {
    const d = await verified('example.com');
    const feedback = { type: 'MX', value: 'feedback-smtp.ap-northeast-2.amazonses.com', priority: 10 };
    const spf = { type: 'TXT', value: 'v=spf1 include:amazonses.com ~all' };
    const cases: [unknown[], string][] = [
      [[feedback], 'pending'],
      [[spf], 'pending'],
      [[feedback, { type: 'MX', value: 'mx.example.net', priority: 20 }, spf], 'pending'],
      [[{ ...feedback, value: 'feedback-smtp.us-east-1.amazonses.com' }, spf], 'pending'],
      [[feedback, { type: 'TXT', value: '"v=spf1 include:amazonses.com ~all"' }], 'pending'],
      [[feedback, { type: 'TXT', value: 'v=spf1 include:_spf.example.net ~all' }], 'pending'],
      [[feedback, spf, { type: 'TXT', value: 'v=spf1 -all' }], 'pending'],
      [[feedback, { type: 'TXT', value: 'V=SPF1 +include:AMAZONSES.COM -all' }, { type: 'TXT', value: 'site-verification=1' }], 'verified'],
      [[feedback, spf], 'verified'],
    ];
    for (const [records, expected] of cases) {
      await setRecords('bounce.example.com', records);
      expect((await verify(d.id)).json.mailFromStatus, JSON.stringify(records)).toBe(expected);
    }
    // Removed later: back to looking for them (pending), then given up 72 hours on.
    await removeRecords('bounce.example.com');
    await advance(HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('pending');
    await advance(72 * HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('failed');
  });

  it('does not give up while its lookups fail', async () => {
    const d = await verified('example.com');
    await fail({ kind: 'timeout', name: 'bounce.example.com' });
    await advance(100 * HOUR);
    expect((await get(d.id)).json).toMatchObject({ mailFromStatus: 'pending', lastCheckedAt: now() });
    await lift();
    await advance(HOUR);
    expect((await get(d.id)).json.mailFromStatus).toBe('failed');
  });
});

describe('DMARC', () => {
  it.each([
    [[], 'not_found', true],
    [['google-site-verification=abc'], 'not_found', true],
    [['v=DMARC1; p=none;'], 'monitor', false],
    [['v=DMARC1; p=none; rua=mailto:d@example.com'], 'monitor', false],
    [['v=DMARC1;p=quarantine'], 'enforced', false],
    [['V=dmarc1; P=Reject; pct=50'], 'enforced', false],
    [['v=DMARC1; p=none; aspf=s'], 'spf_strict', false],
    [['v=DMARC1; p=reject; aspf=s; adkim=s'], 'spf_strict', false],
    [['v=DMARC1; p=none; aspf=r'], 'monitor', false],
    [['v=DMARC1; rua=mailto:d@example.com'], 'not_found', false],
    [['v=DMARC1; aspf=s'], 'not_found', false],
    [['v=DMARC1; p=maybe'], 'not_found', false],
    [['"v=DMARC1; p=none;"'], 'not_found', true],
    [['v=DMARC1; p=none', 'v=DMARC1; p=reject'], 'not_found', false],
  ])('reads %j as %s (suggestion listed: %s)', async (txt, status, suggested) => {
    const d = (await register('example.com')).json;
    await setRecords('_dmarc.example.com', txt.map((value) => ({ type: 'TXT', value })));
    const v = (await verify(d.id)).json;
    expect(v.dmarcStatus).toBe(status);
    expect(recordsOf(v, 'dmarc').length).toBe(suggested ? 1 : 0);
  });

  it('inherits the nearest parent\'s record, and follows its removal', async () => {
    const d = (await register('news.mail.example.com')).json;
    await setRecords('_dmarc.example.com', [{ type: 'TXT', value: 'v=DMARC1; p=reject' }]);
    const v = (await verify(d.id)).json;
    expect(v.dmarcStatus).toBe('enforced');
    expect(recordsOf(v, 'dmarc')).toEqual([]);
    await setRecords('_dmarc.mail.example.com', [{ type: 'TXT', value: 'v=DMARC1; p=none' }]);
    expect((await verify(d.id)).json.dmarcStatus).toBe('monitor');
    await removeRecords('_dmarc.mail.example.com');
    await removeRecords('_dmarc.example.com');
    const gone = (await verify(d.id)).json;
    expect(gone.dmarcStatus).toBe('not_found');
    expect(recordsOf(gone, 'dmarc')).toHaveLength(1);
  });

  it('stays unchanged when a DMARC lookup fails', async () => {
    const d = (await register('mail.example.com')).json;
    await setRecords('_dmarc.example.com', [{ type: 'TXT', value: 'v=DMARC1; p=quarantine' }]);
    expect((await verify(d.id)).json.dmarcStatus).toBe('enforced');
    await setRecords('_dmarc.example.com', [{ type: 'TXT', value: 'v=DMARC1; p=none' }]);
    await fail({ kind: 'timeout', name: '_dmarc.example.com' });
    await advance(60);
    const v = (await verify(d.id)).json;
    expect(v).toMatchObject({ dmarcStatus: 'enforced', lastCheckedAt: now() });
    expect(recordsOf(v, 'dmarc')).toEqual([]);
  });
});

describe('list, get, delete', () => {
  it('lists newest registration first with paging; other accounts and deleted domains excluded', async () => {
    const ids: string[] = [];
    for (const name of ['a.example', 'b.example', 'c.example', 'd.example']) {
      ids.push((await register(`${name}.com`)).json.id);
    }
    await register('e.example.com', BISTRO);
    await api('DELETE', `/${ids[1]}`);
    const all = (await api('GET', '')).json;
    expect(all.data.map((d: any) => d.id)).toEqual([ids[3], ids[2], ids[0]]);
    expect(all.meta).toEqual({ page: 0, pageSize: 20, total: 3 });
    const page = (await api('GET', '?pageSize=2&page=1')).json;
    expect(page.data.map((d: any) => d.id)).toEqual([ids[0]]);
    expect(page.meta).toEqual({ page: 1, pageSize: 2, total: 3 });
    expect((await api('GET', '?limit=1')).json.data.map((d: any) => d.id)).toEqual([ids[3]]);
    for (const q of ['?pageSize=0', '?pageSize=101', '?page=-1', '?pageSize=x', '?pageSize=2&limit=3']) {
      const r = await api('GET', q);
      expect(r.status, q).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
    }
  });

  it('deletes with 204; a second delete and later calls are 404; the name is free again with new tokens', async () => {
    const d = await verified('example.com');
    expect((await sim('GET', '/clock')).json.pendingJobs).toBe(1);
    const del = await api('DELETE', `/${d.id}`);
    expect(del.status).toBe(204);
    expect((await sim('GET', '/clock')).json.pendingJobs).toBe(0);
    const before = snapshotText();
    for (const [method, path, body] of [
      ['DELETE', `/${d.id}`],
      ['GET', `/${d.id}`],
      ['POST', `/${d.id}/verification`],
      ['PATCH', `/${d.id}`, { receivingEnabled: true }],
    ] as const) {
      const r = await api(method, path, body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.code).toBe('email_domain_not_found');
    }
    expect(snapshotText()).toBe(before);
    const again = await register('example.com', BISTRO);
    expect(again.status).toBe(201);
    expect(again.json.status).toBe('pending');
    expect(recordsOf(again.json, 'dkim')).not.toEqual(recordsOf(d, 'dkim'));
  });

  it('refuses bad update bodies and unknown ids with a stable code, changing nothing', async () => {
    const d = await verified('example.com');
    const before = snapshotText();
    const cases: [unknown, number, string][] = [
      [undefined, 400, 'VALIDATION'],
      [{}, 400, 'VALIDATION'],
      [{ receivingEnabled: 'yes' }, 400, 'VALIDATION'],
      [{ receivingEnabled: true, note: 'x' }, 400, 'VALIDATION'],
      [{ domain: 'other.com' }, 400, 'IMMUTABLE_FIELD'],
      [{ domain: 'other.com', receivingEnabled: true }, 400, 'IMMUTABLE_FIELD'],
    ];
    for (const [body, status, code] of cases) {
      const r = await api('PATCH', `/${d.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.json.code).toBe(code);
    }
    for (const id of ['ed_000000000000000000000000', 'nope', '%F0%9F%92%A5']) {
      expect((await api('GET', `/${id}`)).json.code).toBe('email_domain_not_found');
      expect((await verify(id)).status).toBe(404);
    }
    expect(snapshotText()).toBe(before);
  });
});

describe('snapshots', () => {
  it('refuse email-domain state that breaks the rules (one owner per domain, normalised names), keeping the state', async () => {
    await register('example.com');
    const snap = (await sim('GET', '/state')).json;
    const before = snapshotText();
    const twice = structuredClone(snap);
    twice.models.emailDomains.domains.push({ ...twice.models.emailDomains.domains[0], id: 'ed_111111111111111111111111', accountId: BISTRO.accountId });
    const upper = structuredClone(snap);
    upper.models.emailDomains.domains[0].domain = 'Example.COM';
    const badToken = structuredClone(snap);
    badToken.models.emailDomains.domains[0].dkimTokens = ['x'];
    for (const bad of [twice, upper, badToken]) {
      const r = await sim('PUT', '/state', bad);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
    }
    expect(snapshotText()).toBe(before);
  });
});

describe('determinism', () => {
  it('the same seed gives the same ids and DKIM tokens; another seed other ones', async () => {
    const run = async (seed: number) => {
      const local = harness({ seed });
      return (await local.call('POST', local.acme('/email-domains'), { domain: 'example.com' })).text;
    };
    expect(await run(3)).toBe(await run(3));
    expect(await run(4)).not.toBe(await run(3));
  });
});

describe('email provider settings', () => {
  const withEmail = (email: string) => `${readFileSync(DEFAULT_FIXTURE_PATH, 'utf8')}\nemail:\n${email}\n`;

  it('come from the fixture, and reset returns to them', async () => {
    h = harness({ fixture: { yaml: withEmail('  region: eu-west-1\n  receivingRegions: [us-east-1]') } });
    expect((await sim('GET', '/email-provider')).json).toEqual({ region: 'eu-west-1', receivingRegions: ['us-east-1'] });
    const d = await verified('example.com');
    expect(recordsOf(d, 'mail_from_mx')[0].value).toBe('feedback-smtp.eu-west-1.amazonses.com');
    const on = (await setReceiving(d.id, true)).json;
    expect(recordsOf(on, 'inbound')[0].value).toBe('inbound-smtp.eu-west-1.amazonaws.com');
    await setRecords('example.com', [{ type: 'MX', value: 'inbound-smtp.eu-west-1.amazonaws.com', priority: 0 }]);
    expect((await verify(d.id)).json.receivingStatus).toBe('unsupported_region');
    await sim('PATCH', '/email-provider', { receivingRegions: ['eu-west-1', 'eu-west-1'] });
    expect((await sim('GET', '/email-provider')).json.receivingRegions).toEqual(['eu-west-1']);
    expect((await verify(d.id)).json.receivingStatus).toBe('verified');
    await sim('POST', '/reset', {});
    expect((await sim('GET', '/email-provider')).json).toEqual({ region: 'eu-west-1', receivingRegions: ['us-east-1'] });
  });

  it('refuse bad regions, in the fixture and on the control plane', async () => {
    expect(() => parseFixture(withEmail('  region: Seoul'), 'f.yaml')).toThrow(FixtureError);
    expect(() => parseFixture(withEmail('  regions: [us-east-1]'), 'f.yaml')).toThrow(/email\.regions: is not a known field/);
    const before = snapshotText();
    for (const body of [{ region: 'Seoul' }, { receivingRegions: ['x'] }, { colour: 1 }, undefined]) {
      expect((await sim('PATCH', '/email-provider', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(snapshotText()).toBe(before);
  });
});
