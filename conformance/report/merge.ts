// Joining the JSON reports of a sharded run (`run --shard i/n` on n CI jobs) into the report one
// run would have written: the units back in run order, the summary and exit code recomputed
// from them, so verdict and coverage are those of a single run.
import { summarize, type RunReport } from '../result.ts';

export class MergeError extends Error {}

export function mergeReports(inputs: readonly { file: string; report: RunReport }[]): RunReport {
  if (inputs.length === 0) throw new MergeError('merge needs the JSON reports of the shards');
  for (const { file, report } of inputs) {
    if (report?.tool !== 'conformance-kit' || !Array.isArray(report.units)) throw new MergeError(`${file} is not a JSON report of the conformance kit`);
  }
  const first = inputs[0]!.report;
  for (const { file, report } of inputs) {
    if (report.seed !== first.seed) throw new MergeError(`${file} ran with seed ${report.seed}, ${inputs[0]!.file} with ${first.seed}: shards must share the seed`);
    if (report.target.label !== first.target.label) throw new MergeError(`${file} ran against ${report.target.label}, ${inputs[0]!.file} against ${first.target.label}`);
  }
  const shards = inputs.map(({ file, report }) => {
    const m = /^(\d+)\/(\d+)$/.exec(report.shard ?? '');
    return { file, report, index: m ? Number(m[1]) : 0, count: m ? Number(m[2]) : 0 };
  });
  const count = shards[0]!.count;
  let units = inputs.flatMap((i) => i.report.units);
  if (count > 0) {
    const seen = new Set<number>();
    for (const s of shards) {
      if (s.count !== count) throw new MergeError(`${s.file} is shard ${s.report.shard ?? '(none)'}, the others are of ${count}`);
      if (seen.has(s.index)) throw new MergeError(`shard ${s.index}/${count} is given twice (${s.file})`);
      seen.add(s.index);
    }
    const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !seen.has(i));
    if (missing.length) throw new MergeError(`shard(s) ${missing.map((i) => `${i}/${count}`).join(', ')} missing: the merged verdict would not be the whole run's`);
    // Shard i held units i-1, i-1+n, i-1+2n... of the run: deal them back.
    const byIndex = new Map(shards.map((s) => [s.index, s.report.units]));
    units = [];
    for (let k = 0; ; k++) {
      const row = Array.from({ length: count }, (_, i) => byIndex.get(i + 1)![k]).filter((u) => u !== undefined);
      if (row.length === 0) break;
      units.push(...row);
    }
  }
  return {
    ...first,
    shard: undefined,
    mergedFrom: inputs.map((i) => i.file),
    target: { ...first.target, capabilities: [...new Set(inputs.flatMap((i) => i.report.target.capabilities))].sort() },
    startedAt: inputs.map((i) => i.report.startedAt).sort()[0]!,
    ms: Math.max(...inputs.map((i) => i.report.ms)),
    units,
    summary: summarize(units),
  };
}
