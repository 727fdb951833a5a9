// The kit starts its webhook receiver itself, only for runs that need it and only where the
// target can reach it, and stops it at the end; signing keys come from the control plane or
// from the configuration, and never appear in a report.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProgressListener } from '../run.ts';
import { allAssertions } from '../result.ts';
import { loadScenario } from '../scenario/load.ts';
import { simTarget, type Target } from '../target.ts';
import { catalogue, contract, runSuite, scenarios, SEED } from './helpers.ts';

const ACME = { accountId: 'AC1a2b3c4d', key: 'sk_test_acme_4f9c2b7e1d3a5c8f' };
const registration = scenarios.find((s) => s.id === 'webhooks/registration')!;
const dir = mkdtempSync(path.join(os.tmpdir(), 'webhook-run-'));

function scenario(name: string, steps: string) {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(file, `description: d\nclauses: [events.form-encoding]\nsteps:\n${steps}`);
  return loadScenario(file, { contract, clauses: catalogue, root: dir });
}

type StartInfo = Parameters<NonNullable<ProgressListener['start']>>[0];

function recorder(): { progress: ProgressListener; info: () => StartInfo } {
  let info: StartInfo | undefined;
  return { progress: { start: (i) => void (info = i) }, info: () => info! };
}

/** An implementation elsewhere on the network, without a control plane: every request answers 404. */
function farTarget(): Target {
  return {
    label: 'https://api.vendor.example',
    accounts: new Map([['main', ACME]]),
    send: async () => ({ status: 404, headers: { 'content-type': 'application/json' }, text: '{"error":"not found"}', json: { error: 'not found' }, ms: 0 }),
    isolate: async () => {},
    close: async () => {},
  };
}

const waitsBriefly = scenario('brief', '  - webhook: { event: callflow.ended, within: { realSeconds: 0.05 } }\n    expect: { count: 0 }\n');

describe('the kit\'s webhook receiver', () => {
  it('starts for a run that needs it, on loopback, and is closed when the run ends', async () => {
    const r = recorder();
    const report = await runSuite(simTarget({ seed: SEED }), { scenarios: [registration], properties: [], progress: r.progress });
    expect(report.summary.exitCode).toBe(0);
    expect(report.target.capabilities).toContain('receiver');
    const { publicUrl, localUrl } = r.info().receiver!;
    expect(publicUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(localUrl).toBe(publicUrl);
    await expect(fetch(localUrl)).rejects.toThrow();
  });

  it('is not started when no scenario that will run needs it', async () => {
    const r = recorder();
    const auth = scenarios.filter((s) => s.id.startsWith('auth/'));
    const withoutControl = scenarios.find((s) => s.id === 'webhooks/retries')!;
    const report = await runSuite(simTarget({ seed: SEED, withoutControlPlane: true }), { scenarios: [...auth, withoutControl], properties: [], progress: r.progress });
    expect(r.info().receiver).toBeUndefined();
    // The target could reach it: the capability says so, and the skip names only what is missing.
    expect(report.target.capabilities).toContain('receiver');
    expect(report.units.find((u) => u.id === 'webhooks/retries')!.skipReason).toBe('target lacks capability "webhooks"');
  });

  it('against a target elsewhere: skipped with the flag to give, or started with the public URL given', async () => {
    const without = await runSuite(farTarget(), { scenarios: [waitsBriefly], properties: [] });
    expect(without.units[0]!.skipReason).toBe('target lacks capability "receiver" (no webhook receiver the target can reach: give --webhook-public-url (or webhooks.publicUrl in the target file))');
    const r = recorder();
    const withUrl = await runSuite(farTarget(), { scenarios: [waitsBriefly], properties: [], progress: r.progress, webhooks: { publicUrl: 'https://tunnel.example/kit' } });
    expect(withUrl.units[0]!.status).toBe('passed');
    expect(r.info().receiver).toEqual({ publicUrl: 'https://tunnel.example/kit', localUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
  });

  it('a bound in virtual time only is skipped on a target without a clock', async () => {
    const virtualOnly = scenario('virtual', '  - webhook: { event: callflow.ended, within: { seconds: 10 } }\n');
    const report = await runSuite(simTarget({ seed: SEED, withoutControlPlane: true }), { scenarios: [virtualOnly], properties: [] });
    expect(report.units[0]!.skipReason).toMatch(/^target lacks capability "clock": the bound is in virtual time only/);
  });
});

describe('signing keys', () => {
  async function runWithKey(key: (real: string) => string) {
    const target = simTarget({ seed: SEED, withoutControlPlane: true });
    const real = await target.sim.webhooks.signingKey(ACME.accountId);
    const report = await runSuite(target, { scenarios: [registration], properties: [], simLevel: 'fail', webhooks: { signingKeys: new Map([['main', key(real)]]) } });
    const verdicts = [...allAssertions(report.units)].filter((a) => a.assertion.id === 'webhook-check:webhook-signature-valid').map((a) => a.assertion.outcome);
    return { report, real, verdicts };
  }

  it('without a control plane, X-Signature is verified with the configured key, which no report shows', async () => {
    const { report, real, verdicts } = await runWithKey((k) => k);
    expect(verdicts).toEqual(['pass']);
    expect(JSON.stringify(report)).not.toContain(real);
  });

  it('a wrong configured key fails the sim-level signature check', async () => {
    const { report, verdicts } = await runWithKey(() => 'whsec_not_the_right_one');
    expect(verdicts).toEqual(['fail']);
    expect(JSON.stringify(report)).not.toContain('whsec_not_the_right_one');
  });
});
