// Property (fast-check, fixed seed from setup.ts): generated batches (rounds with windows,
// After and On, limits, machine detection) over generated phone scripts (each recipient's
// answers in turn), run for two weeks of virtual time. The calls the carrier saw are checked
// against the kit's reference rules of batches (conformance/properties/call-batch-rules.ts: no
// call outside its round's window or the legal hours, MaxConcurrency and PacingPerMinute never
// exceeded, a round only After minutes after the previous call ended and only for an On
// outcome), and here: counts always summing to the recipients, every call ended, exactly one
// callflow.ended per ended call.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import { batchCaseArb, batchViolation } from '../../conformance/properties/call-batch-rules.ts';

const FROM = '07012340001';
const batchArb = fc.tuple(batchCaseArb({ maxConcurrency: 4, maxPhones: 8 }), fc.integer({ min: 0, max: 23 }));

describe('call batches, property', () => {
  it('windows, legal hours, limits, rounds, counts and callflow.ended hold for generated batches and phones', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, async ([g, startHour]) => {
        const h = harness();
        const rt = runtimeOf(h.sim);
        const flowEnded: string[] = [];
        rt.events.subscribe((e) => {
          if (e.type === 'callflow.ended') flowEnded.push(e.resourceId);
        });
        const cf = (await h.call('POST', h.acme('/call-flows'), { name: 'p', graph: { version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello', next: 'bye' }, bye: { type: 'hangup' } } } })).json.callFlowId;
        const numbers = g.phones.map((_, i) => `0102000${String(i).padStart(4, '0')}`);
        for (const [i, answers] of g.phones.entries()) {
          for (const a of answers) {
            await h.sim.control.request('POST', '/carrier/scripts', {
              number: numbers[i],
              types: ['call'],
              times: 1,
              outcome: a === 'machine' ? 'delivered' : a,
              answeredBy: a === 'machine' ? 'machine' : 'human',
            });
          }
        }
        await h.sim.clock.advance({ seconds: startHour * 3600 });
        const created = await h.call('POST', h.acme('/call-batches'), {
          Name: 'p',
          From: FROM,
          CallFlowId: cf,
          MaxConcurrency: g.maxConcurrency,
          PacingPerMinute: g.pacing,
          MachineDetection: g.detection,
          Rounds: g.rounds,
          Tasks: numbers.map((To) => ({ To })),
        });
        expect(created.status, created.text).toBe(200);
        const id = created.json.batchId as string;
        // Two weeks in steps of six hours; counts sum to the recipients at every step.
        for (let step = 0; step < 56; step++) {
          await h.sim.clock.advance({ seconds: 6 * 3600 });
          const b = (await h.call('GET', h.acme(`/call-batches/${id}`))).json;
          expect(Object.values(b.counts as Record<string, number>).reduce((x, y) => x + y, 0)).toBe(numbers.length);
        }
        const batch = (await h.call('GET', h.acme(`/call-batches/${id}`))).json;
        expect(batch.status).toBe('completed');

        const calls = rt.calls.calls.all().filter((c) => c.from === FROM);
        const start = (c: (typeof calls)[number]) => Date.parse(c.dateCreated);
        // Every call ended, and each had exactly one callflow.ended.
        expect(calls.every((c) => c.dateUpdated !== null)).toBe(true);
        expect([...flowEnded].sort()).toEqual(calls.map((c) => c.id).sort());

        // The batch's rules, read from the calls each recipient got (oldest first).
        const byPhone = numbers.map((n) => calls.filter((c) => c.to === n).sort((x, y) => start(x) - start(y)));
        expect(batchViolation(g, byPhone)).toBeUndefined();
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 40) },
    );
  });
});
