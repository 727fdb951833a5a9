// Usage aggregation (spec "Usage aggregation" and "Usage result"): the billing-cycle default,
// the range rules, the axes, the meter filter, billable minutes, 1-based paging, and the entries
// the control plane records for meters whose resources are not simulated yet.
import { describe, expect, it } from 'vitest';
import { addMonths, cycleAt } from '../resources/usage/cycle.ts';
import { ACME, harness } from './helpers.ts';

type H = ReturnType<typeof harness>;
const FROM = '07012340001';
const ms = (s: string) => Date.parse(s);
const iso = (n: number) => new Date(n).toISOString();

const usage = (h: H, query = '', key = ACME.key) => h.call('GET', `${h.acme('/usage')}${query}`, undefined, { key });
const record = (h: H, body: Record<string, unknown>) => h.sim.control.request<any>('POST', `/accounts/${ACME.accountId}/usage`, body);
const send = (h: H, body: Record<string, unknown> = {}) => h.call('POST', h.acme('/messages'), { To: '01012345678', From: FROM, Body: 'hi', ...body });
// A range around the fixture's start (2026-03-02T00:00Z) that includes "today".
const MARCH = '?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z&includeToday=true';

describe('billing cycles', () => {
  it('add calendar months from the subscription instant, clamping the day without drifting', () => {
    const start = ms('2026-01-31T11:21:39.500Z');
    expect([1, 2, 3, 13].map((k) => iso(addMonths(start, k)))).toEqual([
      '2026-02-28T11:21:39.500Z',
      '2026-03-31T11:21:39.500Z',
      '2026-04-30T11:21:39.500Z',
      '2027-02-28T11:21:39.500Z',
    ]);
    expect(cycleAt(start, ms('2026-03-31T11:21:39.499Z'))).toEqual({ from: ms('2026-02-28T11:21:39.500Z'), to: ms('2026-03-31T11:21:39.500Z') });
    expect(cycleAt(start, ms('2026-03-31T11:21:39.500Z'))!.from).toBe(ms('2026-03-31T11:21:39.500Z'));
    expect(cycleAt(start, start - 1)).toBeUndefined();
  });

  it('without from and to the range is the current cycle, starting at the subscription instant', async () => {
    const h = harness();
    // Acme subscribed at 2026-01-15T03:00:00Z; the fixture's clock starts at 2026-03-02.
    const r = await usage(h);
    expect(r.status).toBe(200);
    expect(r.json.period).toEqual({ from: '2026-02-15T03:00:00.000Z', to: '2026-03-15T03:00:00.000Z', timezone: 'UTC', confirmedThrough: '2026-03-01', includesToday: false });
    await h.sim.clock.advance({ to: '2026-03-15T03:00:00Z' });
    expect((await usage(h)).json.period).toMatchObject({ from: '2026-03-15T03:00:00.000Z', to: '2026-04-15T03:00:00.000Z', confirmedThrough: '2026-03-14' });
  });

  it('an account without an active subscription has no cycle: 403 without a range, 200 with one', async () => {
    const h = harness();
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    const r = await usage(h);
    expect([r.status, r.json.code]).toEqual([403, 'usage_period_required']);
    expect((await usage(h, MARCH)).status).toBe(200);
  });
});

describe('range', () => {
  it('counts usage at from and not at to; today only with includeToday', async () => {
    const h = harness();
    await h.sim.clock.advance({ to: '2026-03-10T12:00:00Z' });
    await record(h, { meter: 'outbound_seconds', quantity: 10, at: '2026-03-05T00:00:00Z' });
    await record(h, { meter: 'outbound_seconds', quantity: 20, at: '2026-03-06T00:00:00Z' });
    await record(h, { meter: 'outbound_seconds', quantity: 40, at: '2026-03-10T01:00:00Z' }); // today
    const q = (range: string) => usage(h, range).then((r) => r.json.records);
    expect(await q('?from=2026-03-05T00:00:00Z&to=2026-03-06T00:00:00Z')).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 10 }]);
    expect(await q('?from=2026-03-05T00:00:00.001Z&to=2026-03-06T00:00:00.001Z')).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 20 }]);
    expect(await q('?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z')).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 30 }]);
    const today = await usage(h, '?from=2026-03-01T00:00:00Z&to=2026-04-01T00:00:00Z&includeToday=true');
    expect(today.json.records[0].quantity).toBe(70);
    expect(today.json.period).toMatchObject({ includesToday: true, confirmedThrough: '2026-03-09' });
  });

  it('refuses one of from/to alone, an empty or reversed range and a range over 92 days; 92 days exactly is fine', async () => {
    const h = harness();
    for (const q of [
      '?from=2026-03-01T00:00:00Z',
      '?to=2026-03-01T00:00:00Z',
      '?from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z',
      '?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z',
      '?from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:00.001Z',
      '?from=2026-03-01&to=2026-03-02',
      '?includeToday=yes',
    ]) {
      const r = await usage(h, q);
      expect([r.status, r.json.code], q).toEqual([400, 'VALIDATION']);
    }
    expect((await usage(h, '?from=2026-01-01T00:00:00Z&to=2026-04-03T00:00:00Z')).status).toBe(200);
  });
});

describe('axes and meters', () => {
  it('groups by meter by default; day, linkId and number add their fields; repeating groupBy combines them', async () => {
    const h = harness();
    await record(h, { meter: 'inbound_seconds', quantity: 30, at: '2026-03-01T10:00:00Z', phoneNumber: '070-1234-0001', linkId: 'AL1' });
    await record(h, { meter: 'inbound_seconds', quantity: 45, at: '2026-03-02T00:00:00Z', phoneNumber: '07012340002', linkId: null });
    await send(h);
    const plain = (await usage(h, MARCH)).json.records;
    expect(plain).toEqual([
      { meter: 'inbound_seconds', unit: 'second', quantity: 75 },
      { meter: 'sms', unit: 'count', quantity: 1 },
    ]);
    expect((await usage(h, `${MARCH}&groupBy=meter`)).json.records).toEqual(plain);
    expect((await usage(h, `${MARCH}&groupBy=day`)).json.records).toEqual([
      { meter: 'inbound_seconds', unit: 'second', quantity: 30, day: '2026-03-01' },
      { meter: 'inbound_seconds', unit: 'second', quantity: 45, day: '2026-03-02' },
      { meter: 'sms', unit: 'count', quantity: 1, day: '2026-03-02' },
    ]);
    expect((await usage(h, `${MARCH}&groupBy=linkId&groupBy=number`)).json.records).toEqual([
      // Ordered by day, meter (the spec's order), linkId (null first), number.
      { meter: 'inbound_seconds', unit: 'second', quantity: 45, linkId: null, phoneNumber: '07012340002' },
      { meter: 'inbound_seconds', unit: 'second', quantity: 30, linkId: 'AL1', phoneNumber: FROM },
      { meter: 'sms', unit: 'count', quantity: 1, linkId: null, phoneNumber: FROM },
    ]);
    for (const q of ['&groupBy=day,linkId', '&groupBy=week', '&meter=sms,lms', '&meter=fax']) {
      const r = await usage(h, `${MARCH}${q}`);
      expect([r.status, r.json.code], q).toEqual([400, 'VALIDATION']);
    }
    expect((await usage(h, `${MARCH}&groupBy=day,linkId`)).json.error).toMatch(/repeat it/);
  });

  it('the number axis never merges a number\'s usage across assignments (different links)', async () => {
    const h = harness();
    await record(h, { meter: 'outbound_seconds', quantity: 10, at: '2026-03-01T00:00:00Z', phoneNumber: FROM, linkId: 'AL_first_user' });
    await record(h, { meter: 'outbound_seconds', quantity: 20, at: '2026-03-01T05:00:00Z', phoneNumber: FROM, linkId: 'AL_second_user' });
    const rows = (await usage(h, `${MARCH}&groupBy=number`)).json.records;
    expect(rows.map((r: any) => [r.phoneNumber, r.quantity])).toEqual([[FROM, 10], [FROM, 20]]);
    expect(rows.every((r: any) => !('linkId' in r))).toBe(true);
  });

  it('meter selects meters (repeated); totals hold billable minutes, rounded up once over the account total', async () => {
    const h = harness();
    for (const q of [30, 30, 30]) await record(h, { meter: 'outbound_seconds', quantity: q, at: '2026-03-01T00:00:00Z' });
    await record(h, { meter: 'transfer_seconds', quantity: 20, at: '2026-03-01T00:00:00Z' });
    await record(h, { meter: 'inbound_seconds', quantity: 61, at: '2026-03-01T00:00:00Z' });
    await record(h, { meter: 'amd_invocations', quantity: 2, at: '2026-03-01T00:00:00Z' });
    await send(h);
    const all = (await usage(h, MARCH)).json;
    expect(all.totals).toEqual([
      { meter: 'outbound_seconds', unit: 'second', quantity: 90, billableMinutes: 2, unitPriceHint: null }, // ceil((90 + 20) / 60)
      { meter: 'inbound_seconds', unit: 'second', quantity: 61, billableMinutes: 2, unitPriceHint: null },
      { meter: 'transfer_seconds', unit: 'second', quantity: 20, billableMinutes: null, unitPriceHint: null },
      { meter: 'sms', unit: 'count', quantity: 1, billableMinutes: null, unitPriceHint: null },
      { meter: 'amd_invocations', unit: 'count', quantity: 2, billableMinutes: null, unitPriceHint: null },
    ]);
    expect(all.amount).toBeNull();
    const outboundOnly = (await usage(h, `${MARCH}&meter=outbound_seconds`)).json;
    expect(outboundOnly.records).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 90 }]);
    expect(outboundOnly.totals).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 90, billableMinutes: 2, unitPriceHint: null }]);
    const two = (await usage(h, `${MARCH}&meter=sms&meter=transfer_seconds`)).json.records;
    expect(two.map((r: any) => r.meter)).toEqual(['transfer_seconds', 'sms']);
  });

  it('counts sent messages by type and drops one that fails (recomputed at every query)', async () => {
    const h = harness();
    await send(h);
    await send(h, { Type: 'lms', Subject: 'S' });
    await send(h, { To: '010-0000-0400' }); // always fails at the carrier
    expect((await usage(h, MARCH)).json.records).toEqual([
      { meter: 'sms', unit: 'count', quantity: 2 },
      { meter: 'lms', unit: 'count', quantity: 1 },
    ]);
    await h.sim.clock.advance({ seconds: 5 });
    expect((await usage(h, MARCH)).json.records[0]).toEqual({ meter: 'sms', unit: 'count', quantity: 1 });
  });
});

describe('paging', () => {
  it('pages from 1 (default 200, aliases, at most 1000); totals are the same on every page', async () => {
    const h = harness();
    for (let d = 1; d <= 5; d++) await record(h, { meter: 'sms', quantity: d, at: `2026-02-2${d}T00:00:00Z` });
    const base = '?from=2026-02-01T00:00:00Z&to=2026-03-01T00:00:00Z&groupBy=day';
    const first = (await usage(h, base)).json;
    expect(first.meta).toEqual({ page: 1, pageSize: 200, total: 5 });
    const pages = [];
    for (let p = 1; p * 2 < 5 + 2; p++) pages.push((await usage(h, `${base}&pageSize=2&page=${p}`)).json);
    expect(pages.map((p) => p.records.map((r: any) => r.day))).toEqual([['2026-02-21', '2026-02-22'], ['2026-02-23', '2026-02-24'], ['2026-02-25']]);
    expect(pages.every((p) => JSON.stringify(p.totals) === JSON.stringify(first.totals))).toBe(true);
    expect(first.totals).toEqual([{ meter: 'sms', unit: 'count', quantity: 15, billableMinutes: null, unitPriceHint: null }]);
    expect((await usage(h, `${base}&page_size=2&page=3`)).json.records).toHaveLength(1);
    expect((await usage(h, `${base}&limit=4&page=2`)).json.meta).toEqual({ page: 2, pageSize: 4, total: 5 });
    for (const q of ['&page=0', '&pageSize=1001', '&pageSize=2&limit=3', '&page=1.5']) {
      const r = await usage(h, `${base}${q}`);
      expect([r.status, r.json.code], q).toEqual([400, 'VALIDATION']);
    }
    expect((await usage(h, `${base}&pageSize=1000`)).status).toBe(200);
  });
});

describe('recorded usage (control plane)', () => {
  it('refuses usage in the future, fractional counts and bad numbers; lists, clears, snapshots and resets', async () => {
    const h = harness();
    const bad = async (body: Record<string, unknown>, code: string) => {
      const r = await h.call('POST', `/_sim/accounts/${ACME.accountId}/usage`, body, { key: null });
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([code === 'ACCOUNT_NOT_FOUND' ? 404 : 400, code]);
    };
    await bad({ meter: 'outbound_seconds', quantity: 1, at: '2026-03-02T00:00:00.001Z' }, 'VALIDATION');
    await bad({ meter: 'sms', quantity: 1.5 }, 'VALIDATION');
    await bad({ meter: 'sms', quantity: -1 }, 'VALIDATION');
    await bad({ meter: 'fax', quantity: 1 }, 'VALIDATION');
    await bad({ meter: 'sms', quantity: 1, phoneNumber: '+1 555 0100' }, 'UNSUPPORTED_COUNTRY');
    const none = await h.call('POST', '/_sim/accounts/AC_nobody/usage', { meter: 'sms', quantity: 1 }, { key: null });
    expect([none.status, none.json.code]).toEqual([404, 'ACCOUNT_NOT_FOUND']);
    const entry = await record(h, { meter: 'outbound_seconds', quantity: 12.5, phoneNumber: '+82 70-1234-0001' });
    expect(entry).toEqual({ accountId: ACME.accountId, meter: 'outbound_seconds', quantity: 12.5, at: '2026-03-02T00:00:00.000Z', phoneNumber: FROM, linkId: null });
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/usage`)).data).toEqual([entry]);
    const snap = h.sim.snapshot();
    await h.call('DELETE', `/_sim/accounts/${ACME.accountId}/usage`, undefined, { key: null });
    expect((await usage(h, MARCH)).json.records).toEqual([]);
    h.sim.restore(snap);
    expect((await usage(h, MARCH)).json.records).toEqual([{ meter: 'outbound_seconds', unit: 'second', quantity: 12.5 }]);
    await h.call('POST', '/_sim/reset', {}, { key: null });
    expect((await usage(h, MARCH)).json.records).toEqual([]);
  });
});
