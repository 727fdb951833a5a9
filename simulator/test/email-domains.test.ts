// Email sender domains (spec "Email domain", its record table and status enums, "States and
// transitions / Email domain", "Endpoints / Email domains", the 503 and 404 error rows):
// registration, ownership across accounts, DKIM verification, provider outages and lookup
// failures; every refusal (status, code, state unchanged), driven by the fake DNS and the
// virtual clock. The properties (zone -> statuses, no 5xx) are in email-domains.property.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { useHarness, HOUR, h, sim, snapshotText, api, register, verify, get, plant, setRecords, removeRecords, fail, lift, advance, now, later, recordsOf, verified } from './email-domains-helpers.ts';

beforeEach(() => useHarness(harness()));

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
