// Calls through a flow (docs/decisions.md "Calls"): place 10,000 calls through a 10-block flow with the
// in-process API and advance the virtual clock until every call has ended; budget < 5 s.
// Run alone with `node --import tsx bench/calls.ts`; `npm run bench` runs it too.
import { createSimulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';

export const CALLS_BUDGET_MS = 5000;
const CALLS = 10_000;
const ACCOUNT = 'AC1a2b3c4d';
const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' };

const FLOW = {
  version: 1,
  start: 'hello',
  nodes: {
    hello: { type: 'say', text: 'Hello {{name}}, this is your delivery service.', next: 'menu' },
    menu: { type: 'menu', prompt: 'Press 1 to confirm, 2 to reschedule.', branches: { '1': 'ok', '2': 'ok' }, invalidNext: 'ok', timeoutNext: 'ok', saveAs: 'choice' },
    ok: { type: 'setvar', assignments: [{ name: 'confirmed', value: '{{choice}}' }], next: 'check' },
    check: { type: 'condition', cases: [{ variable: 'confirmed', op: 'eq', value: '1', next: 'thanks' }], defaultNext: 'sorry' },
    thanks: { type: 'say', text: 'Thank you.', next: 'wait' },
    sorry: { type: 'say', text: 'We will call again.', next: 'wait' },
    wait: { type: 'pause', seconds: 2, next: 'mark' },
    mark: { type: 'setvar', assignments: [{ name: 'done', value: 'yes' }], next: 'bye1' },
    bye1: { type: 'say', text: 'Goodbye.', next: 'bye' },
    bye: { type: 'hangup', message: 'Bye.' },
  },
};

async function request(sim: ReturnType<typeof createSimulator>, method: string, path: string, body: unknown) {
  const res = await sim.handle({ method, url: path, headers: HEADERS, body: JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body}`);
  return JSON.parse(res.body) as Record<string, unknown>;
}

/** Milliseconds to place CALLS calls and run them all to their end. */
export async function benchCalls(): Promise<{ ms: number; placeMs: number; advanceMs: number; calls: number }> {
  const sim = createSimulator();
  const flow = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/call-flows`, { name: 'bench', graph: FLOW });
  // Half the phones press 1, the other half let the menu time out.
  await sim.control.request('POST', '/carrier/scripts', { number: '010-2000-0000', outcome: 'delivered', types: ['call'], keys: ['1'] });
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const to = `010${String(30000000 + i)}`;
    await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/calls`, { To: to, From: '07012340001', CallFlowId: flow.callFlowId, Variables: { name: `c${i}` } });
  }
  const t1 = performance.now();
  await sim.clock.advance({ seconds: 3600 });
  const t2 = performance.now();
  const rt = runtimeOf(sim);
  const open = rt.calls.calls.all().filter((c) => c.dateUpdated === null).length;
  if (open > 0 || rt.calls.calls.size !== CALLS) throw new Error(`${open} of ${rt.calls.calls.size} calls did not end`);
  await sim.close();
  return { ms: t2 - t0, placeMs: t1 - t0, advanceMs: t2 - t1, calls: CALLS };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchCalls();
  console.log(`${r.calls} calls through a 10-block flow: ${r.ms.toFixed(0)} ms (placing ${r.placeMs.toFixed(0)} ms, advancing ${r.advanceMs.toFixed(0)} ms); budget ${CALLS_BUDGET_MS} ms`);
}
