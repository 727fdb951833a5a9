// The same suite runs over HTTP against any base URL: with a control plane (a served simulator),
// without one (control-plane steps are skipped with the reason), and read-only (no write is
// ever sent). Against a target that is not the simulator, sim-level mismatches are observations.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../../simulator/index.ts';
import { allAssertions } from '../result.ts';
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

describe('an implementation without the control plane', () => {
  it('skips control-plane steps and scenarios that need them, with the reason, and runs the rest', async () => {
    const report = await runSuite(simTarget({ seed: SEED, withoutControlPlane: true }), { simLevel: 'fail' });
    expect(failureLines(report)).toEqual([]);
    // The in-process target reaches the kit's webhook receiver, control plane or not.
    expect(report.target.capabilities).toEqual(['alt-account', 'receiver', 'writes']);
    const skipped = report.units.filter((u) => u.status === 'skipped');
    expect(skipped.map((u) => u.id)).toEqual(expect.arrayContaining(['blocked-callers/newest-first', 'conventions/paging', 'numbers/lifecycle']));
    // Each skip names a capability only the control plane gives (the simulator's health lists them).
    const health = await createSimulator({ seed: SEED }).handle({ method: 'GET', url: '/_sim/health' });
    const controlOnly = (JSON.parse(health.body).capabilities as string[]).filter((c) => !['alt-account', 'receiver', 'writes'].includes(c));
    for (const u of skipped) expect(controlOnly, u.skipReason).toContain(/target lacks capability "([a-z-]+)"/.exec(u.skipReason ?? '')?.[1]);
    // Webhook registration needs no control plane: it runs, without the signing key to verify X-Signature with.
    const registration = report.units.find((u) => u.id === 'webhooks/registration')!;
    expect(registration.status).toBe('passed');
    const checks = registration.steps.flatMap((st) => st.assertions.map((a) => a.id)).filter((id) => id.startsWith('webhook-check:'));
    expect(checks).toEqual(['webhook-check:webhook-form-encoded', 'webhook-check:webhook-signature-present']);
    const intake = report.units.find((u) => u.id === 'blocked-recipients/automatic-intake')!;
    expect(intake.status).toBe('skipped');
    // Properties fall back to the main account when they cannot make a fresh one.
    expect(report.units.filter((u) => u.kind === 'property' && u.status === 'passed').length).toBeGreaterThan(4);
    expect(report.units.filter((u) => u.kind === 'scenario' && u.status === 'passed').length).toBeGreaterThan(8);
  });
});

describe('--read-only', () => {
  it('never sends a write, and says why each writing step was skipped', async () => {
    const methods = new Set<string>();
    const target = simTarget({
      seed: SEED,
      middleware: () => async (req, next) => {
        if (req.url.startsWith('/v1/') || req.url.startsWith('/v2/')) methods.add(req.method);
        return next(req);
      },
    });
    const report = await runSuite(target, { readOnly: true, simLevel: 'fail' });
    expect([...methods].filter((m) => m !== 'GET' && m !== 'HEAD')).toEqual([]); // reads only
    expect(failureLines(report)).toEqual([]);
    const reasons = new Set(report.units.flatMap((u) => [u.skipReason, ...u.steps.map((s) => s.skipReason)]).filter(Boolean));
    // Read-only steps skip, saying so, where the fixture has no data of their kind.
    expect([...reasons].filter((r) => !/lacks capability "writes"|"(control|clock|accounts|geoip|state)"|needs \{\{|no data on the target to read/.test(r!))).toEqual([]);
    // Reads of existing data still ran and passed.
    const passedReads = [...allAssertions(report.units)].filter((a) => a.assertion.outcome === 'pass' && a.assertion.level === 'spec');
    expect(passedReads.length).toBeGreaterThan(10);
    expect(report.units.length).toBeGreaterThanOrEqual(scenarios.length);
  });
});
