// Run after run against one simulator that nothing resets (as a served one), the kit gives the
// same verdicts and leaves the target as it found it, here with the demo accounts it finds
// through the control plane (repeatable-http.test.ts: with accounts made through POST
// /_sim/accounts, which a whole-target reset would forget). The whole kit runs twice in a row
// (different seeds, as two CI runs would) on a simulator of its own, whose state only grows.
// During the first run the target's footprint (footprint.ts) is read between units, and a
// difference is charged to the unit that just ran; state the kit did not make (a prefix carrier
// script, an image script, a foreign range) must still be there at the end, and no call the kit
// placed may still be going. The simulator is reached in process (the same state as over HTTP,
// at half the cost; the run over HTTP is repeatable-http.test.ts's).
import { describe, expect, it } from 'vitest';
import { accountsFromControlPlane } from '../control-accounts.ts';
import { footprint } from './footprint.ts';
import { failed, RESETTING, sharedSimulator, verdicts, wholeKit } from './repeatable-kit.ts';

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
});
