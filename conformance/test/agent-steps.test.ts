// The kit's agent steps against the simulator's Agent SDK endpoints: a control socket opened for a
// number (and refused for a bad key, with its status and body), messages sent and expected, the
// socket's close judged, and every socket of a scenario closed at its end.
import { afterEach, describe, expect, it } from 'vitest';
import { createSimulator, type ListeningServer, type Simulator } from '../../simulator/index.ts';
import { Scope, SeededRandom } from '../scenario/interpolate.ts';
import { closeAgentSockets, runAgentAction } from '../agent/steps.ts';

const ACCOUNT = 'AC1a2b3c4d';
const KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';
const running: { sim: Simulator; server: ListeningServer }[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.close();
    await r.sim.close();
  }
});

async function target() {
  const sim = createSimulator();
  const server = await sim.listen();
  running.push({ sim, server });
  const base = server.url.replace('http', 'ws');
  return { sim, of: (account?: string) => ({ socketBase: base, accountId: ACCOUNT, apiKey: account === 'bad' ? 'sk_nope' : KEY }) };
}

const clean = (o: Awaited<ReturnType<typeof runAgentAction>>) => o.judged.filter((j) => j.mismatches.length > 0);

describe('agent steps', () => {
  it('connects for a number, and a bad key is refused with its status and body', async () => {
    const t = await target();
    const scope = new Scope(new SeededRandom(1));
    const ok = await runAgentAction({ connect: { as: 'bot', number: '070-1234-0001' } }, { open: true }, scope, t.of);
    expect(clean(ok)).toEqual([]);
    const refused = await runAgentAction({ connect: { as: 'bad', number: '07012340001', account: 'bad' } }, { open: { status: 401, body: { code: 'UNAUTHORIZED' } } }, scope, t.of);
    expect(clean(refused)).toEqual([]);
    const keyed = await runAgentAction({ connect: { as: 'keyed', number: '07012340001', key: 'sk_test_nope' } }, { open: { status: 401 } }, scope, t.of);
    expect(clean(keyed)).toEqual([]); // `key` replaces the account's key
    const wrong = await runAgentAction({ connect: { as: 'bad2', number: '07012340001', account: 'bad' } }, { open: true }, scope, t.of);
    expect(wrong.judged[0]!.mismatches[0]!.message).toMatch(/expected true|status/);
    await closeAgentSockets(scope);
  });

  it('sends, expects the error event for a foreign call, and judges a close', async () => {
    const t = await target();
    const scope = new Scope(new SeededRandom(1));
    await runAgentAction({ connect: { as: 'bot', number: '07012340001' } }, undefined, scope, t.of);
    const error = await runAgentAction({ on: 'bot', send: { event: 'call.accept', callId: 'CA0' } }, { event: { event: 'error', code: 'CALL_NOT_FOUND' } }, scope, t.of);
    expect(clean(error)).toEqual([]);
    expect(error.subject).toMatchObject({ callId: 'CA0' });
    const none = await runAgentAction({ on: 'bot', within: 0.2 }, { event: { event: 'call.incoming' }, framesBefore: 0 }, scope, t.of);
    expect(none.judged[0]!.mismatches.at(-1)!.message).toMatch(/no matching message within 0.2 s/);
    expect(none.judged[1]).toEqual({ part: 'framesBefore', mismatches: [{ path: 'framesBefore', message: 'no matched message to count the frames before' }] });
    // A second connection for the number replaces the first (no retire capability declared: 4409).
    await runAgentAction({ connect: { as: 'old', number: '07012340002', hello: [] } }, undefined, scope, t.of);
    await new Promise((r) => setTimeout(r, 50));
    await runAgentAction({ connect: { as: 'new', number: '07012340002' } }, undefined, scope, t.of);
    const closed = await runAgentAction({ on: 'old' }, { closed: { code: 4409, reason: 'replaced' } }, scope, t.of);
    expect(clean(closed)).toEqual([]);
    await closeAgentSockets(scope);
    let left = 1;
    for (let i = 0; i < 100 && left > 0; i++) {
      left = (await t.sim.control.request<{ data: unknown[] }>('GET', '/agent-sdk/connections')).data.length;
      if (left > 0) await new Promise((r) => setTimeout(r, 10));
    }
    expect(left).toBe(0); // the scenario's sockets are closed
  });
});
