// Against a target that is not the simulator, sim-level mismatches are observations. The whole
// suite over HTTP against a served simulator (capabilities probed from /_sim/health, every unit
// passed, the same verdicts as in process) is repeatable-http.test.ts's; a target without a control
// plane is read-only.test.ts's (its writing run), and "--read-only never sends a write" is
// read-only-half.test.ts's (on a populated target).
import { describe, expect, it } from 'vitest';
import { simTarget } from '../target.ts';
import { contract, failureLines, runSuite, scenarios, SEED } from './helpers.ts';

describe('a target that is not the simulator', () => {
  it('records sim-level differences of a real target as observations, not failures', async () => {
    // An implementation that keeps the codes the spec's error table fixes but uses its own
    // everywhere the simulator chose one.
    const SPEC_CODES = (contract.document['x-error-codes'] as { code: string; origin: string }[]).filter((e) => e.origin === 'spec').map((e) => e.code);
    const vendor = () =>
      simTarget({
        seed: SEED,
        middleware: () => async (req, next) => {
          const res = await next(req);
          if (res.status < 400 || !req.url.startsWith('/v1/') || res.body === '') return res; // a HEAD answer has no body
          const body = JSON.parse(res.body);
          return SPEC_CODES.includes(body.code) ? res : { ...res, body: JSON.stringify({ ...body, code: `vendor_${res.status}` }) };
        },
      });
    // The areas every implementation has errors in give a few dozen such differences: enough
    // to show the rule, at a fifth of the suite's cost (docs/contributing.md, "Tests and their speed").
    const chosen = scenarios.filter((s) => /^(auth|errors|blocked-callers|blocked-recipients|conventions)\//.test(s.id));
    const report = await runSuite(vendor(), { simLevel: 'observe', scenarios: chosen, properties: [] });
    expect(report.summary.assertions.sim.observation).toBeGreaterThan(10);
    expect(failureLines(report)).toEqual([]);
    expect(report.summary.exitCode).toBe(0);
    // Held to the simulator's choices (--sim-level fail), the same differences fail.
    const strict = await runSuite(vendor(), { simLevel: 'fail', scenarios: chosen, properties: [] });
    expect(strict.summary.assertions.sim.fail).toBe(report.summary.assertions.sim.observation);
    expect(strict.summary.exitCode).toBe(1);
  });
});
