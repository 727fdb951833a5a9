// Durable state (docs/decisions.md "Durable state", the brief on durable state and recordings's measures): a restart with a journal of 100,000 requests is ready in
// under 5 s. The journal is written by an in-process simulator with a state dir (the same entries
// HTTP would write, less a few headers), left as a kill -9 leaves it (no last snapshot), then the
// served simulator (`bin/start.cjs --state-dir`) is started on a fresh copy of it, three times, and
// timed from spawn to the first answer of GET /_sim/health; the median counts. The list-throughput
// cost of the journal is measured in bench/throughput.ts beside the plain simulator.
// Run alone with `node --import tsx bench/durable.ts`.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createSimulator } from '../simulator/index.ts';
import { crashStateDir } from '../simulator/internal.ts';
import { listeningUrl, processCpuMs, root, stop } from './servers.ts';

export const RESTART_BUDGET_MS = 5000;
/** The journal may cost the list-throughput ratio at most this share. */
export const JOURNAL_COST_BUDGET = 0.2;
const REQUESTS = 100_000;
const FROM = '07077770001';
const CONTROL = { 'content-type': 'application/json' };

export interface RestartBench {
  requests: number;
  journalMb: number;
  writeMs: number;
  restartMs: number[];
  /** CPU time (user + system) the served simulator had used by its first answer, per run: the wall time on an idle machine. */
  cpuMs: number[];
  medianMs: number;
  medianCpuMs: number;
}

/** One request of the mix, by its index; every one changes state (reads are not journaled): blocks, releases, texts, verifications, notes changed, clock moves. */
function request(ACCOUNT: string, i: number, created: string[], recipients: string[]) {
  const n = `010${String(10_000_000 + i).slice(-8)}`;
  switch (i % 10) {
    case 0:
    case 1:
    case 2:
      return { method: 'POST', url: `${ACCOUNT}/blocked-callers`, body: { number: n, note: `entry ${i}` }, keep: created };
    case 3:
      return { method: 'DELETE', url: `${ACCOUNT}/blocked-callers/${created.shift()}` };
    case 4:
    case 8:
      return { method: 'POST', url: `${ACCOUNT}/messages`, body: { From: FROM, To: n, Body: `hello ${i}` } };
    case 5:
      return { method: 'POST', url: `${ACCOUNT}/blocked-recipients`, body: { number: n, channel: 'message' }, keep: recipients };
    case 6:
      return { method: 'PATCH', url: `${ACCOUNT}/blocked-recipients/${recipients[recipients.length - 1]}`, body: { note: `note ${i}` } };
    case 7:
      return { method: 'POST', url: '/v2/verifications', body: { to: n, from: FROM } };
    default:
      return { method: 'POST', url: '/_sim/clock/advance', body: { seconds: 1 } };
  }
}

/** Writes a state dir whose journal holds REQUESTS requests and no later snapshot. */
export async function writeJournal(dir: string): Promise<number> {
  const t = performance.now();
  const sim = createSimulator({ stateDir: dir, compactEvery: REQUESTS * 10, onWarning: () => {} });
  await sim.ready;
  // An account of its own whose texts may go past the monthly quota (sms_overage): the journal's first request.
  const made = await sim.handle({ method: 'POST', url: '/_sim/accounts', headers: CONTROL, body: JSON.stringify({ addons: ['sms_overage'], numbers: [FROM] }) });
  if (made.status !== 201) throw new Error(`the bench account was refused: ${made.body}`);
  const { accountId, apiKey } = JSON.parse(made.body) as { accountId: string; apiKey: string };
  const account = `/v1/accounts/${accountId}`;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const created: string[] = [];
  const recipients: string[] = [];
  for (let i = 1; i < REQUESTS; i++) {
    const r = request(account, i, created, recipients);
    const res = await sim.handle({ method: r.method, url: r.url, headers: r.url.startsWith('/_sim') ? CONTROL : headers, body: 'body' in r ? JSON.stringify(r.body) : undefined });
    if (res.status >= 300) throw new Error(`journal request ${i} (${r.method} ${r.url}) answered ${res.status} ${res.body}`);
    r.keep?.push(JSON.parse(res.body).id);
  }
  crashStateDir(sim);
  await sim.close();
  return performance.now() - t;
}

/** Spawn to first answer of the served simulator on a copy of `dir`: wall and CPU milliseconds. */
async function restart(dir: string): Promise<{ ms: number; cpuMs: number }> {
  const copy = mkdtempSync(path.join(os.tmpdir(), 'bench-state-'));
  cpSync(dir, copy, { recursive: true });
  const t0 = performance.now();
  const child = spawn(process.execPath, ['bin/start.cjs', '--port', '0', '--state-dir', copy], { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    const url = await listeningUrl(child, 'the simulator');
    const res = await fetch(`${url}/_sim/health`);
    await res.text();
    return { ms: performance.now() - t0, cpuMs: processCpuMs(child.pid!) };
  } finally {
    await stop(child, 'SIGKILL');
    rmSync(copy, { recursive: true, force: true });
  }
}

export async function benchRestart(): Promise<RestartBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-journal-'));
  try {
    const writeMs = await writeJournal(dir);
    const journalMb = readdirSync(dir).filter((n) => n.startsWith('journal-')).reduce((s, n) => s + statSync(path.join(dir, n)).size, 0) / 1024 / 1024;
    const runs: { ms: number; cpuMs: number }[] = [];
    for (let i = 0; i < 3; i++) runs.push(await restart(dir));
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
    const restartMs = runs.map((r) => r.ms);
    const cpuMs = runs.map((r) => r.cpuMs);
    return { requests: REQUESTS, journalMb, writeMs, restartMs, cpuMs, medianMs: median(restartMs), medianCpuMs: median(cpuMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const load0 = os.loadavg();
  const r = await benchRestart();
  console.log(`load average before ${load0.map((x) => x.toFixed(1)).join(' ')}, after ${os.loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  console.log(`journal of ${r.requests} requests (${r.journalMb.toFixed(1)} MB) written in ${r.writeMs.toFixed(0)} ms; restart to first answer: ${r.restartMs.map((x) => x.toFixed(0)).join(', ')} ms wall (median ${r.medianMs.toFixed(0)}, budget ${RESTART_BUDGET_MS}); CPU ${r.cpuMs.join(', ')} ms (median ${r.medianCpuMs})`);
}
