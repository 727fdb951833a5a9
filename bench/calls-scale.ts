// A million ended calls (docs/decisions.md "Scale"), on the data set of bench/million-calls.ts:
// the memory of the simulator holding them (heap and typed arrays after a full collection, and
// the process's resident set; budget under 1 GB), listCalls with filters newest first and deep
// pages through the whole request pipeline (budget under 50 ms a page; the first query, which
// reads the calls into the list's columns and links them by number, is reported apart), and a snapshot round trip of that
// state through its JSON document (snapshot, stringify, parse, restore, and the same page after,
// whose first query reads the restored calls into the columns again). Figures are CPU milliseconds of this
// process as well as wall (the machine is shared). Run alone:
// `node --expose-gc --max-old-space-size=6144 --import tsx bench/calls-scale.ts` (`--json` for one line).
import { runtimeOf } from '../simulator/internal.ts';
import { ACCOUNT, FROM, SCALE_CALLS, median, millionCalls, ownNumber, request, rss, timed } from './million-calls.ts';

export const CALLS_MEMORY_BUDGET_MB = 1024;
export const LIST_PAGE_BUDGET_MS = 50;
export const SNAPSHOT_ROUND_TRIP_BUDGET_MS = 30_000;

/** The filters timed: each is a fresh scan of the columns (a new query), then its deep page. */
const FILTERS: Record<string, string> = {
  none: '',
  status: 'status=no-answer',
  from: `from=${ownNumber(42)}`,
  number: `number=${ownNumber(4242)}&number=${ownNumber(7)}`,
  range: `since=2026-01-01T00:00:00.000Z&until=2026-01-15T00:00:00.000Z`,
  durations: 'minDuration=60&maxDuration=120',
  hangupCause: 'hangupCause=normal_clearing&status=completed',
  combined: `status=completed&since=${FROM}&minDuration=300&hangupCause=normal_clearing`,
};

export interface CallsScaleBench {
  calls: number;
  buildMs: number;
  memory: { heapMb: number; typedMb: number; rssMb: number; bytesPerCall: number; packedRows: number };
  firstListCpuMs: number;
  pages: Record<string, { total: number; firstCpuMs: number; deepCpuMs: number; deepWallMs: number }>;
  worstPageMs: number;
  snapshot: { calls: number; documentMb: number; snapshotCpuMs: number; stringifyCpuMs: number; parseCpuMs: number; restoreCpuMs: number; wallMs: number; firstListAfterCpuMs: number; samePage: boolean };
  peakRssMb: number;
  roundTripPeakRssMb: number;
}

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

export async function benchCallsScale(): Promise<CallsScaleBench> {
  collect();
  const base = process.memoryUsage();
  const build = await timed(() => millionCalls(SCALE_CALLS));
  const sim = build.value;
  const path = `/v1/accounts/${ACCOUNT}/calls`;
  const rt = runtimeOf(sim);
  collect();
  const mem = process.memoryUsage();
  const builtRssMb = rss().nowMb;
  const heapMb = (mem.heapUsed - base.heapUsed) / 1024 / 1024;
  const typedMb = (mem.arrayBuffers - base.arrayBuffers) / 1024 / 1024;
  const first = await timed(() => request(sim, 'GET', `${path}?pageSize=100`));
  const pages: CallsScaleBench['pages'] = {};
  for (const [name, filter] of Object.entries(FILTERS)) {
    const q = filter === '' ? '' : `${filter}&`;
    const top = await timed(() => request(sim, 'GET', `${path}?${q}pageSize=100`));
    const total = top.value.meta.total as number;
    const deepPage = Math.max(2, Math.floor(total / 100) - 1);
    const deep: { cpuMs: number; wallMs: number }[] = [];
    for (let i = 0; i < 3; i++) deep.push(await timed(() => request(sim, 'GET', `${path}?${q}page=${deepPage - i}&pageSize=100`)));
    pages[name] = { total, firstCpuMs: top.cpuMs, deepCpuMs: median(deep.map((d) => d.cpuMs)), deepWallMs: median(deep.map((d) => d.wallMs)) };
  }
  const worstPageMs = Math.max(...Object.values(pages).flatMap((p) => [p.firstCpuMs, p.deepCpuMs]));

  const calls = rt.calls.calls.size;
  const packedRows = rt.calls.calls.packing.rows;
  const peakBeforeSnapshotMb = rss().peakMb;

  // The round trip of the same state through its JSON document, as GET and PUT /_sim/state (or
  // a state dir's compaction and restart) take it: ended calls go packed (version 2), so the
  // document is typed arrays in base64, not a million objects.
  const probe = `${path}?${FILTERS.combined}&page=3&pageSize=100`;
  const page = (await request(sim, 'GET', probe)) as unknown;
  const t0 = performance.now();
  const snap = await timed(() => sim.snapshot());
  const text = await timed(() => JSON.stringify(snap.value));
  const parsed = await timed(() => JSON.parse(text.value) as unknown);
  const documentMb = text.value.length / 1024 / 1024;
  const restored = await timed(() => sim.restore(parsed.value));
  const wallMs = performance.now() - t0;
  const firstAfter = await timed(() => request(sim, 'GET', probe));
  await sim.close();
  const result: CallsScaleBench = {
    calls,
    buildMs: build.wallMs,
    memory: { heapMb, typedMb, rssMb: builtRssMb, bytesPerCall: ((heapMb + typedMb) * 1024 * 1024) / SCALE_CALLS, packedRows },
    firstListCpuMs: first.cpuMs,
    pages,
    worstPageMs,
    snapshot: { calls, documentMb, snapshotCpuMs: snap.cpuMs, stringifyCpuMs: text.cpuMs, parseCpuMs: parsed.cpuMs, restoreCpuMs: restored.cpuMs, wallMs, firstListAfterCpuMs: firstAfter.cpuMs, samePage: JSON.stringify(page) === JSON.stringify(firstAfter.value) },
    peakRssMb: peakBeforeSnapshotMb,
    roundTripPeakRssMb: rss().peakMb,
  };
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCallsScale();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : JSON.stringify(r, null, 1));
}
