// Shared by the kit's tests: the real catalogue, contract and scenarios, and a whole-suite run.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadClauses } from '../clauses.ts';
import { Contract } from '../contract/contract.ts';
import { allProperties } from '../properties/index.ts';
import type { RunReport } from '../result.ts';
import { allAssertions } from '../result.ts';
import { runConformance, type RunOptions } from '../run.ts';
import { loadScenarios, scenarioFiles } from '../scenario/load.ts';
import type { Target } from '../target.ts';

export const SEED = 20261121;
/** Replay files of failing properties go to a scratch folder, never into the work tree. */
export const TMP = mkdtempSync(path.join(os.tmpdir(), 'conformance-test-'));
export const contract = Contract.load();
export const catalogue = loadClauses();
export const scenarios = loadScenarios(scenarioFiles([]), { contract, clauses: catalogue });

export async function runSuite(target: Target, opts: Partial<RunOptions> = {}): Promise<RunReport> {
  try {
    return await runConformance({ target, contract, clauses: catalogue, scenarios, properties: allProperties(contract), seed: SEED, ...opts, replayDir: path.join(TMP, opts.replayDir ?? 'replay') });
  } finally {
    await target.close();
  }
}

/** Every counted failure as one readable line (for assertion messages). */
export function failureLines(report: RunReport): string[] {
  return [...allAssertions(report.units)]
    .filter((x) => x.assertion.outcome === 'fail')
    .map(({ unit, step, assertion }) => `${unit.id} step ${step.index + 1} "${step.name}": ${assertion.id} [${assertion.clauses.join(', ')}] ${assertion.message ?? ''}`);
}

/** The clauses of failed spec assertions, plus `check:`/`probe:` ids of failed assertions that name no clause. */
export function failedClauses(report: RunReport): string[] {
  const out = new Set<string>();
  for (const { assertion } of allAssertions(report.units)) {
    if (assertion.outcome !== 'fail' || assertion.level !== 'spec') continue;
    for (const c of assertion.clauses) out.add(c);
    if (assertion.clauses.length === 0) out.add(assertion.id.replace(/^probe:[^:]+:check:/, 'check:'));
  }
  return [...out].sort();
}
