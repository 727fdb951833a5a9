// A property failure prints its seed and writes the shrunk counterexample as a YAML scenario
// that loads like any other and replays the failure: it fails against the wrong server and
// passes against the simulator.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blockListModel } from '../properties/blocklists-model.ts';
import { pagingProperties } from '../properties/paging.ts';
import { runConformance } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { simTarget } from '../target.ts';
import { catalogue, contract, SEED, TMP } from './helpers.ts';
import { wrongServer, type Defect } from './wrong-server.ts';

async function run(defect: Defect | undefined, opts: { properties?: typeof pagingProperties; scenarios?: ReturnType<typeof loadScenario>[] }) {
  const target = simTarget({ seed: SEED, middleware: defect ? wrongServer(defect) : undefined });
  try {
    return await runConformance({ target, contract, clauses: catalogue, scenarios: opts.scenarios ?? [], properties: opts.properties ?? [], seed: SEED, simLevel: 'fail', replayDir: path.join(TMP, 'replays') });
  } finally {
    await target.close();
  }
}

describe('replaying a property failure', () => {
  for (const [defect, property] of [
    ['note-not-cleared', blockListModel],
    ['wrong-total', pagingProperties[0]!],
  ] as const) {
    it(`${property.id} against ${defect}: seed in the message, a shrunk replayable scenario on disk`, async () => {
      const report = await run(defect, { properties: [property] });
      const unit = report.units[0]!;
      expect(unit.status).toBe('failed');
      const summary = unit.steps.at(-1)!.assertions[0]!;
      expect(summary.message).toMatch(new RegExp(`seed ${SEED}, path [\\d:]+; shrunk counterexample`));
      expect(unit.replayFile).toMatch(new RegExp(`${property.id}-seed${SEED}\\.yaml$`));

      const text = readFileSync(unit.replayFile!, 'utf8');
      expect(text).toMatch(/^# Shrunk counterexample of property/);
      const scenario = loadScenario(unit.replayFile!, { contract, clauses: catalogue, root: path.dirname(unit.replayFile!) });
      // Shrunk: a handful of steps, not the whole generated run.
      expect(scenario.steps.length).toBeLessThanOrEqual(12);

      const again = await run(defect, { scenarios: [scenario] });
      expect(again.units[0]!.status).toBe('failed');
      const fine = await run(undefined, { scenarios: [scenario] });
      expect(fine.units[0]!.status, JSON.stringify(fine.units[0]!.steps.flatMap((s) => s.assertions.filter((a) => a.outcome !== 'pass')))).toBe('passed');
    });
  }
});
