// Generated call batches over generated phone scripts, run for two weeks of virtual time and
// checked through the API only (listCalls per recipient, the batch's counts), with this file's
// own reading of Korea time: no call outside its round's windows (read in Asia/Seoul) or the
// legal hours 08:00-21:00, MaxConcurrency and PacingPerMinute never exceeded, round n+1 only
// After minutes after round n's call ended and only for an On outcome, no round left out, and
// counts that sum to the recipients.
import { batchCaseArb, batchViolation, type BatchCase, type CallRow } from './call-batch-rules.ts';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;

export const callBatchesProperty: PropertyDef = generatedProperty<BatchCase>({
  id: 'call-batches',
  description: 'generated batches over generated phone scripts: windows, legal hours, concurrency, pacing, rounds (After, On) and counts hold',
  clauses: ['call-batch.round.after', 'call-batch.round.on', 'call-batch.round.windows', 'call-batch.field.counts-every-recipient'],
  tags: ['call-batches', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'phone-calls', 'clock', 'call-batches'],
  level: 'sim',
  numRuns: 10,
  arbitrary: batchCaseArb({ maxConcurrency: 3, maxPhones: 4 }),
  drive: async (v, c) => {
    await c.exec({ control: { method: 'GET', path: '/clock' }, save: { now: 'body.now' } });
    // 10:00 Korea time tomorrow: a known time of day whatever the run did before.
    await c.exec({ control: { advance: { to: '{{ now | addSeconds(86400) | day }}T01:00:00Z' } } });
    await c.exec({ control: { createAccount: { numbers: 1 }, as: 'shop' } as Json });
    const flow = await c.exec({
      request: { operationId: 'createCallFlow', as: 'shop', body: { name: 'batch', graph: { version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello', next: 'bye' }, bye: { type: 'hangup' } } } } },
      save: { flow: 'body.callFlowId' },
    });
    if (flow.status === 'failed') return undefined;
    const numbers = v.phones.map((_, i) => c.number(i));
    for (const [i, answers] of v.phones.entries()) {
      c.set(`phone${i}`, numbers[i]);
      for (const [j, a] of answers.entries()) {
        const script = `script${i}_${j}`;
        await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: `{{ phone${i} }}`, types: ['call'], times: 1, outcome: a === 'machine' ? 'delivered' : a, answeredBy: a === 'machine' ? 'machine' : 'human' } }, save: { [script]: 'body.scriptId' } });
        // A round that never comes leaves its answer unspent.
        c.afterCase({ control: { method: 'DELETE', path: `/carrier/scripts/{{ ${script} }}` } });
      }
    }
    const created = await c.exec({
      name: 'create the generated batch',
      request: {
        operationId: 'createCallBatch',
        as: 'shop',
        body: { Name: 'generated', From: '{{ shop.numbers[0] }}', CallFlowId: '{{ flow }}', MaxConcurrency: v.maxConcurrency, PacingPerMinute: v.pacing, MachineDetection: v.detection, Rounds: v.rounds, Tasks: numbers.map((_, i) => ({ To: `{{ phone${i} }}` })) },
      },
      expectSim: { status: 200 },
      save: { batch: 'body.batchId' },
    });
    if (created.status === 'failed') return undefined;
    for (let day = 0; day < 15; day++) {
      await c.exec({ control: { advance: { seconds: 86_400 } } });
      await c.exec({ request: { operationId: 'getCallBatch', as: 'shop', params: { batchId: '{{ batch }}' } }, save: { counts: 'body.counts' } });
      const counts = c.saved('counts') as Record<string, number> | undefined;
      if (!counts) return 'getCallBatch gave no counts';
      const sum = Object.values(counts).reduce((a, b) => a + b, 0);
      if (sum !== numbers.length) return `counts sum to ${sum} for ${numbers.length} recipients: ${JSON.stringify(counts)}`;
    }
    await c.exec({ request: { operationId: 'getCallBatch', as: 'shop', params: { batchId: '{{ batch }}' } }, expectSim: { body: { status: 'completed' } } });
    const byPhone: CallRow[][] = [];
    for (const i of numbers.keys()) {
      await c.exec({ request: { operationId: 'listCalls', as: 'shop', query: { to: `{{ phone${i} }}`, pageSize: 100 } }, save: { [`calls${i}`]: 'body.data' } });
      const rows = c.saved(`calls${i}`) as CallRow[] | undefined;
      if (!rows) return `listCalls gave no calls list for recipient ${i}`;
      byPhone.push([...rows].reverse()); // newest first on the wire
    }
    return batchViolation(v, byPhone);
  },
});
