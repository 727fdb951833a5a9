// What the two files of the kit run twice in a row against one simulator (repeatable.test.ts with
// the demo accounts, repeatable-http.test.ts with accounts made through POST /_sim/accounts, the
// first run over HTTP) share: the whole kit once, with the target's footprint compared between
// units; a simulator that nothing resets, seeded with state the kit did not make; the verdicts.
// Two files, not two tests of one, so that the whole suite runs them on two workers at once.
import { allProperties } from '../properties/index.ts';
import type { RunReport } from '../result.ts';
import { runConformance } from '../run.ts';
import { simTarget, type Credentials, type Target } from '../target.ts';
import { footprint, footprintDiff } from './footprint.ts';
import { catalogue, contract, scenarios } from './helpers.ts';

export const RESETTING = ['agents/calls', 'calls/transfers-dial', 'calls/transfers-legacy', 'carrier/share-of-calls', 'recordings/download-wav', 'recordings/signed-links', 'transcripts/speakers'];

export const verdicts = (r: RunReport) => Object.fromEntries(r.units.map((u) => [u.id, u.status === 'skipped' ? `skipped: ${u.skipReason}` : u.status]));
export const failed = (r: RunReport) => r.units.filter((u) => u.status === 'failed').map((u) => `${u.id}: ${u.steps.flatMap((s) => s.assertions.filter((a) => a.outcome === 'fail').map((a) => a.message)).join('; ').slice(0, 300)}`);

/** The whole kit once; with `traces`, the footprint is compared between units and differences collected. */
export async function wholeKit(target: Target, seed: number, allowReset: boolean, traces?: string[]): Promise<RunReport> {
  let last = 'the start';
  let before = traces ? await footprint(target) : undefined;
  const observed: Target = {
    ...target,
    // A URL target is not reset between units: this is where the next unit begins.
    isolate: async (s) => {
      await target.isolate(s);
      if (!traces) return;
      const now = await footprint(target);
      traces.push(...footprintDiff(before!, now).map((d) => `${last}: ${d}`));
      before = now;
    },
  };
  const report = await runConformance({ target: observed, contract, clauses: catalogue, scenarios, properties: allProperties(contract), seed, allowReset, progress: { unit: (u) => void (last = u.id) } });
  if (traces) traces.push(...footprintDiff(before!, await footprint(target)).map((d) => `${last}: ${d}`));
  return report;
}

/** One simulator that nothing resets (as a served one), seeded with state the kit did not make; only the accounts the kit is given differ. */
export async function sharedSimulator() {
  const base = simTarget({ seed: 1 });
  await base.sim.control.request('POST', '/carrier/scripts', { prefix: '0108887', outcome: 'busy', types: ['call'] });
  await base.sim.control.request('PUT', '/images', { url: 'https://cdn.someone-else.example/logo.png', status: 200 });
  await base.sim.control.request('POST', '/geoip/foreign', { ip: '192.0.2.0/24' });
  const target = (accounts: Map<string, Credentials>): Target => ({ ...base, accounts, isolate: async () => {} });
  return { base, sim: base.sim, target };
}
