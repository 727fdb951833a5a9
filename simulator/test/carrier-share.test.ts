// Carrier scripts for many numbers (docs/decisions.md "Calls"): `prefix` and `share`, the order
// scripts are tried in (number, then prefix, then magic numbers), picks fixed by the seed and the
// attempt, `times` counting picked attempts only, bad input, picks across a snapshot, and
// listings and snapshots that keep the counts of their moment.
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import { picks } from '../peers/carrier/rules.ts';
import type { FlowGraph } from '../resources/calls/flow-graph.ts';

const SAY_FLOW: FlowGraph = { version: 1, start: 'bye', nodes: { bye: { type: 'hangup', message: 'Hello' } } };

function sim(seed?: number) {
  const h = harness(seed === undefined ? {} : { seed });
  const ctl = <T = any>(method: string, path: string, body?: unknown) => h.sim.control.request(method, path, body) as Promise<T>;
  const script = (body: Record<string, unknown>) => ctl('POST', '/carrier/scripts', body);
  let flowId: string | undefined;
  /** The carrier's decided outcome for a call or message (white-box: the control plane's list is too slow for thousands). */
  const outcomeOf = async (ownerId: string): Promise<string> =>
    runtimeOf(h.sim).carrier.listDeliveries().find((d) => d.ownerId === ownerId)!.outcome;
  /**
   * The same for a call, through the delivery its row names: reading every delivery for each of
   * 10,000 calls decoded 50 million packed rows (the list is rebuilt per call).
   */
  const deliveries = () => (runtimeOf(h.sim).carrier as unknown as { deliveries: { get(id: string): { ownerId: string; outcome: string } | undefined } }).deliveries;
  const callOutcome = (callId: string): string => {
    const delivery = deliveries().get(runtimeOf(h.sim).calls.calls.get(callId)!.deliveryId!)!;
    if (delivery.ownerId !== callId) throw new Error(`the delivery of ${callId} names ${delivery.ownerId}`);
    return delivery.outcome;
  };
  /** Places a call and answers the carrier's decided outcome for it. */
  const dial = async (to: string): Promise<string> => {
    if (flowId === undefined) flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'hello', graph: SAY_FLOW })).json.callFlowId;
    const r = await h.call('POST', h.acme('/calls'), { To: to, From: '070-1234-0001', CallFlowId: flowId });
    if (r.status !== 201) throw new Error(`call refused: ${r.text}`);
    return callOutcome(r.json.callId);
  };
  const text = async (to: string): Promise<string> => {
    const r = await h.call('POST', h.acme('/messages'), { To: to, From: '07012340001', Body: 'hi' });
    if (r.status !== 201) throw new Error(`text refused: ${r.text}`);
    return outcomeOf(r.json.messageId);
  };
  return { ...h, ctl, script, dial, text };
}

/** The n-th of 10,000 distinct mobile numbers under 0105. */
const recipient = (n: number) => `0105${String(1_000_000 + n).slice(1)}0`;

describe('carrier scripts for many numbers', () => {
  it('a number script wins over a prefix script, which wins over a magic number; prefix scripts in listed order', async () => {
    const h = sim();
    await h.script({ prefix: '010-0000', outcome: 'rejected', types: ['call'] }); // covers the magic numbers 010-0000-04xx
    await h.script({ prefix: '010', outcome: 'busy', types: ['call'] }); // listed after: only for what the first leaves
    await h.script({ number: '010-0000-0480', outcome: 'failed', types: ['call'] }); // listed last, still first as a number script
    expect(await h.dial('01000000480')).toBe('failed'); // number beats prefix (and magic no-answer)
    expect(await h.dial('01000000486')).toBe('rejected'); // prefix beats the magic busy ...
    expect(await h.dial('01000000400')).toBe('rejected'); // ... and the magic failure
    expect(await h.dial('01099998888')).toBe('busy'); // the second prefix script
    expect(await h.dial('0212345678')).toBe('delivered'); // no script: the default
    expect(await h.text('01000000400')).toBe('failed'); // scripts for calls leave texts to the magic number
  });

  it('normalises the prefix like a number and shows every field', async () => {
    const h = sim();
    const s = await h.script({ prefix: '+82 10-5', outcome: 'failed', share: 0.25, times: 10 });
    expect(s).toMatchObject({ scriptId: 'cs_1', number: null, prefix: '0105', share: 0.25, remaining: 10, attempts: 0, picked: 0 });
    expect(s).not.toHaveProperty('salt');
    expect((await h.ctl('GET', '/carrier/scripts')).data).toEqual([s]);
  });

  it('a share of 10,000 calls is within 2 % of the share asked, and the same picks again with the same seed', async () => {
    const run = async (seed: number) => {
      const h = sim(seed);
      await h.script({ prefix: '0105', outcome: 'no-answer', share: 0.3, types: ['call'] });
      const outcomes: string[] = [];
      for (let n = 0; n < 10_000; n++) outcomes.push(await h.dial(recipient(n)));
      const script = (await h.ctl('GET', '/carrier/scripts')).data[0];
      return { outcomes, script };
    };
    const started = performance.now();
    const a = await run(7);
    const ms = performance.now() - started;
    const unanswered = a.outcomes.filter((o) => o === 'no-answer').length;
    console.log(`share 0.3 of 10,000 calls: ${unanswered} unanswered (${(unanswered / 100).toFixed(2)} %), ${ms.toFixed(0)} ms`);
    expect(Math.abs(unanswered / 10_000 - 0.3)).toBeLessThan(0.02);
    expect(a.outcomes.filter((o) => o !== 'no-answer').every((o) => o === 'delivered')).toBe(true);
    expect(a.script).toMatchObject({ attempts: 10_000, picked: unanswered });
    const b = await run(7);
    expect(b.outcomes).toEqual(a.outcomes);
    const c = await run(8);
    expect(c.outcomes).not.toEqual(a.outcomes); // another seed, other picks
  }, 120_000);

  it('texts too; a retry of the same recipient is a new pick', async () => {
    const h = sim();
    await h.script({ number: '010-7777-0001', outcome: 'failed', share: 0.5 });
    const outcomes: string[] = [];
    for (let i = 0; i < 2000; i++) outcomes.push(await h.text('01077770001'));
    const failed = outcomes.filter((o) => o === 'failed').length;
    expect(Math.abs(failed / 2000 - 0.5)).toBeLessThan(0.04);
    expect(new Set(outcomes)).toEqual(new Set(['failed', 'delivered']));
  });

  it('times counts only picked attempts; the attempts it does not pick fall through to the next script', async () => {
    const h = sim();
    await h.script({ prefix: '0106', outcome: 'busy', share: 0.5, times: 5, types: ['call'] });
    await h.script({ prefix: '0106', outcome: 'rejected', types: ['call'] });
    const outcomes: string[] = [];
    for (let n = 0; n < 40; n++) outcomes.push(await h.dial(`0106000${String(1000 + n)}`));
    expect(outcomes.filter((o) => o === 'busy')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'rejected')).toHaveLength(35);
    const [first, second] = (await h.ctl('GET', '/carrier/scripts')).data;
    expect(first).toMatchObject({ remaining: 0, picked: 5 });
    const lastBusy = outcomes.lastIndexOf('busy');
    expect(first.attempts).toBe(lastBusy + 1); // tried until used up, then no more
    expect(second).toMatchObject({ attempts: 35, picked: 35 });
  });

  it('picks continue identically after a snapshot is restored', async () => {
    const h = sim(3);
    await h.script({ prefix: '0105', outcome: 'failed', share: 0.4 });
    for (let n = 0; n < 50; n++) await h.text(recipient(n));
    const snap = await h.sim.control.snapshot();
    const other = sim();
    await other.sim.control.restore(snap);
    const next = async (s: ReturnType<typeof sim>) => {
      const out: string[] = [];
      for (let n = 50; n < 150; n++) out.push(await s.text(recipient(n)));
      return out;
    };
    expect(await next(other)).toEqual(await next(h));
  });

  it('a listing and a snapshot taken before more attempts keep their counts (the script row counts in place)', async () => {
    const h = sim(3);
    await h.script({ prefix: '0105', outcome: 'failed', share: 0.4, times: 100 });
    for (let n = 0; n < 20; n++) await h.text(recipient(n));
    const listed = (await h.ctl('GET', '/carrier/scripts')).data[0];
    const snap = h.sim.snapshot();
    const snapText = JSON.stringify(snap);
    const picked = listed.picked;
    for (let n = 20; n < 60; n++) await h.text(recipient(n));
    expect(listed).toMatchObject({ attempts: 20, picked, remaining: 100 - picked });
    expect(JSON.stringify(snap)).toBe(snapText);
    const now = (await h.ctl('GET', '/carrier/scripts')).data[0];
    expect(now.attempts).toBe(60);
    expect(now.picked).toBeGreaterThan(picked);
    expect(now.remaining).toBe(100 - now.picked);
  });

  it('refuses a bad prefix, share or target with 400 and a clear message, storing nothing', async () => {
    const h = sim();
    const before = JSON.stringify(h.sim.snapshot());
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ prefix: '010-x', outcome: 'failed' }, /prefix "010-x" is not a number prefix/],
      [{ prefix: '+1 212', outcome: 'failed' }, /not a number prefix/],
      [{ prefix: '--', outcome: 'failed' }, /not a number prefix/],
      [{ number: '01030000001', prefix: '010', outcome: 'failed' }, /not both/],
      [{ outcome: 'failed', share: 0.5 }, /give number .* or prefix/],
      [{ prefix: '010', outcome: 'failed', share: 0 }, /share/],
      [{ prefix: '010', outcome: 'failed', share: 1.5 }, /share/],
      [{ prefix: '010', outcome: 'failed', share: -0.1 }, /share/],
      [{ prefix: '010', outcome: 'failed', share: 'half' }, /share/],
    ];
    for (const [body, message] of cases) {
      const r = await h.call('POST', '/_sim/carrier/scripts', body, { key: null });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(`${r.json.error} ${r.json.errors?.map((e: { path: string; message: string }) => `${e.path}: ${e.message}`).join('; ')}`, JSON.stringify(body)).toMatch(message);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('picks: a share of 1 always picks; the rate follows the share for any salt', () => {
    for (let a = 0; a < 100; a++) expect(picks(12345, a, 1)).toBe(true);
    for (const salt of [0, 1, 0xdeadbeef, 4294967295]) {
      for (const share of [0.01, 0.3, 0.9]) {
        let hit = 0;
        for (let a = 0; a < 20_000; a++) if (picks(salt, a, share)) hit++;
        expect(Math.abs(hit / 20_000 - share), `salt ${salt} share ${share}`).toBeLessThan(0.015);
      }
    }
  });
});
