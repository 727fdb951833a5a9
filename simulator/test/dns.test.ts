// The fake DNS peer (simulator/peers/dns/) and its control plane (/_sim/dns): records per
// name, normalisation, scripted failures and their scopes, snapshot and reset.
import { beforeEach, describe, expect, it } from 'vitest';
import { FakeDns } from '../peers/dns/model.ts';
import { ApiError } from '../core/errors.ts';
import { harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

describe('FakeDns', () => {
  let dns: FakeDns;
  beforeEach(() => {
    dns = new FakeDns();
  });

  it('sets, replaces and removes the records of a name; lookups answer by exact name and type', () => {
    dns.set(dns.prepare('Example.COM.', [
      { type: 'MX', value: 'MX1.Example.com.', priority: 10 },
      { type: 'TXT', value: 'v=spf1 -all' },
      { type: 'MX', value: 'mx1.example.com', priority: 10 },
    ]));
    expect(dns.recordsAt('example.com')).toEqual([
      { name: 'example.com', type: 'MX', value: 'mx1.example.com', priority: 10 },
      { name: 'example.com', type: 'TXT', value: 'v=spf1 -all', priority: null },
    ]);
    expect(dns.lookup('example.com', 'MX')).toEqual({ ok: true, records: [{ name: 'example.com', type: 'MX', value: 'mx1.example.com', priority: 10 }] });
    expect(dns.lookup('example.com', 'CNAME')).toEqual({ ok: true, records: [] });
    expect(dns.lookup('www.example.com', 'MX')).toEqual({ ok: true, records: [] });

    dns.set(dns.prepare('example.com', [{ type: 'MX', value: 'mx2.example.com', priority: 5 }]));
    expect(dns.recordsAt('example.com').map((r) => r.value)).toEqual(['mx2.example.com']);
    dns.add([{ name: 'example.com', type: 'TXT', value: '"quoted"', priority: null }]);
    expect(dns.remove('example.com', 'MX')).toBe(1);
    expect(dns.recordsAt('example.com')).toEqual([{ name: 'example.com', type: 'TXT', value: '"quoted"', priority: null }]);
    dns.set(dns.prepare('example.com', []));
    expect(dns.allRecords()).toEqual([]);
  });

  it('keeps TXT values verbatim (quotes included) and normalises host names in CNAME and MX', () => {
    dns.set(dns.prepare('_dmarc.bücher.de', [{ type: 'TXT', value: '"v=DMARC1; p=none"' }]));
    expect(dns.recordsAt('_dmarc.xn--bcher-kva.de')[0]!.value).toBe('"v=DMARC1; p=none"');
    dns.set(dns.prepare('x._domainkey.example.com', [{ type: 'CNAME', value: 'X.DKIM.AMAZONSES.COM.' }]));
    expect(dns.recordsAt('x._domainkey.example.com')[0]!.value).toBe('x.dkim.amazonses.com');
  });

  it('refuses malformed records with 400 and stores nothing', () => {
    const bad: [string, Parameters<FakeDns['prepare']>[1]][] = [
      ['example.com', [{ type: 'MX', value: 'mx.example.com' }]],
      ['example.com', [{ type: 'CNAME', value: 'a.example.com', priority: 1 }]],
      ['example.com', [{ type: 'TXT', value: 'x', priority: 0 }]],
      ['example.com', [{ type: 'CNAME', value: 'not a host' }]],
      ['example.com', [{ type: 'TXT', value: 'x'.repeat(4097) }]],
      ['a..example.com', [{ type: 'TXT', value: 'x' }]],
      ['exa mple.com', [{ type: 'TXT', value: 'x' }]],
    ];
    for (const [name, records] of bad) {
      expect(() => dns.prepare(name, records), `${name} ${JSON.stringify(records)}`).toThrow(ApiError);
    }
    expect(dns.allRecords()).toEqual([]);
  });

  it('scopes failures: global, a domain and everything under it, or exactly one name', () => {
    dns.addFailure(dns.prepareFailure({ kind: 'timeout', name: 'bounce.example.com' }));
    expect(dns.lookup('bounce.example.com', 'MX')).toEqual({ ok: false, failure: 'timeout' });
    expect(dns.lookup('x.bounce.example.com', 'MX').ok).toBe(true);
    expect(dns.lookup('example.com', 'MX').ok).toBe(true);
    expect(dns.outage('example.com')).toBe(false);

    dns.addFailure(dns.prepareFailure({ kind: 'outage', domain: 'Example.com' }));
    expect(dns.outage('example.com')).toBe(true);
    expect(dns.outage('mail.example.com')).toBe(true);
    expect(dns.outage('example.org')).toBe(false);
    expect(dns.outage('notexample.com')).toBe(false);
    expect(dns.lookup('_dmarc.example.com', 'TXT').ok).toBe(false);

    dns.replaceFailures([]);
    dns.addFailure(dns.prepareFailure({ kind: 'timeout' }));
    dns.addFailure(dns.prepareFailure({ kind: 'timeout' }));
    expect(dns.listFailures()).toEqual([{ kind: 'timeout', domain: null, name: null }]);
    expect(dns.lookup('anything.test', 'TXT')).toEqual({ ok: false, failure: 'timeout' });
    expect(dns.outage('anything.test')).toBe(false); // a timeout is not an outage

    expect(() => dns.prepareFailure({ kind: 'outage', name: 'example.com' })).toThrow(ApiError);
    expect(() => dns.prepareFailure({ kind: 'timeout', name: 'a.example.com', domain: 'example.com' })).toThrow(ApiError);
    expect(() => dns.prepareFailure({ kind: 'timeout', domain: '-bad-.com' })).toThrow(ApiError);
  });

  it('round-trips through a snapshot and refuses a bad one', () => {
    dns.set(dns.prepare('example.com', [{ type: 'MX', value: 'mx.example.com', priority: 1 }]));
    dns.addFailure(dns.prepareFailure({ kind: 'timeout', name: 'example.com' }));
    const snap = dns.snapshot();
    const other = new FakeDns();
    other.restore(structuredClone(snap));
    expect(other.snapshot()).toEqual(snap);
    expect(() => other.restore({ records: [{ name: 'x.com', type: 'MX', value: 'mx.x.com', priority: null }], failures: [] })).toThrow(ApiError);
    expect(other.snapshot()).toEqual(snap);
  });

  it('a snapshot part outside the schema is refused by the runtime, naming the field, and nothing changes', () => {
    const rt = runtimeOf(harness().sim);
    rt.dns.set(rt.dns.prepare('example.com', [{ type: 'MX', value: 'mx.example.com', priority: 1 }]));
    const before = rt.snapshot();
    const bad = structuredClone(before);
    (bad.models.dns as { failures: unknown[] }).failures = [{ kind: 'flood', domain: null, name: null }];
    expect(() => rt.restore(bad)).toThrow(/^snapshot dns is invalid: dns\.failures\[0\]\.kind/);
    expect(rt.snapshot()).toEqual(before);
  });
});

describe('/_sim/dns', () => {
  let h: H;
  const sim = (method: string, path: string, body?: unknown) => h.call(method, `/_sim${path}`, body, { key: null });
  beforeEach(() => {
    h = harness();
  });

  it('sets, reads and removes records per name over HTTP', async () => {
    const put = await sim('PUT', '/dns/records/Mail.Example.com.', { records: [{ type: 'MX', value: 'mx.example.net', priority: 10 }, { type: 'TXT', value: 'hello' }] });
    expect(put.status).toBe(200);
    expect(put.json.name).toBe('mail.example.com');
    expect(put.json.records).toHaveLength(2);
    expect((await sim('GET', '/dns/records/mail.example.com')).json.records).toEqual(put.json.records);
    expect((await sim('DELETE', '/dns/records/mail.example.com?type=TXT')).status).toBe(204);
    expect((await sim('GET', '/dns/records/MAIL.example.com')).json.records.map((r: any) => r.type)).toEqual(['MX']);
    expect((await sim('DELETE', '/dns/records/mail.example.com')).status).toBe(204);
    expect((await sim('GET', '/dns')).json).toEqual({ records: [], failures: [] });
  });

  it('adds, lists and lifts failures; refuses bad ones with 400 and changes nothing', async () => {
    expect((await sim('POST', '/dns/failures', { kind: 'outage', domain: 'example.com' })).status).toBe(201);
    expect((await sim('POST', '/dns/failures', { kind: 'timeout', name: '_dmarc.example.com' })).json.failures).toHaveLength(2);
    await sim('POST', '/dns/failures', { kind: 'timeout' });
    const before = JSON.stringify(h.sim.snapshot());
    for (const body of [{ kind: 'outage', name: 'example.com' }, { kind: 'flood' }, { kind: 'timeout', domain: 'a..b' }, { kind: 'timeout', domain: 'x.com', name: 'y.x.com' }, {}]) {
      const r = await sim('POST', '/dns/failures', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
    }
    for (const bad of [{ records: [{ type: 'MX', value: 'mx.x.com' }] }, { records: [{ type: 'SRV', value: '1.2.3.4' }] }, { records: [{ type: 'A', value: '1.2.3' }] }, { records: [{ type: 'AAAA', value: '1.2.3.4' }] }, {}, { records: 'x' }]) {
      expect((await sim('PUT', '/dns/records/x.com', bad)).status, JSON.stringify(bad)).toBe(400);
    }
    expect((await sim('PUT', '/dns/records/bad..name', { records: [] })).status).toBe(400);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);

    expect((await sim('DELETE', '/dns/failures?kind=timeout&domain=nothing.example')).status).toBe(204);
    expect((await sim('GET', '/dns/failures')).json.failures).toHaveLength(3);
    await sim('DELETE', '/dns/failures?domain=EXAMPLE.com');
    expect((await sim('GET', '/dns/failures')).json.failures).toEqual([
      { kind: 'timeout', domain: null, name: '_dmarc.example.com' },
      { kind: 'timeout', domain: null, name: null },
    ]);
    await sim('DELETE', '/dns/failures');
    expect((await sim('GET', '/dns/failures')).json.failures).toEqual([]);
  });

  it('plants the records an email domain lists, all or some purposes; 404 for an unknown domain', async () => {
    const d = (await h.call('POST', h.acme('/email-domains'), { domain: 'example.com' })).json;
    const dkim = await sim('POST', '/dns/plant', { emailDomainId: d.id, purposes: ['dkim'] });
    expect(dkim.status).toBe(200);
    expect(dkim.json.records.map((r: any) => r.name)).toEqual(d.dnsRecords.filter((r: any) => r.purpose === 'dkim').map((r: any) => r.name));
    const all = await sim('POST', '/dns/plant', { emailDomainId: d.id });
    expect(all.json.records).toHaveLength(6);
    expect((await sim('GET', '/dns/records/bounce.example.com')).json.records.map((r: any) => r.type).sort()).toEqual(['MX', 'TXT']);
    const none = await sim('POST', '/dns/plant', { emailDomainId: 'ed_nope' });
    expect(none.status).toBe(404);
    expect(none.json.code).toBe('email_domain_not_found');
  });

  it('is part of the state snapshot, cleared by reset, and announced as a capability', async () => {
    await sim('PUT', '/dns/records/example.com', { records: [{ type: 'TXT', value: 'x' }] });
    await sim('POST', '/dns/failures', { kind: 'timeout', name: 'example.com' });
    const snap = (await sim('GET', '/state')).json;
    expect(snap.models.dns).toEqual({ records: [{ name: 'example.com', type: 'TXT', value: 'x', priority: null }], failures: [{ kind: 'timeout', domain: null, name: 'example.com' }], rebinds: [], addressLookups: {} });
    await sim('POST', '/reset', {});
    expect((await sim('GET', '/dns')).json).toEqual({ records: [], failures: [] });
    await sim('PUT', '/state', snap);
    expect((await sim('GET', '/dns')).json).toEqual({ records: snap.models.dns.records, failures: snap.models.dns.failures });
    expect((await sim('GET', '/health')).json.capabilities).toEqual(expect.arrayContaining(['dns', 'email-provider']));
  });
});
