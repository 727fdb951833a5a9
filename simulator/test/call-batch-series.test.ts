// A batch over virtual time (the inspector's batch view): the series kept per batch
// (resources/call-batches/series.ts) against a plain replay of the same changes, and the view's
// data (GET /_sim/call-batches/{batchId}/chart) against what the API and the calls say: counts
// that sum to the recipients in every bucket and end at getCallBatch's counts, dials per hour
// equal to the calls placed and never over the pace, the windows where the batch's windows are,
// each round's outcomes; snapshots carry it, and reading it changes nothing.
// The fixture's clock starts Monday 2026-03-02 00:00 UTC = 09:00 Korea time.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { harness } from './helpers.ts';
import { voiceSteps } from './voice-steps.ts';
import { runtimeOf } from '../internal.ts';
import { BatchSeries, MAX_BUCKETS } from '../resources/call-batches/series.ts';
import { TASK_STATUSES } from '../resources/call-batches/schema.ts';
import { BatchChartSchema } from '../resources/call-batches/chart.ts';
import { schemaErrors } from '../core/schema.ts';

const FROM = '07012340001';
const HOUR_MS = 3_600_000;

describe('call batches: the series over virtual time', () => {
  it('matches a replay of the same changes in every bucket, widening to at most MAX_BUCKETS (property)', () => {
    const change = fc.record({ gapMs: fc.oneof(fc.integer({ min: 0, max: 90_000 }), fc.integer({ min: 0, max: 30 * 86_400_000 })), from: fc.integer({ min: 0, max: 6 }), to: fc.integer({ min: 0, max: 6 }) });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.array(change, { maxLength: 300 }), (added, changes) => {
        let now = Date.UTC(2026, 2, 2, 0, 0, 17);
        const s = new BatchSeries('CB1', { now: () => now });
        const events: { t: number; from: number | null; to: number }[] = [];
        const statuses: number[] = [];
        for (let k = 0; k < added; k++) {
          s.moved(null, { status: 'pending', dialRound: 0, disposition: null, answeredBy: null });
          events.push({ t: now, from: null, to: 0 });
          statuses.push(0);
        }
        changes.forEach((c, k) => {
          now += c.gapMs;
          const pos = k % added;
          const from = statuses[pos]!;
          if (from === c.to) return;
          statuses[pos] = c.to;
          s.moved(TASK_STATUSES[from]!, { status: TASK_STATUSES[c.to]!, dialRound: 1, disposition: 'no-answer', answeredBy: null });
          events.push({ t: now, from, to: c.to });
        });
        expect(s.length).toBeLessThanOrEqual(MAX_BUCKETS);
        expect(s.first! % s.widthMs).toBe(0);
        // The replay: events in time order, swept once over the buckets.
        const want = new Array(7).fill(0);
        let next = 0;
        for (let i = 0; i < s.length; i++) {
          const end = s.first! + (i + 1) * s.widthMs;
          let dials = 0;
          for (; next < events.length && events[next]!.t < end; next++) {
            const e = events[next]!;
            if (e.from !== null) want[e.from]--;
            want[e.to]++;
            if (e.to === 1) dials++;
          }
          const got = s.countsAt(i);
          // One expect per bucket is slow over thousands of buckets: compare, then fail with the first difference.
          if (got.some((v, k) => v !== want[k]) || s.dials[i] !== dials || want.reduce((a, b) => a + b, 0) !== added) {
            expect({ bucket: i, counts: got, dials: s.dials[i] }).toEqual({ bucket: i, counts: want, dials });
          }
        }
        expect(next).toBe(events.length);
      }),
      { seed: 32_005, numRuns: 150 },
    );
  });
});

function sim() {
  const h = harness();
  const rt = runtimeOf(h.sim);
  const steps = voiceSteps(h);
  const flow = () => steps.flow({ version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello', next: 'bye' }, bye: { type: 'hangup' } } }, 'reminder');
  const chart = async (id: string) => h.sim.control.request<any>('GET', `/call-batches/${id}/chart`);
  const batchCalls = () => rt.calls.calls.all().filter((c) => c.from === FROM);
  return { ...h, rt, flow, chart, batchCalls, script: steps.script, advance: steps.advance };
}

/** A weekday campaign: round 1 10:00-12:00, round 2 (no-answer, busy) 14:00-16:00 Korea time; a third of the phones ring out. */
async function campaign(h: ReturnType<typeof sim>, recipients = 90) {
  const cf = await h.flow();
  await h.script({ prefix: '0103', outcome: 'no-answer' });
  await h.script({ prefix: '0104', outcome: 'busy' });
  const tasks = Array.from({ length: recipients }, (_, i) => ({ To: `010${2 + (i % 3)}000${String(i).padStart(4, '0')}` }));
  const r = await h.call('POST', h.acme('/call-batches'), {
    Name: 'spring reminders',
    From: FROM,
    CallFlowId: cf,
    MaxConcurrency: 5,
    PacingPerMinute: 1,
    Rounds: [{ Windows: [{ Days: [1, 2, 3, 4, 5], Start: '10:00', End: '12:00' }] }, { After: 30, On: ['no-answer', 'busy'], Windows: [{ Days: [1, 2, 3, 4, 5], Start: '14:00', End: '16:00' }] }],
    Tasks: tasks,
  });
  expect(r.status, r.text).toBe(200);
  return r.json.batchId as string;
}

describe('call batches: the chart data', () => {
  it('sums to the recipients in every bucket and ends at the API counts; dials per hour are the calls placed, never over the pace', async () => {
    const h = sim();
    const id = await campaign(h);
    await h.advance(3 * 86_400);
    const c = await h.chart(id);
    const batch = (await h.call('GET', h.acme(`/call-batches/${id}`))).json;
    expect(schemaErrors(BatchChartSchema, c)).toEqual([]); // the answer is what /openapi.json says, field for field
    expect(c.counts).toEqual(batch.counts);
    expect(c.total).toBe(90);
    for (let i = 0; i < c.buckets.count; i++) expect(TASK_STATUSES.reduce((sum, st) => sum + c.series[st][i], 0)).toBe(90);
    const last = Object.fromEntries(TASK_STATUSES.map((st) => [st, c.series[st][c.buckets.count - 1]]));
    expect(last).toEqual(batch.counts);
    // Dials per hour: the calls' creation times counted per clock hour, and the pace's limit (1 a minute = 60 an hour).
    const calls = h.batchCalls();
    const hourly = new Map<number, number>();
    for (const call of calls) {
      const k = Math.floor((Date.parse(call.dateCreated) - Date.parse(c.dialsPerHour.first)) / HOUR_MS);
      hourly.set(k, (hourly.get(k) ?? 0) + 1);
    }
    expect(c.dialsPerHour).toMatchObject({ seconds: 3600, averaged: false, limit: 60 });
    c.dialsPerHour.values.forEach((v: number, k: number) => expect(v).toBe(hourly.get(k) ?? 0));
    expect(c.dialsPerHour.values.reduce((a: number, b: number) => a + b, 0)).toBe(calls.length);
    expect(Math.max(...c.dialsPerHour.values)).toBeLessThanOrEqual(60);
    expect(Math.max(...c.dialsPerHour.values)).toBe(60); // the pace was the limit for two hours
  });

  it('draws the windows where the batch\'s windows are, and every dial of a round inside its own', async () => {
    const h = sim();
    const id = await campaign(h, 150); // round 1 needs 150 minutes of a two-hour window: it goes on on Tuesday
    await h.advance(3 * 86_400);
    const c = await h.chart(id);
    // Round 1 10:00-12:00 Korea time = 01:00-03:00 UTC; round 2 14:00-16:00 = 05:00-07:00 UTC, on the weekdays of the span.
    const day = (d: number, from: string, to: string) => ({ from: `2026-03-0${d}T${from}:00:00.000Z`, to: `2026-03-0${d}T${to}:00:00.000Z` });
    const span = c.windows.filter((w: any) => w.to <= c.span.to);
    expect(span.filter((w: any) => w.round === 1).map(({ from, to }: any) => ({ from, to })).slice(0, 2)).toEqual([day(2, '01', '03'), day(3, '01', '03')]);
    // The batch completes during round 2's Tuesday window: the chart's span, and the stretch, end there.
    expect(c.span.to > '2026-03-03T05:00:00.000Z' && c.span.to < '2026-03-03T07:00:00.000Z').toBe(true);
    expect(span.filter((w: any) => w.round === 2).map(({ from, to }: any) => ({ from, to })).slice(0, 2)).toEqual([day(2, '05', '07'), { from: '2026-03-03T05:00:00.000Z', to: c.span.to }]);
    const inside = (t: string, round: number) => c.windows.some((w: any) => w.round === round && w.from <= t && t < w.to);
    const calls = h.batchCalls();
    const retried = new Set<string>();
    for (const call of [...calls].sort((a, b) => a.dateCreated.localeCompare(b.dateCreated))) {
      const round = retried.has(call.to) ? 2 : 1;
      retried.add(call.to);
      expect(inside(call.dateCreated, round), `${call.dateCreated} round ${round}`).toBe(true);
    }
  });

  it('tallies each round: calls placed, how they ended, those queued for the next round', async () => {
    const h = sim();
    const id = await campaign(h);
    await h.advance(3 * 86_400);
    const c = await h.chart(id);
    expect(c.status).toBe('completed');
    expect(c.rounds[0]).toEqual({ round: 1, after: null, on: null, dialed: 90, retried: 60, outcomes: { answered: 30, 'no-answer': 30, busy: 30 } });
    expect(c.rounds[1]).toEqual({ round: 2, after: 30, on: ['no-answer', 'busy'], dialed: 60, retried: 0, outcomes: { 'no-answer': 30, busy: 30 } });
    expect(c.counts).toEqual({ pending: 0, dialing: 0, done: 30, failed: 60, canceled: 0, suppressed: 0, expired: 0 });
    expect(h.batchCalls()).toHaveLength(150);
  });

  it('counts recipients a round never dialed: opted out, and left pending when the batch is canceled', async () => {
    const h = sim();
    const cf = await h.flow();
    await h.call('POST', h.acme('/blocked-recipients'), { number: '01020000001', channel: 'call' });
    const r = await h.call('POST', h.acme('/call-batches'), { Name: 'b', From: FROM, CallFlowId: cf, PacingPerMinute: 1, Tasks: [{ To: '01020000001' }, { To: '01020000002' }, { To: '01020000003' }, { To: '01020000004' }] });
    await h.advance(70); // created 09:00 Korea time: one dial a minute, each call some seconds long
    await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/actions`), { Action: 'cancel' });
    const c = await h.chart(r.json.batchId);
    expect(c.rounds[0].outcomes['opted out']).toBe(1);
    expect(c.rounds[0].outcomes['batch canceled']).toBe(c.counts.canceled);
    expect(c.counts.canceled).toBeGreaterThan(0);
    expect(c.rounds[0].dialed + 1 + c.counts.canceled).toBe(4);
  });

  it('a draft with no recipients has no bucket yet; recipients added later start it, and every bucket sums to those added by its end', async () => {
    const h = sim();
    const cf = await h.flow();
    const r = await h.call('POST', h.acme('/call-batches'), { Name: 'later', From: FROM, CallFlowId: cf, Status: 'draft', Tasks: [] });
    const empty = await h.chart(r.json.batchId);
    expect(empty.buckets.count).toBe(0);
    expect([empty.span.from, empty.span.to, empty.dialsPerHour.first]).toEqual([empty.now, empty.now, empty.now]);
    await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/tasks`), { Tasks: [{ To: '01020000001' }, { To: '01020000002' }] });
    await h.advance(300);
    await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/tasks`), { Tasks: [{ To: '01020000003' }] });
    await h.call('POST', h.acme(`/call-batches/${r.json.batchId}/actions`), { Action: 'resume' });
    await h.advance(3600);
    const c = await h.chart(r.json.batchId);
    const sums = Array.from({ length: c.buckets.count }, (_, i) => TASK_STATUSES.reduce((sum, st) => sum + c.series[st][i], 0));
    expect(sums[0]).toBe(2);
    expect(sums[5]).toBe(3); // the sixth minute holds the third recipient
    expect(sums.every((n, i) => n === (i < 5 ? 2 : 3))).toBe(true);
    expect(c.counts).toEqual({ pending: 0, dialing: 0, done: 3, failed: 0, canceled: 0, suppressed: 0, expired: 0 });
  });

  it('survives a snapshot; reading it changes nothing; a snapshot without batches has no series, one without series restores', async () => {
    const h = sim();
    expect(Object.keys((h.sim.snapshot() as any).models.callBatches)).toEqual(['batches']);
    const id = await campaign(h, 30);
    await h.advance(86_400 + 3 * 3600);
    const before = JSON.stringify(h.sim.snapshot());
    const c = await h.chart(id);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
    h.sim.restore(JSON.parse(before));
    expect(await h.chart(id)).toEqual(c);
    // A snapshot from before the series: each batch starts from its counts at the restore.
    const old = JSON.parse(before);
    delete old.models.callBatches.series;
    h.sim.restore(old);
    const seeded = await h.chart(id);
    expect(seeded.buckets.count).toBe(1);
    expect(Object.fromEntries(TASK_STATUSES.map((st) => [st, seeded.series[st][0]]))).toEqual(c.counts);
    // A series whose counts do not fit its buckets is refused, naming the part.
    const bad = JSON.parse(before);
    bad.models.callBatches.series[0].counts.pop();
    expect(() => h.sim.restore(bad)).toThrow(/callBatches\.series/);
  });

  it('answers 404 for a batch it does not have, and serves the view in the inspector page', async () => {
    const h = sim();
    await expect(h.sim.control.request('GET', '/call-batches/CB000000000000000000000000/chart')).rejects.toThrow(/404|call_batch_not_found/);
    const page = await h.call('GET', '/_sim/ui');
    expect(page.text).toContain('window.inspectorViews.batches');
    expect(page.text.indexOf('window.inspectorViews.batches')).toBeLessThan(page.text.indexOf('linkFamilyViews();'));
  });
});
