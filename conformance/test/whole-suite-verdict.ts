// What the whole kit against the correct in-process simulator must show: every scenario and
// property passes at spec and sim level, nothing is skipped, and the simulated resources' clauses
// are covered by passing spec assertions. suite.test.ts asserts it on its own run (the quick
// group); the wrong-server baseline, the same run with its requests recorded, asserts it too, so
// the whole suite need not run the kit a second time for it (docs/contributing.md).
import { expect } from 'vitest';
import type { RunReport } from '../result.ts';
import { computeCoverage } from '../report/coverage.ts';
import { catalogue, failureLines, scenarios } from './helpers.ts';

/** Clauses of the simulated resources that a passing run must cover. */
const MUST_COVER = [
  'blocked-caller.release.keeps-history',
  'blocked-recipient.update.note-clear',
  'conventions.phone-normalization',
  'conventions.list-envelope',
  'auth.bearer-required',
  'auth.other-account-403',
  'message.field.ata-body',
  'message.states',
  'errors.422-quota-exceeded',
  'verification.transition.pending-to-max-attempts',
  'verification.transition.pending-to-failed',
  'verification.list.created-range',
  'assignment-link.transition.pending-to-consumed',
  'assignment-link.transition.pending-to-expired',
  'assignment-link.transition.delete-not-pending',
  'assignment-link.single-use',
  'events.assignment-completed.link-id',
  'errors.403-feature-disabled',
];

export function expectWholeSuitePassed(report: RunReport): void {
  expect(failureLines(report), 'failed assertions').toEqual([]);
  expect(report.summary.exitCode).toBe(0);
  // Nothing is silently skipped against the simulator: it has every capability the suite needs.
  expect(report.units.filter((u) => u.status === 'skipped').map((u) => `${u.id}: ${u.skipReason}`)).toEqual([]);
  expect(report.units.filter((u) => u.kind === 'scenario')).toHaveLength(scenarios.length);

  const coverage = computeCoverage(report.units, catalogue);
  expect(coverage.unknown, 'clause ids that the catalogue lacks').toEqual([]);
  expect(coverage.failing).toBe(0);
  const covered = new Set(coverage.clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id));
  for (const id of MUST_COVER) expect(covered.has(id), id).toBe(true);
}
