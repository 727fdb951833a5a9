// A target that stops answering (hangs, resets every connection) must not make a run last
// hours or crash it: after a few requests in a row got no answer, every later request fails at
// once with the reason, so each unit ends quickly with a clear failure and the run exits 1.
import type { Target } from './target.ts';

/** Requests in a row without an answer after which the target counts as unreachable for the rest of the run. */
export const UNREACHABLE_AFTER = 3;

export function guardedTarget(target: Target, limit = UNREACHABLE_AFTER): Target {
  let failures = 0;
  let last = '';
  const send: Target['send'] = async (req) => {
    if (failures >= limit) throw new Error(`target unreachable: ${failures} requests in a row got no answer (last: ${last}); not sent`);
    try {
      const res = await target.send(req);
      failures = 0;
      return res;
    } catch (e) {
      failures++;
      last = (e as Error).message;
      throw e;
    }
  };
  return {
    label: target.label,
    accounts: target.accounts,
    controlToken: target.controlToken,
    send,
    ...(target.socketBase ? { socketBase: () => target.socketBase!() } : {}),
    async isolate(seed) {
      // A reset that gets no answer leaves the scenario's own requests to report the failure.
      if (failures >= limit) return;
      try {
        await target.isolate(seed);
      } catch (e) {
        failures++;
        last = (e as Error).message;
      }
    },
    ...(target.saveState && { saveState: () => target.saveState!() }),
    ...(target.restoreState && { restoreState: (s) => target.restoreState!(s) }),
    ...(target.lanes && { lanes: { shared: target.lanes.shared, open: async () => guardedTarget(await target.lanes!.open(), limit) } }),
    close: () => target.close(),
  };
}
