// Email sender domains: receiving (MX), MAIL FROM, DMARC, list/get/delete, snapshots,
// determinism and the email provider's settings.
import { beforeEach, describe, expect, it } from 'vitest';
import { BISTRO, harness } from './helpers.ts';
import { readFileSync } from 'node:fs';
import { DEFAULT_FIXTURE_PATH, FixtureError, parseFixture } from '../fixtures.ts';
import { useHarness, HOUR, sim, snapshotText, api, register, verify, get, setReceiving, plant, setRecords, removeRecords, fail, lift, advance, now, recordsOf, verified } from './email-domains-helpers.ts';

beforeEach(() => useHarness(harness()));

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
    useHarness(harness({ fixture: { yaml: withEmail('  region: eu-west-1\n  receivingRegions: [us-east-1]') } }));
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
