// A production-like target (no control plane, data made through the API), in two runs of the kit
// shared by both tests (read-only-coverage.ts): the writing run proves that an implementation
// without the control plane passes everything it can run, skipping the rest with the reason; the
// --read-only run after it still checks most of what a read can show: lists and gets, envelopes,
// paging and aliases, filters, the auth matrix, error bodies of bad ids and queries, field types
// of existing data.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../../simulator/index.ts';
import { failureLines, SEED } from './helpers.ts';
import { readOnlyCoverage, type ReadOnlyCoverage } from './read-only-coverage.ts';

let shared: Promise<ReadOnlyCoverage> | undefined;
const runs = () => (shared ??= readOnlyCoverage());

describe('an implementation without the control plane', () => {
  it('skips control-plane steps and scenarios that need them, with the reason, and runs the rest', async () => {
    const report = (await runs()).writing;
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
  }, 120_000);
});

describe('--read-only coverage', () => {
  it('covers at least 40 % of the clauses a read can show, and fails nothing', async () => {
    const r = await runs();
    expect(failureLines(r.readOnly)).toEqual([]);
    const share = r.covered.size / r.readable.size;
    const missing = [...r.readable].filter((c) => !r.covered.has(c));
    expect(share, `read-only covers ${r.covered.size} of ${r.readable.size}; missing: ${missing.join(', ')}`).toBeGreaterThanOrEqual(0.4);
    // The read-only scenarios, the paging property and the probes all earned their clauses.
    const passed = r.readOnly.units.filter((u) => u.status === 'passed').map((u) => u.id);
    expect(passed).toEqual(expect.arrayContaining(['usage/read-only', 'blocked-callers/read-only', 'email-domains/read-only', 'conventions/read-only-refusals', 'paging-listBlockedCallers']));
  }, 120_000);
});
