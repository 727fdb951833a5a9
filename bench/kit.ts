// The whole conformance kit as a user runs it (`npm run conformance -- run`, in process):
// the command's wall time, how long after the last unit the summary appears, and whether the
// summary's duration is the time the user waited. Budgets (docs/decisions.md "Conformance kit"): under 10 s, the summary
// within 1 s of the last unit. Run alone with `node --import tsx bench/kit.ts`; `npm run bench`
// runs it too.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const KIT_BUDGET_MS = 10_000;
export const KIT_TAIL_BUDGET_MS = 1_000;

const root = fileURLToPath(new URL('..', import.meta.url));

export interface KitBench {
  /** Spawn to exit. */
  ms: number;
  /** Last unit's line to the summary's first line. */
  tailMs: number;
  /** The duration the summary reports. */
  reportedMs: number;
  units: number;
  exitCode: number | null;
}

/** One run of `node bin/conformance-start.mjs run` (what the npm script runs: the kit from its bundle), timed by its output lines. */
export function benchKit(): Promise<KitBench> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['bin/conformance-start.mjs', 'run'], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let lastUnitAt = 0;
    let summaryAt = 0;
    child.stdout!.on('data', (d: Buffer) => {
      const now = performance.now();
      out += d;
      const text = d.toString();
      if (/^[✓✗-] /m.test(text)) lastUnitAt = now;
      if (!summaryAt && /^Summary /m.test(text)) summaryAt = now;
    });
    child.on('error', reject);
    child.on('exit', (exitCode) => {
      const ms = performance.now() - started;
      const reported = /^Summary \([^,]+, seed \d+, ([\d.]+) (s|ms)\)/m.exec(out);
      const units = /units:\s+(\d+) passed, (\d+) failed, (\d+) skipped/.exec(out);
      if (!reported || !units || !summaryAt) return reject(new Error(`no summary in the kit's output:\n${out.slice(-2000)}`));
      const reportedMs = Number(reported[1]) * (reported[2] === 's' ? 1000 : 1);
      resolve({ ms, tailMs: summaryAt - lastUnitAt, reportedMs, units: Number(units[1]) + Number(units[2]) + Number(units[3]), exitCode });
    });
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await benchKit();
  console.log(`kit in process: ${r.units} units, ${Math.round(r.ms)} ms wall (budget ${KIT_BUDGET_MS}), summary ${Math.round(r.tailMs)} ms after the last unit (budget ${KIT_TAIL_BUDGET_MS}), reported ${Math.round(r.reportedMs)} ms, exit ${r.exitCode}`);
  if (r.ms >= KIT_BUDGET_MS || r.tailMs >= KIT_TAIL_BUDGET_MS || r.exitCode !== 0) process.exitCode = 1;
}
