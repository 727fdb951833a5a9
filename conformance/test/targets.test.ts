// The same suite runs over HTTP against any base URL (here with a control plane: a served
// simulator). Against a target that is not the simulator, sim-level mismatches are observations.
// A target without a control plane is read-only.test.ts's (its writing run), and "--read-only
// never sends a write" is read-only-half.test.ts's (on a populated target).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../../simulator/index.ts';
import { remoteTarget, simTarget } from '../target.ts';
import { contract, failureLines, runSuite, scenarios, SEED } from './helpers.ts';

const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
const BISTRO = { accountId: 'AC5e6f7a8b', key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' };

describe('a remote target over HTTP', () => {
  // One served simulator for the file (docs/contributing.md, "Tests and their speed"): a test
  // that runs the kit against a served simulator again uses this one.
  let served: { sim: Simulator; server: ListeningServer };
  beforeAll(async () => {
    const sim = createSimulator({ seed: SEED });
    served = { sim, server: await sim.listen(0) };
  });
  afterAll(async () => {
    await served.server.close();
    await served.sim.close();
  });

  it('passes the whole suite against a served simulator, with its capabilities probed from /_sim/health', async () => {
    // No reset between scenarios (as `run --target URL --sim-level fail`): every scenario
    // cleans up what it made, so none sees another's leftovers and the verdict is the
    // in-process one: everything passes, nothing is skipped.
    const target = remoteTarget({ baseUrl: served.server.url, accounts: new Map([['main', ACME], ['alt', BISTRO]]) });
    // A simulator the test owns: the scenarios that reset it may (the kit puts its state back).
    const report = await runSuite(target, { simLevel: 'fail', allowReset: true });
    expect(failureLines(report)).toEqual([]);
    expect(report.target.capabilities).toEqual(expect.arrayContaining(['control', 'clock', 'accounts', 'writes', 'alt-account', 'reset']));
    expect(report.units.filter((u) => u.status === 'skipped')).toEqual([]);
  }, 240_000); // the whole suite over a socket: minutes on a loaded two-core machine

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
