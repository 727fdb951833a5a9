// How a replay reads: a line per exchange (same, different with each difference under it, or
// passed over with why), a summary, and the same as Markdown or JSON files for CI.
import { writeFileSync } from 'node:fs';
import { describe } from './compare.ts';
import type { ExchangeResult } from './runner.ts';

export interface ReplaySummary {
  recordedFrom: string;
  target: string;
  same: number;
  different: number;
  skipped: number;
  results: ExchangeResult[];
}

const counted = (r: ExchangeResult) => r.differences.filter((d) => !d.observation);

export function summarize(recordedFrom: string, target: string, results: ExchangeResult[]): ReplaySummary {
  return {
    recordedFrom,
    target,
    same: results.filter((r) => !r.skipped && counted(r).length === 0).length,
    different: results.filter((r) => !r.skipped && counted(r).length > 0).length,
    skipped: results.filter((r) => r.skipped).length,
    results,
  };
}

const statusOf = (r: ExchangeResult) => (r.recordedStatus === r.gotStatus ? `${r.gotStatus}` : `${r.recordedStatus} -> ${r.gotStatus ?? 'none'}`);

/** The lines of one exchange. */
export function exchangeLines(r: ExchangeResult): string[] {
  const head = `#${r.seq} ${r.method} ${r.path}`;
  if (r.skipped) return [`  - ${head}: passed over, ${r.skipped}`];
  const diffs = counted(r);
  const notes = r.differences.filter((d) => d.observation);
  return [`  ${diffs.length ? 'x' : 'ok'} ${head}  ${statusOf(r)}`, ...diffs.map((d) => `      ${describe(d)}`), ...notes.map((d) => `      (observation) ${describe(d)}`)];
}

export function summaryLine(s: ReplaySummary): string {
  return `${s.results.length} exchanges: ${s.same} as recorded, ${s.different} with differences, ${s.skipped} passed over`;
}

export function markdown(s: ReplaySummary): string {
  const rows = s.results.map((r) => {
    const what = r.skipped ? `passed over: ${r.skipped}` : counted(r).length ? counted(r).map((d) => describe(d).replace(/\|/g, '\\|')).join('<br>') : 'as recorded';
    return `| ${r.seq} | \`${r.method} ${r.path.replace(/\|/g, '\\|')}\` | ${r.skipped ? '' : statusOf(r)} | ${what} |`;
  });
  return [`# Replay of a recording`, '', `Recorded from ${s.recordedFrom}, replayed against ${s.target}: ${summaryLine(s)}.`, '', '| # | request | status | differences |', '|---|---|---|---|', ...rows, ''].join('\n');
}

/** Writes `--report md:PATH,json:PATH`. */
export function writeReplayReports(spec: string | undefined, s: ReplaySummary): string[] {
  const written: string[] = [];
  for (const part of (spec ?? '').split(',').map((p) => p.trim()).filter(Boolean)) {
    const m = /^(md|json):(.+)$/.exec(part);
    if (!m) throw new Error(`--report takes md:PATH and json:PATH, got "${part}"`);
    writeFileSync(m[2]!, m[1] === 'md' ? markdown(s) : `${JSON.stringify(s, null, 2)}\n`);
    written.push(`${m[1]} ${m[2]}`);
  }
  return written;
}
