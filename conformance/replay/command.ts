// `platform-conformance replay DIR --target URL`: a recording (conformance/recording/) replayed
// against a target, the differences of each exchange printed (and written with --report), and the
// recording written as a scenario (--out, default DIR/scenario.yaml) a vendor can keep. Exit code
// 0 when every replayed exchange answered as recorded, 1 when one did not.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { readRecording } from '../recording/format.ts';
import type { Target } from '../target.ts';
import { Replayer } from './runner.ts';
import { exchangeLines, summarize, summaryLine, writeReplayReports, type ReplaySummary } from './report.ts';
import { recordedScenario } from './scenario-yaml.ts';

export interface ReplayOptions {
  dir: string;
  target: Target;
  /** Where the scenario goes; default DIR/scenario.yaml. */
  out?: string;
  /** md:PATH,json:PATH */
  report?: string;
}

export interface ReplayIo {
  out: { write(s: string): unknown };
}

export async function replayCommand(o: ReplayOptions, io: ReplayIo): Promise<{ code: number; summary: ReplaySummary; scenarioFile: string }> {
  const { meta, exchanges } = readRecording(o.dir);
  io.out.write(`Replaying ${exchanges.length} exchanges recorded from ${meta.upstream} against ${o.target.label}\n`);
  const results = await new Replayer(o.target).run(exchanges, (r) => io.out.write(`${exchangeLines(r).join('\n')}\n`));
  const summary = summarize(meta.upstream, o.target.label, results);
  const scenarioFile = o.out ?? path.join(o.dir, 'scenario.yaml');
  const scenario = recordedScenario(meta, exchanges);
  writeFileSync(scenarioFile, scenario.yaml);
  io.out.write(`${summaryLine(summary)}\nscenario: ${scenarioFile} (${scenario.steps} steps${scenario.leftOut.length ? `, ${scenario.leftOut.length} left out` : ''})\n`);
  for (const r of writeReplayReports(o.report, summary)) io.out.write(`report: ${r}\n`);
  return { code: summary.different > 0 ? 1 : 0, summary, scenarioFile };
}
