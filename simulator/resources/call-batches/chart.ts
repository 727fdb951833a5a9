// The inspector's batch view as data (GET /_sim/call-batches/{batchId}/chart): recipients per
// status over virtual time, dials per hour against the pace, the instants each round may dial
// (its windows within the legal hours) and how each round's calls ended. Built from the batch's
// series (series.ts) and its row, never from its tasks: the cost is O(buckets + rounds) whatever
// the number of recipients, so the page can ask again at every event.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { iso } from '../../core/clock.ts';
import { ENDED_BATCH, TASK_STATUSES, type TaskStatus } from './schema.ts';
import { MAX_BUCKETS, RoundTallySchema, type BatchSeries } from './series.ts';
import type { CallingTime } from './windows.ts';
import type { Live } from './live.ts';

const HOUR = 3_600_000;
/** Open stretches drawn per round at most (a long span of short windows is cut there, and says so). */
const MAX_STRETCHES = 500;

const Instant = Type.String({ format: 'date-time' });
const PerStatus = <T extends TSchema>(item: T) => Type.Object(Object.fromEntries(TASK_STATUSES.map((st) => [st, item])) as Record<TaskStatus, T>, { additionalProperties: false });

export const BatchChartSchema = Type.Object(
  {
    batchId: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    status: Type.String(),
    timezone: Type.String(),
    now: Instant,
    startAt: Type.Union([Instant, Type.Null()]),
    endAt: Type.Union([Instant, Type.Null()]),
    maxConcurrency: Type.Integer(),
    pacingPerMinute: Type.Integer(),
    total: Type.Integer(),
    counts: PerStatus(Type.Integer()),
    span: Type.Object({ from: Instant, to: Instant }, { additionalProperties: false, description: 'From the first bucket to the last one\'s end, or now while the batch goes on.' }),
    buckets: Type.Object(
      { first: Instant, seconds: Type.Integer(), count: Type.Integer(), max: Type.Integer() },
      { additionalProperties: false, description: 'Bucket i covers first + i × seconds; buckets widen so that count never passes max.' },
    ),
    series: PerStatus(Type.Array(Type.Integer(), { description: 'Recipients in this status at the end of each bucket.' })),
    dialsPerHour: Type.Object(
      { first: Instant, seconds: Type.Integer(), averaged: Type.Boolean(), values: Type.Array(Type.Number()), limit: Type.Integer({ description: 'pacingPerMinute × 60' }) },
      { additionalProperties: false, description: 'Per clock hour while buckets are an hour or shorter (seconds 3600); else each bucket\'s mean per hour (averaged).' },
    ),
    windows: Type.Array(Type.Object({ round: Type.Integer({ minimum: 1 }), from: Instant, to: Instant }, { additionalProperties: false }), { description: 'When each round may dial within the span.' }),
    windowsCut: Type.Boolean({ description: 'More stretches than are drawn (500 a round).' }),
    rounds: Type.Array(
      Type.Object(
        { round: Type.Integer({ minimum: 1 }), after: Type.Union([Type.Integer(), Type.Null()]), on: Type.Union([Type.Array(Type.String()), Type.Null()]), ...RoundTallySchema.properties },
        { additionalProperties: false },
      ),
    ),
  },
  { $id: 'SimCallBatchChart', additionalProperties: false },
);
export type BatchChart = Static<typeof BatchChartSchema>;

/** Dials per hour: summed per clock hour while buckets are an hour or shorter, else each bucket's mean per hour. */
function dialsPerHour(s: BatchSeries, limit: number, now: number): BatchChart['dialsPerHour'] {
  const first = s.first ?? now;
  if (s.widthMs > HOUR) {
    return { first: iso(first), seconds: s.widthMs / 1000, averaged: true, values: s.dials.map((d) => d / (s.widthMs / HOUR)), limit };
  }
  const firstHour = Math.floor(first / HOUR) * HOUR;
  const values: number[] = [];
  s.dials.forEach((d, i) => {
    const h = Math.floor((first + i * s.widthMs - firstHour) / HOUR);
    while (values.length <= h) values.push(0);
    values[h]! += d;
  });
  return { first: iso(firstHour), seconds: 3600, averaged: false, values, limit };
}

/** The stretches of [from, to) in which each round may dial, merged where one ends as the next starts. */
function openStretches(live: Live, time: CallingTime, from: number, to: number): { windows: BatchChart['windows']; cut: boolean } {
  const out: BatchChart['windows'] = [];
  let cut = false;
  live.batch.rounds.forEach((r, index) => {
    const mine: [number, number][] = [];
    let t = from;
    while (t < to) {
      const open = time.nextOpen(r.windows, live.batch.timezone, t);
      if (open === undefined || open >= to) break;
      if (mine.length === MAX_STRETCHES) {
        cut = true;
        break;
      }
      const close = Math.min(time.openUntil(r.windows, live.batch.timezone, open), to);
      const last = mine[mine.length - 1];
      if (last && last[1] === open) last[1] = close;
      else mine.push([open, close]);
      t = Math.max(close, open + 1);
    }
    for (const [a, b] of mine) out.push({ round: index + 1, from: iso(a), to: iso(b) });
  });
  return { windows: out, cut };
}

export function batchChart(live: Live, s: BatchSeries, time: CallingTime, now: number): BatchChart {
  const b = live.batch;
  const first = s.first ?? now;
  const seriesEnd = first + s.length * s.widthMs;
  const to = ENDED_BATCH.includes(b.status) ? seriesEnd : Math.max(seriesEnd, now);
  const series = Object.fromEntries(TASK_STATUSES.map((st) => [st, [] as number[]])) as Record<TaskStatus, number[]>;
  for (let i = 0; i < s.length; i++) {
    const c = s.countsAt(i);
    TASK_STATUSES.forEach((st, k) => series[st].push(c[k]!));
  }
  const stretches = openStretches(live, time, first, to);
  return {
    batchId: b.id,
    accountId: b.accountId,
    name: b.name,
    status: b.status,
    timezone: b.timezone,
    now: iso(now),
    startAt: b.startAt === null ? null : iso(b.startAt),
    endAt: b.endAt === null ? null : iso(b.endAt),
    maxConcurrency: b.maxConcurrency,
    pacingPerMinute: b.pacingPerMinute,
    total: live.tasks.length,
    counts: { ...live.counts },
    span: { from: iso(first), to: iso(to) },
    buckets: { first: iso(first), seconds: s.widthMs / 1000, count: s.length, max: MAX_BUCKETS },
    series,
    dialsPerHour: dialsPerHour(s, b.pacingPerMinute * 60, now),
    windows: stretches.windows,
    windowsCut: stretches.cut,
    rounds: b.rounds.map((r, i) => ({ round: i + 1, after: r.after, on: r.on, ...(s.rounds[i] ?? { dialed: 0, retried: 0, outcomes: {} }) })),
  };
}
