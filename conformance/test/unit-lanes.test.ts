// Units beside the others (conformance/unit-lanes.ts): results come back in catalogue order
// whatever finishes first, a bail reports exactly what the serial run reports, only scenarios
// that wait on real time take a lane (and at a shared URL only those provably on their own), and
// a run with lanes gives the serial run's verdicts in the serial run's order.
import { describe, expect, it } from 'vitest';
import { runUnitsInOrder, besideRefusal, type LaneJob } from '../unit-lanes.ts';
import { remoteTarget, simTarget, type Target } from '../target.ts';
import { createSimulator } from '../../simulator/index.ts';
import { runConformance } from '../run.ts';
import { catalogue, contract, scenarios, SEED, TMP } from './helpers.ts';
import { loadTargetFile } from '../target-file.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Scenario } from '../scenario/types.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Jobs that finish after `delays[i]` ms; `beside` marks which may take a lane; records start order. */
function jobs(delays: number[], beside: boolean[], started: number[]): LaneJob<{ i: number; failed: boolean; lane: number | undefined }>[] {
  return delays.map((d, i) => ({
    beside: beside[i]!,
    run: async (lane) => {
      started.push(i);
      await sleep(d);
      return { i, failed: d === 7, lane };
    },
  }));
}

describe('runUnitsInOrder', () => {
  it('emits in the jobs\' order while beside jobs run at the same time as the main sequence', async () => {
    const started: number[] = [];
    const order: number[] = [];
    const all = jobs([60, 60, 5, 5, 5], [true, true, false, false, false], started);
    const lanes: (number | undefined)[] = [];
    let emittedWhenLastMainStarted = -1;
    const last = all[4]!;
    all[4] = { beside: false, run: (lane) => ((emittedWhenLastMainStarted = order.length), last.run(lane)) };
    await runUnitsInOrder(all, { lanes: 2, stops: () => false, emit: (r) => (order.push(r.i), lanes.push(r.lane), false) });
    expect(order).toEqual([0, 1, 2, 3, 4]);
    expect(lanes.slice(0, 2).sort()).toEqual([0, 1]);
    expect(lanes.slice(2)).toEqual([undefined, undefined, undefined]);
    // The main sequence did not wait for the lanes: its last job started before anything could be emitted.
    expect(started.slice(0, 3).sort()).toEqual([0, 1, 2]);
    expect(emittedWhenLastMainStarted).toBe(0);
  });

  it('with no lanes runs every job in order, one at a time', async () => {
    const started: number[] = [];
    const order: number[] = [];
    await runUnitsInOrder(jobs([20, 1, 5], [true, false, true], started), { lanes: 0, stops: () => false, emit: (r) => (order.push(r.i), false) });
    expect(started).toEqual([0, 1, 2]);
    expect(order).toEqual([0, 1, 2]);
  });

  it('a bail reports the units up to the first failure in catalogue order, even when a later one failed first', async () => {
    const started: number[] = [];
    const order: number[] = [];
    // Job 1 (a lane, slow) fails; job 3 (main, fast) fails first in time; job 5 never starts.
    const all = jobs([5, 7, 1, 7, 1, 1], [false, true, false, false, false, false], started);
    all[1] = { beside: true, run: async (lane) => (started.push(1), await sleep(40), { i: 1, failed: true, lane }) };
    await runUnitsInOrder(all, { lanes: 1, stops: (r) => r.failed, emit: (r) => (order.push(r.i), r.failed) });
    expect(order).toEqual([0, 1]);
    expect(started).not.toContain(4);
    expect(started).not.toContain(5);
  });
});

const byId = (id: string): Scenario => scenarios.find((s) => s.id === id)!;

describe('besideRefusal', () => {
  it('takes only scenarios that wait on real time, on a target of their own', () => {
    expect(besideRefusal(byId('agent-sdk/outbound-call'), false)).toBeUndefined();
    expect(besideRefusal(byId('auth/overseas'), false)).toBe('it does not wait on real time');
  });

  it('at a shared target also refuses clock advances, resets and the run\'s own accounts', () => {
    expect(besideRefusal(byId('agent-sdk/outbound-call'), true)).toMatch(/whole target/);
    expect(besideRefusal(byId('agent-sdk/dtmf'), true)).toBeUndefined();
    const onMain = { ...byId('agent-sdk/dtmf') };
    onMain.steps = [...onMain.steps, { kind: 'request', pointer: '', line: 1, request: { operationId: 'listCalls' } } as Scenario['steps'][number]];
    expect(besideRefusal(onMain, true)).toBe('it speaks as "main", an account it did not create');
  });
});

describe('a run with lanes', () => {
  it('gives the serial run\'s verdicts, steps and order, on simulators of its own', async () => {
    const chosen = ['agent-sdk/refusals', 'agent-sdk/slots', 'auth/overseas', 'blocked-callers/errors'].map(byId);
    let opened = 0;
    const counting = (t: Target): Target => ({ ...t, lanes: t.lanes && { shared: false, open: async () => (opened++, t.lanes!.open()) } });
    const run = async (lanes: number) => {
      const target = counting(simTarget({ seed: SEED }));
      try {
        return await runConformance({ target, contract, clauses: catalogue, scenarios: chosen, seed: SEED, lanes });
      } finally {
        await target.close();
      }
    };
    const serial = await run(0);
    expect(opened).toBe(0);
    const laned = await run(1);
    expect(opened).toBe(1);
    const shape = (r: typeof serial) => r.units.map((u) => [u.id, u.status, u.steps.map((s) => `${s.name}: ${s.status}`)]);
    expect(shape(laned)).toEqual(shape(serial));
    expect(serial.summary.exitCode).toBe(0);
  }, 60_000);
});

describe('lanes at a URL', () => {
  it('are opt-in, shared, take only units provably on their own, and give the serial verdicts', async () => {
    const sim = createSimulator({ onDefect: () => {} });
    const server = await sim.listen(0, '127.0.0.1');
    const [main, alt] = sim.fixture.accounts;
    const accounts = new Map([
      ['main', { accountId: main!.accountId, key: main!.apiKeys![0]! }],
      ['alt', { accountId: alt!.accountId, key: alt!.apiKeys![0]! }],
    ]);
    const chosen = ['agent-sdk/dtmf', 'agent-sdk/outbound-call', 'auth/overseas'].map(byId);
    try {
      expect(remoteTarget({ baseUrl: server.url, accounts }).lanes).toBeUndefined();
      expect(remoteTarget({ baseUrl: server.url, accounts, lanes: true, resetBetweenScenarios: true }).lanes).toBeUndefined();
      const run = async (lanes: number) => {
        const target = remoteTarget({ baseUrl: server.url, accounts, lanes: true });
        let opened = 0;
        const counting: Target = { ...target, lanes: { shared: true, open: async () => (opened++, target.lanes!.open()) } };
        try {
          const report = await runConformance({ target: counting, contract, clauses: catalogue, scenarios: chosen, seed: SEED, lanes });
          return { report, opened };
        } finally {
          await target.close();
        }
      };
      const serial = await run(0);
      const laned = await run(1);
      expect(serial.opened).toBe(0);
      // Only agent-sdk/dtmf is on its own (outbound-call advances the shared clock).
      expect(laned.opened).toBe(1);
      const shape = (r: typeof serial.report) => r.units.map((u) => [u.id, u.status]);
      expect(shape(laned.report)).toEqual(shape(serial.report));
      expect(laned.report.summary.exitCode).toBe(0);
    } finally {
      await server.close();
      await sim.close();
    }
  }, 60_000);
});

describe('a target file\'s lanes', () => {
  it('is read, and bounded', () => {
    const file = path.join(TMP, 'lanes-target.yaml');
    writeFileSync(file, 'baseUrl: http://127.0.0.1:1\nlanes: 2\n');
    expect(loadTargetFile(file, {}).lanes).toBe(2);
    writeFileSync(file, 'baseUrl: http://127.0.0.1:1\n');
    expect(loadTargetFile(file, {}).lanes).toBeUndefined();
    writeFileSync(file, 'baseUrl: http://127.0.0.1:1\nlanes: 9\n');
    expect(() => loadTargetFile(file, {})).toThrow(/lanes/);
  });
});
