// --read-only against a populated simulator (fixtures/populate.yaml: data of every kind in the
// main account, made through the API and the control plane): every unit whose steps only read
// runs (scenarios written as reads, and the `readOnly` steps of the others, with data they find
// on the target), at least half of all units run, nothing fails, and the run writes nothing: no
// request but GET and HEAD reaches the API, the simulator's whole state is the same after it, and
// each step skipped says why. (A populated target lets more reading steps run than the bare
// fixture would, so this one run proves "never sends a write" for more of the kit's paths.)
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allProperties } from '../properties/index.ts';
import { allAssertions } from '../result.ts';
import { runConformance } from '../run.ts';
import { loadScenario } from '../scenario/load.ts';
import { simTarget, type Target } from '../target.ts';
import { catalogue, contract, failureLines, scenarios } from './helpers.ts';

const POPULATE = fileURLToPath(new URL('./fixtures/populate.yaml', import.meta.url));

/** Whether every step of a scenario only reads (GET and HEAD requests, control-plane GETs). */
function onlyReads(steps: (typeof scenarios)[number]['steps']): boolean {
  return steps.every((st) => {
    if (st.kind === 'control') return st.control.method === 'GET';
    if (st.kind !== 'request') return false;
    const method = st.request.operationId ? contract.operation(st.request.operationId)?.method : st.request.method;
    return method === 'GET' || method === 'HEAD';
  });
}

describe('--read-only against a populated simulator', () => {
  it('runs every unit that only reads, at least half of all units, fails nothing and writes nothing', async () => {
    const methods = new Set<string>();
    let watching = false;
    const base = simTarget({
      seed: 7,
      middleware: () => async (req, next) => {
        if (watching && (req.url.startsWith('/v1/') || req.url.startsWith('/v2/'))) methods.add(req.method);
        return next(req);
      },
    });
    const target: Target = { ...base, isolate: async () => {} };
    try {
      const populate = loadScenario(POPULATE, { contract, clauses: catalogue, root: path.dirname(POPULATE) });
      const made = await runConformance({ target, contract, clauses: catalogue, scenarios: [populate], seed: 7 });
      expect(failureLines(made)).toEqual([]);

      const before = JSON.stringify(base.sim.snapshot());
      const properties = allProperties(contract);
      watching = true;
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios, properties, seed: 8, readOnly: true });
      watching = false;
      expect([...methods].filter((m) => m !== 'GET' && m !== 'HEAD'), 'requests that write').toEqual([]);
      expect(JSON.stringify(base.sim.snapshot()), 'a read-only run changed the target').toBe(before);
      expect(failureLines(report)).toEqual([]);

      const ran = report.units.filter((u) => u.status !== 'skipped');
      const total = scenarios.length + properties.length;
      expect(ran.length * 2, `${ran.length} of ${total} units ran`).toBeGreaterThanOrEqual(total);
      const reading = scenarios.filter((s) => s.readOnly !== undefined || onlyReads(s.steps)).map((s) => s.id);
      expect(reading.length).toBeGreaterThan(60);
      const status = new Map(report.units.map((u) => [u.id, u.status === 'skipped' ? `skipped: ${u.skipReason}` : u.status]));
      expect(reading.filter((id) => status.get(id) !== 'passed').map((id) => `${id} ${status.get(id)}`)).toEqual([]);
      // Every skip says why: a capability the run lacks, a value an earlier (writing) step would have made, or no data to read.
      const reasons = new Set(report.units.flatMap((u) => [u.skipReason, ...u.steps.map((st) => st.skipReason)]).filter(Boolean));
      expect([...reasons].filter((r) => !/lacks capability "writes"|"(control|clock|accounts|geoip|state)"|needs \{\{|no data on the target to read/.test(r!))).toEqual([]);
      // Reads of existing data ran and passed.
      const passedReads = [...allAssertions(report.units)].filter((a) => a.assertion.outcome === 'pass' && a.assertion.level === 'spec');
      expect(passedReads.length).toBeGreaterThan(10);
    } finally {
      await base.close();
    }
  }, 120_000);
});
