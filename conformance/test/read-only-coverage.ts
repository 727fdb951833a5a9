// How much of the interface a read-only run still checks: the clauses a read can show (those a
// writing run covers with a passing spec assertion on a GET) against those a read-only run on
// the same, production-like target covers. The target has no control plane; its data was made
// through the API (by fixtures/populate.yaml, as the writing run's scenarios clean up after
// themselves), as a vendor's account has data of its own. The writing run is held to the
// simulator's choices (sim level fail): it is also the proof that an implementation without the
// control plane passes what it can run (read-only.test.ts), one run for both.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadScenario } from '../scenario/load.ts';
import { allProperties } from '../properties/index.ts';
import { computeCoverage } from '../report/coverage.ts';
import { allAssertions, type RunReport } from '../result.ts';
import { runConformance } from '../run.ts';
import { simTarget } from '../target.ts';
import { catalogue, contract, scenarios, SEED, TMP } from './helpers.ts';

export interface ReadOnlyCoverage {
  /** Observable clauses a GET showed in the writing run. */
  readable: Set<string>;
  /** Of those, the ones the read-only run covered. */
  covered: Set<string>;
  writing: RunReport;
  readOnly: RunReport;
}

export async function readOnlyCoverage(): Promise<ReadOnlyCoverage> {
  const target = simTarget({ seed: SEED, withoutControlPlane: true });
  try {
    const base = { target, contract, clauses: catalogue, scenarios, properties: allProperties(contract), seed: SEED, simLevel: 'observe' as const, replayDir: path.join(TMP, 'read-only') };
    const writing = await runConformance({ ...base, simLevel: 'fail' });
    const readable = new Set<string>();
    for (const { step, assertion } of allAssertions(writing.units)) {
      if (assertion.level !== 'spec' || assertion.outcome !== 'pass' || !step.request?.startsWith('GET ')) continue;
      for (const c of assertion.clauses) if (catalogue.byId.get(c)?.observable) readable.add(c);
    }
    const file = fileURLToPath(new URL('./fixtures/populate.yaml', import.meta.url));
    const populate = loadScenario(file, { contract, clauses: catalogue, root: path.dirname(file) });
    await runConformance({ ...base, scenarios: [populate], properties: [] });
    const readOnly = await runConformance({ ...base, readOnly: true });
    const covered = new Set(computeCoverage(readOnly.units, catalogue).clauses.filter((c) => c.state === 'covered' && readable.has(c.clause.id)).map((c) => c.clause.id));
    return { readable, covered, writing, readOnly };
  } finally {
    await target.close();
  }
}
