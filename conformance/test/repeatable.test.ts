// Run after run against one simulator that nothing resets (as a served one), the kit gives the
// same verdicts and leaves the target as it found it: with the demo accounts it finds through
// the control plane, and with accounts made through POST /_sim/accounts, which a whole-target
// reset would forget. Each configuration runs the whole kit twice in a row (different seeds, as
// two CI runs would) on a simulator of its own, whose state only grows. During the first run the
// target's footprint (footprint.ts) is read between units, and a difference is charged to the
// unit that just ran; state the kit did not make (a prefix carrier script, an image script, a
// foreign range) must still be there at the end, and no call the kit placed may still be going.
// The second configuration lets the resetting scenarios run (allowReset): the kit puts the state
// back after each and makes again the given accounts a reset removed, so they keep working. Its
// first run goes over HTTP to the simulator served (capabilities probed from /_sim/health, state
// saved and put back with GET and PUT /_sim/state), its second in process against the same
// simulator: the same verdicts prove the kit's run over HTTP equals its in-process run. The first
// configuration reaches the simulator in process (the same state as over HTTP, at half the cost).
import { describe, expect, it } from 'vitest';
import { accountsFromControlPlane } from '../control-accounts.ts';
import { allProperties } from '../properties/index.ts';
import type { RunReport } from '../result.ts';
import { runConformance } from '../run.ts';
import { remoteTarget, simTarget, type Credentials, type Target } from '../target.ts';
import { footprint, footprintDiff } from './footprint.ts';
import { catalogue, contract, scenarios } from './helpers.ts';

const RESETTING = ['agents/calls', 'calls/transfers-dial', 'calls/transfers-legacy', 'carrier/share-of-calls', 'recordings/download-wav', 'recordings/signed-links', 'transcripts/speakers'];

const verdicts = (r: RunReport) => Object.fromEntries(r.units.map((u) => [u.id, u.status === 'skipped' ? `skipped: ${u.skipReason}` : u.status]));
const failed = (r: RunReport) => r.units.filter((u) => u.status === 'failed').map((u) => `${u.id}: ${u.steps.flatMap((s) => s.assertions.filter((a) => a.outcome === 'fail').map((a) => a.message)).join('; ').slice(0, 300)}`);

/** The whole kit once; with `traces`, the footprint is compared between units and differences collected. */
async function wholeKit(target: Target, seed: number, allowReset: boolean, traces?: string[]): Promise<RunReport> {
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
async function sharedSimulator() {
  const base = simTarget({ seed: 1 });
  await base.sim.control.request('POST', '/carrier/scripts', { prefix: '0108887', outcome: 'busy', types: ['call'] });
  await base.sim.control.request('PUT', '/images', { url: 'https://cdn.someone-else.example/logo.png', status: 200 });
  await base.sim.control.request('POST', '/geoip/foreign', { ip: '192.0.2.0/24' });
  const target = (accounts: Map<string, Credentials>): Target => ({ ...base, accounts, isolate: async () => {} });
  return { base, sim: base.sim, target };
}

describe('the kit run twice in a row against one simulator', () => {
  it('with the demo accounts it finds through the control plane: the same verdicts, and no trace of any unit', async () => {
    const { base, sim, target } = await sharedSimulator();
    try {
      const demo = target(new Map());
      const found = await accountsFromControlPlane(demo);
      if ('why' in found) throw new Error(found.why);
      for (const [name, creds] of found.accounts) demo.accounts.set(name, creds);
      expect([...demo.accounts.values()].map((c) => c.accountId)).toEqual(['AC1a2b3c4d', 'AC5e6f7a8b']);
      const traces: string[] = [];
      const first = await wholeKit(demo, 101, false, traces);
      const second = await wholeKit(demo, 202, false);
      expect(failed(first)).toEqual([]);
      expect(traces).toEqual([]);
      expect(verdicts(second)).toEqual(verdicts(first));
      // Resets are not allowed unless the target says so.
      for (const id of RESETTING) expect(verdicts(first)[id]).toMatch(/^skipped: target lacks capability "reset"/);
      const left = (await footprint(demo)) as { global: { geoip: { foreign: string[] }; carrierScripts: { prefix: string | null }[]; images: { data: { url: string }[] } } };
      expect(left.global.geoip.foreign).toEqual(['192.0.2.0/24']);
      expect(left.global.carrierScripts.map((s) => s.prefix)).toContain('0108887');
      expect(left.global.images.data.map((i) => i.url)).toEqual(['https://cdn.someone-else.example/logo.png']);
      // No call the kit placed is still going (a call on hold loops until hung up, and its clock jobs with it).
      const calls = (sim.snapshot().models.calls as { calls: { id: string; status: string }[] }).calls;
      expect(calls.filter((c) => ['queued', 'ringing', 'in-progress'].includes(c.status)).map((c) => `${c.id} ${c.status}`)).toEqual([]);
    } finally {
      await base.close();
    }
  }, 600_000);

  it('with accounts made through POST /_sim/accounts and resets allowed, over HTTP then in process: the same verdicts, every unit passed, and the accounts survive every reset', async () => {
    const { base, sim, target } = await sharedSimulator();
    const served = await sim.listen(0);
    try {
      const shop = await sim.control.createAccount({ plan: 'business', addons: ['external_assignment', 'sip_trunk', 'representative_number'], numbers: 2 });
      const bistro = await sim.control.createAccount({ plan: 'starter', numbers: 1 });
      const accounts = new Map([['main', { accountId: shop.accountId, key: shop.apiKey }], ['alt', { accountId: bistro.accountId, key: bistro.apiKey }]]);
      // As `run --target URL --allow-reset --sim-level fail`: nothing resets the target between units.
      const overHttp = remoteTarget({ baseUrl: served.url, accounts });
      const first = await wholeKit(overHttp, 303, true).finally(() => overHttp.close());
      const second = await wholeKit(target(accounts), 404, true);
      expect(failed(first)).toEqual([]);
      // Over HTTP no unit lacks anything (the capabilities probed from /_sim/health are all the
      // kit needs, and every state save answered): a skip is only a read-only scenario finding
      // nothing to read on the made accounts, the same skip as in process (the verdicts below).
      const skipped = first.units.filter((u) => u.status === 'skipped');
      expect(skipped.filter((u) => !/^no data on the target to read/.test(u.skipReason ?? '')).map((u) => `${u.id}: ${u.skipReason}`)).toEqual([]);
      expect(skipped.length).toBeLessThan(5);
      expect(first.target.capabilities).toEqual(expect.arrayContaining(['control', 'clock', 'accounts', 'writes', 'alt-account', 'reset', 'state']));
      expect(verdicts(second)).toEqual(verdicts(first));
      for (const id of RESETTING) expect(verdicts(first)[id]).toBe('passed');
      const res = await fetch(`${served.url}/v1/accounts/${shop.accountId}/numbers`, { headers: { authorization: `Bearer ${shop.apiKey}` } });
      expect(res.status).toBe(200);
    } finally {
      await served.close();
      await base.close();
    }
  }, 600_000);
});
