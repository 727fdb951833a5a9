// Run after run against one simulator that nothing resets (as a served one), with accounts made
// through POST /_sim/accounts, which a whole-target reset would forget (repeatable.test.ts: the
// demo accounts, and the footprint read between units). The resetting scenarios run
// (allowReset): the kit puts the state back after each and makes again the given accounts a
// reset removed, so they keep working. The whole kit runs twice in a row (different seeds, as two
// CI runs would) on a simulator of its own, whose state only grows: its first run goes over HTTP
// to the simulator served (capabilities probed from /_sim/health, state saved and put back with
// GET and PUT /_sim/state), its second in process against the same simulator: the same verdicts
// prove the kit's run over HTTP equals its in-process run.
import { describe, expect, it } from 'vitest';
import { remoteTarget } from '../target.ts';
import { failed, RESETTING, sharedSimulator, verdicts, wholeKit } from './repeatable-kit.ts';

describe('the kit run twice in a row against one simulator', () => {
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
