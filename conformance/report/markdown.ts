// A Markdown report for people: the verdict, failures clause by clause, observations, units
// with their times, and clause coverage when the catalogue is at hand.
import type { ClauseCatalogue } from '../clauses.ts';
import { allAssertions, type RunReport } from '../result.ts';
import { computeCoverage } from './coverage.ts';

function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/**
 * The vendor's view, first thing in the report: per area of the catalogue, how many observable
 * clauses it has, how many a passing spec assertion covered, how many failed, and the units
 * skipped with their reasons (the table to paste into a certification request).
 */
export function areaTable(report: RunReport, catalogue: ClauseCatalogue): string[] {
  const cov = computeCoverage(report.units, catalogue);
  const areaOf = (id: string) => id.split('.')[0]!;
  const rows = new Map<string, { clauses: number; covered: number; failed: number; skipped: Map<string, string[]> }>();
  for (const row of cov.clauses) {
    if (!row.clause.observable || (row.clause as { retired?: boolean }).retired) continue;
    const r = rows.get(areaOf(row.clause.id)) ?? { clauses: 0, covered: 0, failed: 0, skipped: new Map() };
    r.clauses++;
    if (row.state === 'covered') r.covered++;
    if (row.state === 'failing') r.failed++;
    rows.set(areaOf(row.clause.id), r);
  }
  for (const u of report.units) {
    if (u.status !== 'skipped') continue;
    for (const area of new Set(u.clauses.map(areaOf))) {
      const r = rows.get(area);
      if (!r) continue;
      const reason = u.skipReason ?? 'skipped';
      r.skipped.set(reason, [...(r.skipped.get(reason) ?? []), u.id]);
    }
  }
  const lines = ['## Per area', '', '| Area | Clauses | Covered (passed) | Failed | Not covered | Skipped units (reason) |', '|---|---|---|---|---|---|'];
  for (const [area, r] of rows) {
    const skipped = [...r.skipped].map(([reason, units]) => `${units.length}: ${reason}`).join('; ');
    lines.push(`| ${area} | ${r.clauses} | ${r.covered} | ${r.failed} | ${r.clauses - r.covered - r.failed} | ${cell(skipped)} |`);
  }
  lines.push(`| **all** | ${cov.observable} | ${cov.covered} | ${cov.failing} | ${cov.observable - cov.covered - cov.failing} | ${report.summary.units.skipped} unit(s) |`);
  return lines;
}

export function toMarkdown(report: RunReport, catalogue?: ClauseCatalogue): string {
  const s = report.summary;
  const out: string[] = [];
  out.push(`# Conformance report: ${report.target.label}`);
  out.push('');
  out.push(`Seed ${report.seed}; started ${report.startedAt}; ${(report.ms / 1000).toFixed(2)} s; capabilities: ${report.target.capabilities.join(', ') || 'none'}${report.target.readOnly ? '; read-only' : ''}.`);
  out.push('');
  out.push(`**${s.exitCode === 0 ? 'Passed' : 'Failed'}**: ${s.units.passed} units passed, ${s.units.failed} failed, ${s.units.skipped} skipped. Spec assertions: ${s.assertions.spec.pass} passed, ${s.assertions.spec.fail} failed. Sim assertions: ${s.assertions.sim.pass} passed, ${s.assertions.sim.fail} failed, ${s.assertions.sim.observation} observations.`);

  if (catalogue) out.push('', ...areaTable(report, catalogue));

  const failures = [...allAssertions(report.units)].filter((x) => x.assertion.outcome === 'fail');
  if (failures.length) {
    out.push('', '## Failures', '', '| Clauses | Level | Unit | Step | Assertion | Detail |', '|---|---|---|---|---|---|');
    for (const { unit, step, assertion } of failures) {
      out.push(`| ${cell(assertion.clauses.join(', '))} | ${assertion.level} | ${cell(unit.id)} | ${step.index + 1} ${cell(step.name)} | ${assertion.id} | ${cell(assertion.message ?? '')} |`);
    }
  }
  const observations = [...allAssertions(report.units)].filter((x) => x.assertion.outcome === 'observation');
  if (observations.length) {
    out.push('', '## Observations (simulator choices this target makes differently)', '', '| Unit | Step | Assertion | Detail |', '|---|---|---|---|');
    for (const { unit, step, assertion } of observations) out.push(`| ${cell(unit.id)} | ${step.index + 1} ${cell(step.name)} | ${assertion.id} | ${cell(assertion.message ?? '')} |`);
  }
  out.push('', '## Units', '', '| Unit | Result | Time | Note |', '|---|---|---|---|');
  for (const u of report.units) out.push(`| ${cell(u.id)} | ${u.status} | ${Math.round(u.ms)} ms | ${cell(u.skipReason ?? u.replayFile ?? '')} |`);
  if (catalogue) {
    const cov = computeCoverage(report.units, catalogue);
    out.push('', '## Clause coverage', '', `${cov.covered} of ${cov.observable} observable clauses have passing spec assertions; ${cov.failing} failing.`, '', '| Clause | State | Spec ✓ | Spec ✗ |', '|---|---|---|---|');
    for (const row of cov.clauses) if (row.state !== 'uncovered') out.push(`| ${row.clause.id} | ${row.state} | ${row.specPass} | ${row.specFail} |`);
  }
  return `${out.join('\n')}\n`;
}
