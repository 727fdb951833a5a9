// `npm test` runs the whole conformance suite (every scenario and property) against the
// in-process simulator: any spec or sim failure fails the test, with the failures listed.
import { describe, expect, it } from 'vitest';
import { simTarget } from '../target.ts';
import { catalogue, failureLines, runSuite, scenarios, SEED } from './helpers.ts';
import { computeCoverage } from '../report/coverage.ts';

describe('the conformance suite against the in-process simulator', () => {
  it('passes every scenario and property at spec and sim level', async () => {
    const report = await runSuite(simTarget({ seed: SEED }), { simLevel: 'fail' });
    expect(failureLines(report), 'failed assertions').toEqual([]);
    expect(report.summary.exitCode).toBe(0);
    // Nothing is silently skipped against the simulator: it has every capability the suite needs.
    expect(report.units.filter((u) => u.status === 'skipped').map((u) => `${u.id}: ${u.skipReason}`)).toEqual([]);
    expect(report.units.filter((u) => u.kind === 'scenario')).toHaveLength(scenarios.length);

    const coverage = computeCoverage(report.units, catalogue);
    expect(coverage.unknown, 'clause ids that the catalogue lacks').toEqual([]);
    expect(coverage.failing).toBe(0);
    // The simulated resources' clauses are covered by passing spec assertions.
    const covered = new Set(coverage.clauses.filter((c) => c.state === 'covered').map((c) => c.clause.id));
    for (const id of [
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
    ]) {
      expect(covered.has(id), id).toBe(true);
    }
  }, 180_000); // the whole suite: about 20 s alone, several times that beside other test files on two cores

  it('every scenario names only clauses of the catalogue, and every clause it names is observable', () => {
    for (const s of scenarios) {
      for (const id of [...s.clauses, ...s.steps.flatMap((st) => st.clauses ?? [])]) {
        expect(catalogue.has(id), `${s.file}: ${id}`).toBe(true);
        expect(catalogue.byId.get(id)!.observable, `${s.file}: ${id} is marked not observable`).toBe(true);
      }
    }
  });
});
