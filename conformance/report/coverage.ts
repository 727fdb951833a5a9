// Clause coverage: for each clause of the catalogue, whether a `spec` assertion for it passed,
// failed, or none ran. A clause is covered when at least one spec assertion passed and none failed.
import type { Clause, ClauseCatalogue } from '../clauses.ts';
import { allAssertions, type UnitResult } from '../result.ts';

export type ClauseState = 'covered' | 'failing' | 'sim-only' | 'uncovered';

export interface ClauseCoverage {
  clause: Clause;
  state: ClauseState;
  specPass: number;
  specFail: number;
  simPass: number;
  simFail: number;
  /** Units whose assertions count for the clause. */
  units: string[];
}

export interface CoverageSummary {
  clauses: ClauseCoverage[];
  /** Observable, not retired clauses: the denominator. */
  observable: number;
  covered: number;
  failing: number;
  /** Clause ids that assertions name but the catalogue lacks. */
  unknown: string[];
}

export function computeCoverage(units: readonly UnitResult[], catalogue: ClauseCatalogue): CoverageSummary {
  const rows = new Map<string, ClauseCoverage>();
  for (const c of catalogue.clauses) rows.set(c.id, { clause: c, state: 'uncovered', specPass: 0, specFail: 0, simPass: 0, simFail: 0, units: [] });
  const unknown = new Set<string>();
  for (const { unit, assertion } of allAssertions(units)) {
    for (const id of assertion.clauses) {
      const row = rows.get(id);
      if (!row) {
        unknown.add(id);
        continue;
      }
      const passed = assertion.outcome === 'pass';
      if (assertion.level === 'spec') passed ? row.specPass++ : row.specFail++;
      else passed ? row.simPass++ : row.simFail++;
      if (!row.units.includes(unit.id)) row.units.push(unit.id);
    }
  }
  let covered = 0;
  let failing = 0;
  let observable = 0;
  for (const row of rows.values()) {
    row.state = row.specFail > 0 ? 'failing' : row.specPass > 0 ? 'covered' : row.simPass + row.simFail > 0 ? 'sim-only' : 'uncovered';
    const retired = (row.clause as { retired?: boolean }).retired;
    if (row.clause.observable && !retired) {
      observable++;
      if (row.state === 'covered') covered++;
    }
    if (row.state === 'failing') failing++;
  }
  return { clauses: [...rows.values()], observable, covered, failing, unknown: [...unknown].sort() };
}

/** The coverage as terminal text: one line per clause, grouped by area, then totals. */
export function formatCoverage(cov: CoverageSummary, opts: { onlyUncovered?: boolean } = {}): string {
  const mark: Record<ClauseState, string> = { covered: '✓', failing: '✗', 'sim-only': '~', uncovered: '·' };
  const lines: string[] = [];
  // Grouped by area (the id's first part), areas and clauses in catalogue order.
  const areas = new Map<string, ClauseCoverage[]>();
  for (const row of cov.clauses) {
    if ((row.clause as { retired?: boolean }).retired) continue;
    if (opts.onlyUncovered && row.state === 'covered') continue;
    const area = row.clause.id.split('.')[0]!;
    areas.set(area, [...(areas.get(area) ?? []), row]);
  }
  for (const [area, rows] of areas) {
    const covered = rows.filter((r) => r.state === 'covered').length;
    lines.push(`\n${area}${opts.onlyUncovered ? '' : ` (${covered}/${rows.length})`}`);
    for (const row of rows) {
      const note = row.clause.observable ? '' : ' (not observable)';
      const counts = row.specPass + row.specFail > 0 ? ` spec ${row.specPass}✓ ${row.specFail}✗` : '';
      lines.push(`  ${mark[row.state]} ${row.clause.id}${note}${counts}`);
    }
  }
  const pct = cov.observable ? ((100 * cov.covered) / cov.observable).toFixed(1) : '0.0';
  lines.push('');
  lines.push(`Clauses with passing spec assertions: ${cov.covered} of ${cov.observable} observable (${pct}%); failing: ${cov.failing}.`);
  lines.push('Legend: ✓ covered  ✗ a spec assertion failed  ~ only sim-level assertions  · no assertion');
  if (cov.unknown.length) lines.push(`Clause ids not in the catalogue: ${cov.unknown.join(', ')}`);
  return lines.join('\n');
}
