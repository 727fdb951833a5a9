// List throughput (bench/README.md, with the journal's cost: "Durable state"): autocannon from this process (loopback)
// against the simulator as `npm start` serves it, the same with --state-dir, and a bare node:http
// server answering the same bytes; rounds alternate so every side sees the same machine noise,
// and the median round of each counts. Beside req/s, each server's CPU time per 1,000 answers
// (/proc, user + system) during its rounds: on a shared machine it moves less than req/s does.
// Run alone with `node --import tsx bench/throughput.ts` (BENCH_SECONDS, BENCH_ROUNDS).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { JOURNAL_COST_BUDGET } from './durable.ts';
import { processCpuMs, startServer, stop } from './servers.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 50;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATH = '/v1/accounts/AC1a2b3c4d/blocked-callers';
const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f' };

export interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** Server CPU milliseconds per 1,000 answers in this round. */
  cpuMsPerK: number;
}

export interface ThroughputBench {
  bare: Load;
  sim: Load;
  durable: Load;
  rounds: { bare: Load[]; sim: Load[]; durable: Load[] };
  /** Simulator req/s over bare req/s (median rounds). */
  ratio: number;
  durableRatio: number;
  /** 1 - durableRatio / ratio: what the journal costs the ratio. */
  journalCost: number;
  /** Durable CPU per answer / sim CPU per answer - 1 (median rounds): what the journal adds to each answer's CPU. */
  journalCpuOverhead: number;
  /** The simulator's resident set after its rounds. */
  rssMb: number;
  seconds: number;
  connections: number;
}

async function load(server: { child: ChildProcess; port: number }, seconds: number): Promise<Load> {
  const cpu0 = processCpuMs(server.child.pid!);
  const r = await autocannon({ url: `http://127.0.0.1:${server.port}${PATH}`, connections: CONNECTIONS, duration: seconds, headers: HEADERS });
  const cpu = processCpuMs(server.child.pid!) - cpu0;
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx, cpuMsPerK: (cpu / Math.max(1, r.requests.total)) * 1000 };
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** 1,000 blocked callers on the demo account (the fixture holds one; 999 more through the API, journaled with --state-dir); the first page's bytes. */
async function seed(port: number): Promise<string> {
  for (let i = 0; i < 999; i++) {
    const res = await fetch(`http://127.0.0.1:${port}${PATH}`, {
      method: 'POST',
      headers: { ...HEADERS, 'content-type': 'application/json' },
      body: JSON.stringify({ number: `010${String(10000000 + i).slice(-8)}`, note: `entry ${i}` }),
    });
    if (res.status !== 201) throw new Error(`seeding failed: ${res.status} ${await res.text()}`);
  }
  return (await fetch(`http://127.0.0.1:${port}${PATH}`, { headers: HEADERS })).text();
}

export async function benchThroughput(): Promise<ThroughputBench> {
  const stateDir = mkdtempSync(path.join(os.tmpdir(), 'bench-state-dir-'));
  const sim = await startServer(process.execPath, ['bin/start.cjs', '--port', '0']);
  const durable = await startServer(process.execPath, ['bin/start.cjs', '--port', '0', '--state-dir', stateDir]);
  let bare: { child: ChildProcess; port: number } | undefined;
  try {
    const body = await seed(sim.port);
    if ((await seed(durable.port)) !== body) throw new Error('the simulator with --state-dir answers other bytes');
    const parsed = JSON.parse(body);
    if (parsed.data.length !== 20 || parsed.meta.total !== 1000) throw new Error(`unexpected list: ${parsed.meta.total} entries`);
    bare = await startServer(process.execPath, ['bench/bare-server.mjs', Buffer.from(body).toString('base64')]);
    for (const s of [sim, durable, bare]) await load(s, 2); // warm-up
    const rounds = { bare: [] as Load[], sim: [] as Load[], durable: [] as Load[] };
    for (let i = 0; i < ROUNDS; i++) {
      rounds.bare.push(await load(bare, DURATION));
      rounds.sim.push(await load(sim, DURATION));
      rounds.durable.push(await load(durable, DURATION));
    }
    const mid = (runs: Load[]) => [...runs].sort((x, y) => x.rps - y.rps)[Math.floor(runs.length / 2)]!;
    const midCpu = (runs: Load[]) => [...runs].sort((x, y) => x.cpuMsPerK - y.cpuMsPerK)[Math.floor(runs.length / 2)]!.cpuMsPerK;
    const s = mid(rounds.sim);
    const d = mid(rounds.durable);
    const b = mid(rounds.bare);
    const ratio = s.rps / b.rps;
    const durableRatio = d.rps / b.rps;
    return {
      bare: b,
      sim: s,
      durable: d,
      rounds,
      ratio,
      durableRatio,
      journalCost: 1 - durableRatio / ratio,
      journalCpuOverhead: midCpu(rounds.durable) / midCpu(rounds.sim) - 1,
      rssMb: rssMb(sim.child.pid!),
      seconds: DURATION,
      connections: CONNECTIONS,
    };
  } finally {
    await stop(sim.child);
    await stop(durable.child);
    if (bare) await stop(bare.child);
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const fmt = (n: number, d = 1) => n.toFixed(d);
const percent = (x: number, more: string, less: string) => (x >= 0 ? `${fmt(x * 100)} % ${more}` : `${fmt(-x * 100)} % ${less}`);

/** The journal's cost, as the bench's check shows it. */
export function journalCostLine(t: ThroughputBench): string {
  return `${fmt(t.durableRatio, 2)} vs ${fmt(t.ratio, 2)}: ${percent(t.journalCost, 'lower', 'higher')} (server CPU per answer ${percent(t.journalCpuOverhead, 'more', 'less')})`;
}

/** The table of the median rounds, and every round's req/s. */
export function throughputLines(t: ThroughputBench): string[] {
  const rows = [
    ['', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'non-2xx', 'CPU ms/1k'],
    ...(
      [
        ['bare node:http', t.bare],
        ['simulator', t.sim],
        ['--state-dir', t.durable],
      ] as const
    ).map(([name, l]) => [name, fmt(l.rps, 0), fmt(l.p50), fmt(l.p99), String(l.errors), String(l.non2xx), fmt(l.cpuMsPerK)]),
  ];
  return [
    `GET blocked-callers (20 of 1,000 entries), autocannon -c ${t.connections}, ${t.seconds}s x ${t.rounds.sim.length} alternating rounds, median round each`,
    ...rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(16) : c.padStart(11))).join('')),
    `all rounds req/s: bare ${t.rounds.bare.map((r) => fmt(r.rps, 0)).join(', ')}; simulator ${t.rounds.sim.map((r) => fmt(r.rps, 0)).join(', ')}; --state-dir ${t.rounds.durable.map((r) => fmt(r.rps, 0)).join(', ')}`,
  ];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const load0 = os.loadavg();
  const t = await benchThroughput();
  for (const line of throughputLines(t)) console.log(line);
  const ok = t.journalCost <= JOURNAL_COST_BUDGET;
  console.log(`${ok ? 'PASS' : 'FAIL'}  --state-dir: list-throughput ratio ${journalCostLine(t)}; budget at most ${JOURNAL_COST_BUDGET * 100} % lower`);
  console.log(`(load average before ${load0.map((x) => x.toFixed(1)).join(' ')}, after ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}; node ${process.version}, ${os.cpus().length} CPUs)`);
  if (!ok) process.exitCode = 1;
}
