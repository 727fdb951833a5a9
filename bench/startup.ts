// Start-up, measured against its floor in the same run (bench/README.md "Start-up"): a bare
// `node -e` HTTP server, the simulator as `npm start` runs it (`node bin/start.cjs`), `npm start`
// itself and `npm start` of a package whose start script is that bare server (the floor: npm and
// node alone), interleaved, each timed from spawn to its first answer (GET /_sim/health) in
// wall time and in CPU time: the on-CPU time of every thread of every process of its group
// (/proc/<pid>/task/<tid>/schedstat), which a shared machine disturbs far less than the wall clock. And the
// first createSimulator() in a fresh process (so nothing is warm), with the whole list and with
// the list less the optional families (agents, Agent SDK, SIP server), which must add nothing when unused.
// Alone: `node --import tsx bench/startup.ts`.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The simulator's own start-up (to first answer) may cost at most this many times a bare node start, in CPU. */
export const START_CPU_RATIO_BUDGET = 1.8;
/** The target for `npm start` to first answer on a quiet machine (npm and node alone take about 170 ms). */
export const NPM_START_WALL_TARGET_MS = 220;
/** What `npm start` may add, wall, to `npm start` of a bare server in the same rounds: the 220 ms less npm and node's 170 ms. */
export const ABOVE_FLOOR_BUDGET_MS = 50;
/** The first createSimulator() in a fresh process, CPU time. */
export const CREATE_CPU_BUDGET_MS = 10;
/** What the agent families may add to the first createSimulator() when no agent is used, CPU time. */
export const UNUSED_FAMILIES_BUDGET_MS = 1;
/** Families that must cost nothing at start when unused: the agent families and the SIP server. */
export const OPTIONAL_FAMILIES = ['agents', 'agentSdk', 'sipServer'];

const BARE = "require('http').createServer((q,s)=>s.end('{}')).listen(0,'127.0.0.1',function(){console.log('listening on http://127.0.0.1:'+this.address().port)})";

export interface Start {
  wallMs: number;
  cpuMs: number;
}

/** On-CPU time of every live process in the group (the spawned command and its children), all their threads. */
function groupCpuMs(pgid: number): number {
  let ns = 0;
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      // Every thread's (V8's compiler and GC helpers too): /proc/<pid>/schedstat is the main thread's alone.
      for (const t of readdirSync(`/proc/${p}/task`)) ns += Number(readFileSync(`/proc/${p}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return ns / 1e6;
}

/** Spawns the command (in `cwd`) in its own group, waits for "listening on <url>", asks once, then stops the group. */
function timeToFirstAnswer(cmd: string, args: string[], cwd = root): Promise<Start> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], detached: true });
    let out = '';
    let asked = false;
    child.on('exit', () => !asked && reject(new Error(`${cmd} ${args.join(' ')} exited before answering`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m || asked) return;
      asked = true;
      void fetch(`${m[1]}/_sim/health`)
        .then((r) => r.text())
        .then(() => {
          const start = { wallMs: performance.now() - t0, cpuMs: groupCpuMs(child.pid!) };
          child.on('exit', () => resolve(start));
          process.kill(-child.pid!, 'SIGTERM');
        }, reject);
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export interface StartupBench {
  runs: number;
  bare: Start;
  sim: Start;
  npm: Start;
  /** `npm start` of a package whose start script is the bare server: npm and node alone. */
  floor: Start;
  /** sim / bare, CPU. */
  cpuRatio: number;
  /** npm start less the floor, wall and CPU: medians of the differences within each round. */
  aboveFloor: Start;
  cpuRuns: { bare: number[]; sim: number[]; npm: number[]; floor: number[] };
  /** npm start less the floor, wall, round by round. */
  aboveFloorRuns: number[];
}

/** A package in a temporary folder whose `npm start` serves the bare server (extra arguments ignored). */
function floorPackage(): string {
  const dir = mkdtempSync(join(tmpdir(), 'startup-floor-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'startup-floor', private: true, scripts: { start: 'node floor.cjs' } }));
  writeFileSync(join(dir, 'floor.cjs'), BARE);
  return dir;
}

/** `runs` interleaved rounds after one `npm start` that builds the bundle if it is stale; medians. */
export async function benchStartup(runs = 5): Promise<StartupBench> {
  const npmStart = ['start', '--silent', '--', '--port', '0'];
  const floorDir = floorPackage();
  try {
    await timeToFirstAnswer('npm', npmStart);
    await timeToFirstAnswer('npm', npmStart, floorDir);
    const all = { bare: [] as Start[], sim: [] as Start[], npm: [] as Start[], floor: [] as Start[] };
    for (let i = 0; i < runs; i++) {
      all.bare.push(await timeToFirstAnswer(process.execPath, ['-e', BARE]));
      all.floor.push(await timeToFirstAnswer('npm', npmStart, floorDir));
      all.sim.push(await timeToFirstAnswer(process.execPath, ['bin/start.cjs', '--port', '0']));
      all.npm.push(await timeToFirstAnswer('npm', npmStart));
    }
    const mid = (xs: Start[]): Start => ({ wallMs: median(xs.map((x) => x.wallMs)), cpuMs: median(xs.map((x) => x.cpuMs)) });
    const [bare, sim, npm, floor] = [mid(all.bare), mid(all.sim), mid(all.npm), mid(all.floor)];
    const above = all.npm.map((n, i) => ({ wallMs: n.wallMs - all.floor[i]!.wallMs, cpuMs: n.cpuMs - all.floor[i]!.cpuMs }));
    return {
      runs,
      bare,
      sim,
      npm,
      floor,
      cpuRatio: sim.cpuMs / bare.cpuMs,
      aboveFloor: mid(above),
      cpuRuns: { bare: all.bare.map((x) => x.cpuMs), sim: all.sim.map((x) => x.cpuMs), npm: all.npm.map((x) => x.cpuMs), floor: all.floor.map((x) => x.cpuMs) },
      aboveFloorRuns: above.map((x) => x.wallMs),
    };
  } finally {
    rmSync(floorDir, { recursive: true, force: true });
  }
}

export interface CreateBench {
  /** First createSimulator() in a fresh process: CPU and wall ms. */
  cpuMs: number;
  wallMs: number;
  /** The first runtime built from the whole list, and from the list less OPTIONAL_FAMILIES (CPU ms, fresh processes). */
  firstBuildMs: number;
  firstBuildWithoutMs: number;
}

/** Runs `code` (a module body printing one JSON line) in a fresh `node --import tsx` process. */
function fresh<T>(code: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.on('exit', (c) => (c === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`a fresh process exited with ${c}`))));
  });
}

const CPU = 'const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };';

/** Medians over `runs` fresh processes each. */
export async function benchCreate(runs = 5): Promise<CreateBench> {
  const creates: { cpuMs: number; wallMs: number }[] = [];
  const builds: { whole: number; without: number }[] = [];
  for (let i = 0; i < runs; i++) {
    creates.push(
      await fresh(`${CPU}
const { createSimulator } = await import('./simulator/index.ts');
const c = cpu(), t = performance.now();
createSimulator();
console.log(JSON.stringify({ cpuMs: cpu() - c, wallMs: performance.now() - t }));`),
    );
    const build = (without: boolean) =>
      fresh<number>(`${CPU}
const { build } = await import('./simulator/registry.ts');
const { FAMILIES } = await import('./simulator/resources/index.ts');
const { loadFixtureFile, DEFAULT_FIXTURE_PATH } = await import('./simulator/fixtures.ts');
const { Runtime } = await import('./simulator/runtime.ts');
const optional = ${JSON.stringify(without ? OPTIONAL_FAMILIES : [])};
const reg = build(FAMILIES.filter((f) => !optional.includes(f.key)));
const fixture = loadFixtureFile(DEFAULT_FIXTURE_PATH);
const c = cpu();
new Runtime(fixture, 1, reg);
console.log(JSON.stringify(cpu() - c));`);
    builds.push({ whole: await build(false), without: await build(true) });
  }
  return {
    cpuMs: median(creates.map((c) => c.cpuMs)),
    wallMs: median(creates.map((c) => c.wallMs)),
    firstBuildMs: median(builds.map((b) => b.whole)),
    firstBuildWithoutMs: median(builds.map((b) => b.without)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const s = await benchStartup(Number(process.env.STARTUP_RUNS ?? 5));
  const c = await benchCreate(Number(process.env.STARTUP_RUNS ?? 5));
  console.log(JSON.stringify({ startup: s, create: c }, null, 2));
}
