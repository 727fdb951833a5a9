// The kit's webhook steps and checks can fail: the webhook scenarios against the simulator pass,
// and with a deliberately wrong sender between the simulator and the kit's receiver they fail on
// exactly the clauses each defect breaks, at the level the kit gives them.
import { afterEach, describe, expect, it } from 'vitest';
import { allAssertions, type RunReport } from '../result.ts';
import { simTarget } from '../target.ts';
import { WebhookReceiver } from '../webhook-receiver.ts';
import { failedClauses, failureLines, runSuite, scenarios, SEED } from './helpers.ts';
import { wrongSender, type SenderDefect } from './wrong-sender.ts';

const WEBHOOK_SCENARIOS = scenarios.filter((s) => s.id.startsWith('webhooks/'));

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((x) => x.close()));
});

/** The webhook scenarios with `defect` between the simulator and the kit's receiver. */
async function runWith(defect: SenderDefect, simLevel: 'fail' | 'observe' = 'fail'): Promise<RunReport> {
  const target = simTarget({ seed: SEED });
  const sender = await wrongSender(defect, (accountId) => target.sim.webhooks.signingKey(accountId));
  const receiver = await WebhookReceiver.start({ publicUrl: sender.url });
  sender.forwardTo(receiver.localUrl);
  opened.push(sender, receiver);
  return runSuite(target, { scenarios: WEBHOOK_SCENARIOS, properties: [], simLevel, webhooks: { receiver } });
}

/** The sim-level assertions that failed, as check ids or `expect*` parts with their clauses. */
function failedSim(report: RunReport): string[] {
  const out = new Set<string>();
  for (const { assertion } of allAssertions(report.units)) {
    if (assertion.outcome === 'fail' && assertion.level === 'sim') out.add(`${assertion.id} [${assertion.clauses.join(', ')}]`);
  }
  return [...out].sort();
}

const EXPECTED: Record<SenderDefect, string[]> = {
  'json-body': ['events.callflow-ended.form-post', 'events.form-encoding'],
  unsigned: ['auth.webhook-signature'],
  // The signing scheme is not shown in the spec: a signature that does not verify fails at level sim only.
  'wrong-signature': [],
  'status-boolean': ['events.callflow-ended.status-string', 'events.callflow-ended.status-values'],
  'truncated-always': ['events.callflow-ended.variables-truncated', 'limits.collected-variables'],
  'table-broken': ['events.callflow-ended.direction', 'events.callflow-ended.event-name', 'events.callflow-ended.required-fields', 'events.callflow-ended.timestamp', 'events.callflow-ended.variables.caller-callee'],
  'variables-not-json': ['events.callflow-ended.variables-json'],
  'no-retry': ['events.at-least-once', 'events.retry-non-2xx'],
  'call-id-changes': ['events.at-least-once'],
};

describe('the webhook scenarios', () => {
  it('pass against the simulator, with every delivery checked', async () => {
    const report = await runSuite(simTarget({ seed: SEED }), { scenarios: WEBHOOK_SCENARIOS, properties: [], simLevel: 'fail' });
    expect(failureLines(report)).toEqual([]);
    expect(report.units.map((u) => `${u.id} ${u.status}`)).toEqual(WEBHOOK_SCENARIOS.map((s) => `${s.id} passed`));
    const checks = new Set([...allAssertions(report.units)].map((a) => a.assertion.id).filter((id) => id.startsWith('webhook-check:')));
    expect(checks.size).toBe(12);
  });
});

describe('a deliberately wrong webhook sender', () => {
  for (const [defect, expected] of Object.entries(EXPECTED) as [SenderDefect, string[]][]) {
    it(`${defect}: fails exactly the clauses it breaks (${expected.length})`, async () => {
      const report = await runWith(defect);
      expect(report.summary.exitCode).toBe(1);
      expect(failedClauses(report), failureLines(report).join('\n')).toEqual(expected);
    });
  }

  it('wrong-signature fails the sim-level signature check and nothing else', async () => {
    const report = await runWith('wrong-signature');
    expect(failedSim(report)).toEqual(['webhook-check:webhook-signature-valid [auth.webhook-signature]']);
    // Against another implementation it is an observation, not a failure.
    const observed = await runWith('wrong-signature', 'observe');
    expect(observed.summary.assertions.sim.observation).toBeGreaterThan(0);
    expect(observed.summary.exitCode).toBe(0);
  });

  it('no-retry: the step says how many arrived and what the receiver got', async () => {
    const report = await runWith('no-retry');
    const lines = failureLines(report).filter((l) => l.startsWith('webhooks/retries'));
    expect(lines[0]).toMatch(/accepted in the end.*expect\.count \[events\.retry-non-2xx, events\.at-least-once\] 0 webhook\(s\) callflow\.ended answered "2xx" within 86400 s of virtual time, expected \{"\$gte":1\} \(1 received for this scenario; closest: POST \/events\/callflow\.ended: answered expected 2xx, got 503\)/);
  });
});
