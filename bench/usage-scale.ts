// Usage over a million call records (docs/decisions.md "Usage over a million calls"): getUsage with groupBy=day and
// groupBy=number over 92 days of 1,000,000 ended calls on 10,000 numbers (bench/million-calls.ts)
// under 300 ms, meter totals (no groupBy) under 50 ms; the same answers as the aggregation first
// written (simulator/test/usage-reference.ts), which is also timed once as the "before" figure.
// Then the same over 1,000,000 entries recorded through the control plane. Figures are CPU
// milliseconds of this process (the machine is shared), medians of five queries, through the
// whole request pipeline (`sim.handle`), after the first query that reads the calls into columns.
// Run alone: `node --max-old-space-size=6144 --import tsx bench/usage-scale.ts` (`--json` for one line).
import type { Simulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';
import { referenceUsage } from '../simulator/test/usage-reference.ts';
import { METERS, type UsageQueryInput } from '../simulator/resources/usage/schema.ts';
import { ACCOUNT, FROM, NUMBERS, SCALE_CALLS, TO, median, millionCalls, ownNumber, request, rss, seeded, timed } from './million-calls.ts';

export const USAGE_GROUPED_BUDGET_MS = 300;
export const USAGE_TOTALS_BUDGET_MS = 50;

const RANGE = `from=${FROM}&to=${TO}`;
const GROUPED = `${RANGE}&groupBy=day&groupBy=number`;

export interface UsageQueryFigures {
  firstCpuMs: number;
  groupedCpuMs: number;
  groupedWallMs: number;
  deepPageCpuMs: number;
  totalsCpuMs: number;
  totalsWallMs: number;
  rows: number;
  referenceGroupedCpuMs: number;
  referenceTotalsCpuMs: number;
  sameAsReference: boolean;
}

export interface UsageBench {
  entries: number;
  calls: UsageQueryFigures;
  recorded: UsageQueryFigures;
  buildMs: number;
  peakRssMb: number;
}

async function measure(sim: Simulator): Promise<UsageQueryFigures> {
  const rt = runtimeOf(sim);
  const path = `/v1/accounts/${ACCOUNT}/usage`;
  const first = await timed(() => request(sim, 'GET', `${path}?${GROUPED}`));
  const grouped: { cpuMs: number; wallMs: number }[] = [];
  const totals: { cpuMs: number; wallMs: number }[] = [];
  const deep: number[] = [];
  let rows = 0;
  for (let i = 0; i < 5; i++) {
    const g = await timed(() => request(sim, 'GET', `${path}?${GROUPED}&page=${1 + i}&pageSize=200`));
    rows = g.value.meta.total;
    grouped.push(g);
    totals.push(await timed(() => request(sim, 'GET', `${path}?${RANGE}`)));
    deep.push((await timed(() => request(sim, 'GET', `${path}?${GROUPED}&page=${Math.ceil(rows / 1000)}&pageSize=1000`))).cpuMs);
  }
  // The aggregation as first written, once each, and the same answers.
  const now = rt.clock.now();
  const q = (groupBy: UsageQueryInput['groupBy']): UsageQueryInput => ({ from: FROM, to: TO, ...(groupBy ? { groupBy } : {}), pageSize: 1000, page: 3 });
  const refGrouped = await timed(() => referenceUsage(rt.usage, now, ACCOUNT, q(['day', 'number'])));
  const refTotals = await timed(() => referenceUsage(rt.usage, now, ACCOUNT, q(undefined)));
  const same =
    JSON.stringify(refGrouped.value) === JSON.stringify(rt.usage.aggregate(ACCOUNT, q(['day', 'number']))) &&
    JSON.stringify(refTotals.value) === JSON.stringify(rt.usage.aggregate(ACCOUNT, q(undefined)));
  const cpu = (xs: { cpuMs: number }[]) => median(xs.map((x) => x.cpuMs));
  const wall = (xs: { wallMs: number }[]) => median(xs.map((x) => x.wallMs));
  return {
    firstCpuMs: first.cpuMs,
    groupedCpuMs: cpu(grouped),
    groupedWallMs: wall(grouped),
    deepPageCpuMs: median(deep),
    totalsCpuMs: cpu(totals),
    totalsWallMs: wall(totals),
    rows,
    referenceGroupedCpuMs: refGrouped.cpuMs,
    referenceTotalsCpuMs: refTotals.cpuMs,
    sameAsReference: same,
  };
}

/** The same meters as control-plane entries: 1,000,000 over the 92 days and 10,000 numbers, a tenth through links. */
function recordedEntries(sim: Simulator, count: number): void {
  const next = seeded(7);
  const start = Date.parse(FROM);
  const span = Date.parse(TO) - start - 1;
  const entries = [];
  for (let i = 0; i < count; i++) {
    const n = Math.floor(next() * NUMBERS);
    entries.push({
      accountId: ACCOUNT,
      meter: METERS[Math.floor(next() * 3)]!,
      quantity: Math.floor(next() * 600),
      at: new Date(start + Math.floor((i / count) * span)).toISOString(),
      phoneNumber: ownNumber(n),
      linkId: n < 1_000 ? `AL_${n}` : null,
    });
  }
  runtimeOf(sim).usage.restore({ injected: entries });
}

export async function benchUsage(): Promise<UsageBench> {
  const build = await timed(() => millionCalls(SCALE_CALLS));
  const calls = await measure(build.value);
  await build.value.close();
  const sim = (await import('../simulator/index.ts')).createSimulator();
  recordedEntries(sim, SCALE_CALLS);
  const recorded = await measure(sim);
  await sim.close();
  return { entries: SCALE_CALLS, calls, recorded, buildMs: build.wallMs, peakRssMb: rss().peakMb };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchUsage();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : JSON.stringify(r, null, 1));
}
