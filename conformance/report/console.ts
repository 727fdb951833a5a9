// Live progress on the terminal: one line per unit as it finishes (with its time), the failed
// assertions under it, then a summary. Colours only on a TTY.
import type { ProgressListener } from '../run.ts';
import type { RunReport, UnitResult } from '../result.ts';

interface Out {
  write(text: string): unknown;
  isTTY?: boolean;
}

function painter(out: Out) {
  const on = Boolean(out.isTTY) && !process.env.NO_COLOR;
  const wrap = (code: number) => (s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);
  return { red: wrap(31), green: wrap(32), yellow: wrap(33), dim: wrap(2), bold: wrap(1) };
}

function ms(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${Math.round(n)} ms`;
}

/** Past this, the console shows the start of a message (where the differing path is); reports keep it whole. */
const CONSOLE_MESSAGE_LIMIT = 400;

function consoleMessage(message: string): string {
  const oneLine = message.replace(/\s*\n\s*/g, ' ');
  return oneLine.length > CONSOLE_MESSAGE_LIMIT ? `${oneLine.slice(0, CONSOLE_MESSAGE_LIMIT)}... (${oneLine.length} characters; whole in the JSON and JUnit reports)` : oneLine;
}

export function unitLines(u: UnitResult, c = painter({ write: () => 0 })): string[] {
  const icon = u.status === 'passed' ? c.green('✓') : u.status === 'failed' ? c.red('✗') : c.yellow('-');
  const kind = u.kind === 'property' ? 'property ' : '';
  const lines = [`${icon} ${kind}${u.id} ${c.dim(ms(u.ms))}${u.skipReason ? c.yellow(`  skipped: ${u.skipReason}`) : ''}`];
  for (const s of u.steps) {
    const where = s.line ? `${u.file ?? u.id}:${s.line}` : u.id;
    for (const a of s.assertions) {
      if (a.outcome === 'pass') continue;
      const tag = a.outcome === 'fail' ? c.red(`${a.level} FAIL`) : c.yellow('sim observation');
      lines.push(`    ${tag} ${a.id} [${a.clauses.join(', ')}] step ${s.index + 1} "${s.name}" (${where})`);
      if (a.message) lines.push(`      ${consoleMessage(a.message)}`);
    }
    if (s.status === 'skipped' && u.status !== 'skipped') lines.push(c.dim(`    skipped step ${s.index + 1} "${s.name}": ${s.skipReason}`));
  }
  if (u.replayFile) lines.push(`    replay: ${u.replayCommand ?? `npm run conformance -- run ${u.replayFile} --seed ${u.seed}`}`);
  return lines;
}

export function consoleProgress(out: Out = process.stdout, opts: { verbose?: boolean } = {}): ProgressListener {
  const c = painter(out);
  return {
    start(info) {
      out.write(`${c.bold('Conformance run')} against ${info.target}, seed ${info.seed}, ${info.units} unit(s)\n`);
      out.write(c.dim(`capabilities: ${info.capabilities.join(', ') || '(none)'}\n`));
      if (info.receiver) {
        const where = info.receiver.publicUrl === info.receiver.localUrl ? '' : ` (listening on ${info.receiver.localUrl})`;
        out.write(c.dim(`webhook receiver: ${info.receiver.publicUrl}${where}\n`));
      }
    },
    unit(u) {
      const lines = unitLines(u, c);
      if (!opts.verbose && u.status === 'skipped') lines.splice(1);
      out.write(`${lines.join('\n')}\n`);
    },
  };
}

export function summaryText(report: RunReport, out: Out = process.stdout): string {
  const c = painter(out);
  const s = report.summary;
  const lines = [
    '',
    `${c.bold('Summary')} (${report.target.label}, seed ${report.seed}, ${ms(report.ms)})`,
    `  units:      ${s.units.passed} passed, ${s.units.failed} failed, ${s.units.skipped} skipped`,
    `  steps:      ${s.steps.passed} passed, ${s.steps.failed} failed, ${s.steps.skipped} skipped`,
    `  spec:       ${s.assertions.spec.pass} assertions passed, ${s.assertions.spec.fail} failed`,
    `  sim:        ${s.assertions.sim.pass} passed, ${s.assertions.sim.fail} failed, ${s.assertions.sim.observation} observations (${report.target.simLevel === 'fail' ? 'counted as failures' : 'not counted'})`,
    s.exitCode === 0 ? c.green('  result:     conformant for everything that ran') : c.red('  result:     FAILED'),
  ];
  return `${lines.join('\n')}\n`;
}
