// Call batches at scale (docs/decisions.md "Call batches"): one batch of 100,000 recipients, 3 rounds with
// windows (round 1 weekdays 10:00-18:00, rounds 2 and 3 weekdays 18:00-21:00 for no-answer and
// busy), created through the in-process API (a 6 MB body through the whole pipeline), then the
// virtual clock advanced over a 7-day horizon. A carrier script makes 30 % of the calls ring out
// unanswered (`prefix` + `share`, docs/decisions.md "Calls"). Budget: under 10 s wall and 1 GB RSS; list pages of
// the batch under 20 ms. Compared with a plain loop that only computes the same dial times.
// Run alone with `node --import tsx bench/call-batches.ts`; `npm run bench` runs it too.
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { createSimulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';

export const BATCH_BUDGET_MS = 10_000;
export const BATCH_RSS_BUDGET_MB = 1024;
export const PAGE_BUDGET_MS = 20;
/** The scale target (bench/README.md "A million recipients, a million calls"): a million recipients, same rounds and windows, 500 at once, 600 a minute. */
export const MILLION_BATCH_BUDGET_MS = 30_000;
export const MILLION_BATCH_RSS_BUDGET_MB = 2048;
/** The wall budget's proxy on a shared machine (bench/README.md "A million recipients, a million calls"): the batch's CPU time, with a little room for the process's other work. */
export const MILLION_BATCH_CPU_BUDGET_MS = 28_000;
const RECIPIENTS = Number(process.env.BATCH_RECIPIENTS ?? 100_000);
/** A million recipients dial at the limits a large customer uses (docs/decisions.md "Scale"): 500 at once, 600 a minute. */
const MILLION = RECIPIENTS >= 1_000_000;
/** Recipients per request body (the 10 MB limit holds about 150,000). */
const CHUNK = 100_000;
const ACCOUNT = 'AC1a2b3c4d';
const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' };
const HOUR_S = 3_600;
const PACING = MILLION ? 600 : 300;
const CONCURRENCY = MILLION ? 500 : 50;
const WEEKDAYS = [1, 2, 3, 4, 5];
export const ROUNDS = [
  { Windows: [{ Days: WEEKDAYS, Start: '10:00', End: '18:00' }] },
  { After: 30, On: ['no-answer', 'busy'], Windows: [{ Days: WEEKDAYS, Start: '18:00', End: '21:00' }] },
  { After: 45, On: ['no-answer', 'busy'], Windows: [{ Days: WEEKDAYS, Start: '18:00', End: '21:00' }] },
];
/** The flow every call runs: a greeting with the recipient's name, then hang up. */
export const REMINDER_FLOW = {
  name: 'reminder',
  graph: { version: 1, start: 'hello', nodes: { hello: { type: 'say', text: 'Hello {{name}}, see you tomorrow.', next: 'bye' }, bye: { type: 'hangup' } } },
};

async function request(sim: ReturnType<typeof createSimulator>, method: string, path: string, body?: unknown) {
  const res = await sim.handle({ method, url: path, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
  return JSON.parse(res.body) as any;
}

export interface BatchBench {
  recipients: number;
  calls: number;
  flowEnded: number;
  ms: number;
  cpuMs: number;
  createMs: number;
  advanceMs: number;
  rssMb: number;
  peakRssMb: number;
  heapMb: number;
  jobs: number;
  baselineMs: number;
  ratio: number;
  pageMs: { first: number; deep: number; filtered: number };
  counts: Record<string, number>;
  noAnswerShare: number;
  bytesPerCall: number;
}

/**
 * The plain loop: the same dial times from the same rules (pacing spacing, the round's window,
 * the legal hours in Korea time) with no simulator around it, for the same list of (round,
 * time) pairs in dial order. Its input is each call's recorded dial instant, not a policy time
 * rebuilt from the recipients (a round's `After` counts from the previous call's end and
 * `MaxConcurrency` waits for calls to end, which would need a scheduler of its own), so the loop
 * mostly confirms times it is given: a floor, and the ratio against it an upper bound.
 */
function plainDialTimes(dials: { round: number; due: number }[]): number {
  const spacing = Math.ceil(60_000 / PACING);
  const KST = 9 * 3_600_000;
  const open = (round: number, t: number): number => {
    const [from, to] = round === 0 ? [10 * 60, 18 * 60] : [18 * 60, 21 * 60];
    for (let i = 0; i < 14; i++) {
      const local = t + KST;
      const dayStart = Math.floor(local / 86_400_000) * 86_400_000;
      const wd = new Date(dayStart).getUTCDay();
      const m = (local - dayStart) / 60_000;
      if (wd >= 1 && wd <= 5 && m >= from && m < to) return t;
      t = m < from && wd >= 1 && wd <= 5 ? dayStart + from * 60_000 - KST : dayStart + 86_400_000 + from * 60_000 - KST;
    }
    return t;
  };
  let last = -Infinity;
  let sum = 0;
  for (const d of dials) {
    const at = open(d.round, Math.max(d.due, last + spacing));
    last = at;
    sum += at;
  }
  return sum;
}

export async function benchCallBatches(): Promise<BatchBench> {
  const sim = createSimulator();
  const rt = runtimeOf(sim);
  const flow = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-flows`, REMINDER_FLOW);
  // The budget check: 30 % of the calls to 010 numbers ring out unanswered.
  // BATCH_NO_ANSWER_SHARE=1 makes every call ring out: 3 calls per recipient (the memory check of 300,000 calls).
  await sim.control.request('POST', '/carrier/scripts', { prefix: '010', share: Number(process.env.BATCH_NO_ANSWER_SHARE ?? 0.3), outcome: 'no-answer', types: ['call'] });
  let flowEnded = 0;
  rt.events.subscribe((e) => {
    if (e.type === 'callflow.ended') flowEnded++;
  });
  // Recipients a part at a time, as a customer's tool would send them: the bench holds no list of a million.
  const tasks = (from: number, to: number) => Array.from({ length: Math.min(to, RECIPIENTS) - from }, (_, k) => ({ To: `010${String(20_000_000 + from + k)}`, Variables: { name: `c${from + k}` } }));

  // BATCH_CPU_PROFILE=FILE: a CPU profile of the timed part only (creation and the week), for
  // finding where a round's time goes without the checks below, which read every call back.
  const profile = process.env.BATCH_CPU_PROFILE ? startProfile() : undefined;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  // A body carries at most 10 MB (about 150,000 recipients): a larger list is created as a draft
  // with its first part, the rest added in parts, then resumed, as a customer would.
  const parts = Math.ceil(RECIPIENTS / CHUNK);
  const batch = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-batches`, {
    Name: 'scale',
    From: '07012340001',
    CallFlowId: flow.callFlowId,
    MaxConcurrency: CONCURRENCY,
    PacingPerMinute: PACING,
    // BATCH_NO_WINDOWS=1: rounds in the whole legal time (with every call ringing out, 300,000 calls within the week).
    Rounds: process.env.BATCH_NO_WINDOWS === '1' ? ROUNDS.map(({ Windows: _w, ...r }) => r) : ROUNDS,
    Tasks: tasks(0, CHUNK),
    ...(parts > 1 ? { Status: 'draft' } : {}),
  });
  for (let p = 1; p < parts; p++) await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-batches/${batch.batchId}/tasks`, { Tasks: tasks(p * CHUNK, (p + 1) * CHUNK) });
  if (parts > 1) await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-batches/${batch.batchId}/actions`, { Action: 'resume' });
  const t1 = performance.now();
  // Hour by hour: each advance stays far below the clock's runaway guard (1,000,000 jobs; a
  // million-recipient day places about 400,000 calls).
  let jobs = 0;
  for (let h = 0; h < 7 * 24; h++) jobs += ((await sim.clock.advance({ seconds: HOUR_S })) as { fired: number }).fired;
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  if (profile) await stopProfile(profile, process.env.BATCH_CPU_PROFILE!);
  // BATCH_TIMED_ONLY=1: end here, so that a count of the process's instructions (valgrind's
  // cachegrind) is start-up plus the timed part (docs/contributing.md "Measuring a change to the batch's CPU").
  if (process.env.BATCH_TIMED_ONLY === '1') process.exit(0);
  const rssMb = process.memoryUsage().rss / 1024 / 1024;
  // The batch's peak, before the checks below build lists of every call.
  const peakRssMb = peakRss();

  const path = `/v1/accounts/${ACCOUNT}/call-batches/${batch.batchId}`;
  const got = await request(sim, 'GET', path);
  const timePage = async (query: string) => {
    const s = performance.now();
    await request(sim, 'GET', `${path}/tasks?${query}`);
    return performance.now() - s;
  };
  const pageMs = { first: await timePage('page=1&pageSize=100'), deep: await timePage(`page=${Math.ceil(RECIPIENTS / 200)}&pageSize=100`), filtered: await timePage('status=failed&page=3&pageSize=100') };

  // The same dial times from a plain loop: the (round, dial instant) of every call placed, in dial order.
  const table = rt.calls.calls;
  const dials: { round: number; due: number }[] = [];
  const live = rt.callBatches.get(ACCOUNT, batch.batchId);
  // Round of each call: the first call of a task is round 0, then 1, 2 (calls of one task in creation order).
  const seen = new Map<string, number>();
  let noAnswer = 0;
  for (let pos = 0; pos < table.size; pos++) {
    const c = table.at(pos);
    const round = seen.get(c.to) ?? 0;
    seen.set(c.to, round + 1);
    dials.push({ round, due: Date.parse(c.dateCreated) });
    if (c.status === 'no-answer') noAnswer++;
  }
  // The median of five runs of the plain loop (it is short, so one run is at the mercy of the JIT and the machine).
  const loops: number[] = [];
  for (let i = 0; i < 5; i++) {
    const b0 = performance.now();
    plainDialTimes(dials);
    loops.push(performance.now() - b0);
  }
  const baselineMs = Math.max([...loops].sort((x, y) => x - y)[2]!, 0.001);
  const heapMb = process.memoryUsage().heapUsed / 1024 / 1024;
  const counts = got.counts as Record<string, number>;
  const result: BatchBench = {
    recipients: live.tasks.length,
    calls: table.size,
    flowEnded,
    ms: t2 - t0,
    cpuMs: (cpu.user + cpu.system) / 1000,
    createMs: t1 - t0,
    advanceMs: t2 - t1,
    rssMb,
    peakRssMb,
    heapMb,
    jobs,
    baselineMs,
    ratio: (t2 - t0) / baselineMs,
    pageMs,
    counts,
    noAnswerShare: noAnswer / table.size,
    bytesPerCall: 0,
  };
  await sim.close();
  return result;
}

function startProfile(): Session {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 250 });
  session.post('Profiler.start');
  return session;
}

function stopProfile(session: Session, file: string): Promise<void> {
  return new Promise((resolve, reject) =>
    session.post('Profiler.stop', (err, result) => {
      if (err) return reject(err);
      writeFileSync(file, JSON.stringify(result.profile));
      session.disconnect();
      resolve();
    }),
  );
}

/** The process's peak resident set (VmHWM), in MB. */
function peakRss(): number {
  return Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;
}

/** The heap in use plus array buffers (ended calls are packed into typed arrays, outside the heap). */
function kept(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Bytes one ended call keeps (call row, carrier delivery, wire cache): memory growth over N plain createCall calls run to their end. */
export async function bytesPerCall(n = 20_000): Promise<number> {
  const sim = createSimulator();
  const flow = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-flows`, REMINDER_FLOW);
  (globalThis as { gc?: () => void }).gc?.();
  const before = kept();
  for (let i = 0; i < n; i++) {
    await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/calls`, { To: `010${String(30_000_000 + i)}`, From: '07012340001', CallFlowId: flow.callFlowId, Variables: { name: `c${i}` } });
  }
  await sim.clock.advance({ seconds: 3600 });
  (globalThis as { gc?: () => void }).gc?.();
  const after = kept();
  await sim.close();
  return (after - before) / n;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // BATCH_MEASURE=per-call (with node --expose-gc) measures one ended call's weight alone, in a
  // fresh process: measured after a batch in the same process, the batch's leftovers freed
  // during the measure read as a negative weight.
  const r = process.env.BATCH_MEASURE === 'per-call' ? { bytesPerCall: await bytesPerCall() } : await benchCallBatches();
  console.log(process.argv.includes('--json') ? JSON.stringify(r) : JSON.stringify(r, null, 1));
}
