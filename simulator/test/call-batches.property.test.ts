// Property (fast-check, fixed seed from setup.ts): generated batches (rounds with windows,
// After and On, limits, machine detection) over generated phone scripts (each recipient's
// answers in turn), run for two weeks of virtual time. Checked against the calls the carrier
// saw, with this file's own reading of Korea time: no call outside its round's window or the
// legal hours, MaxConcurrency and PacingPerMinute never exceeded, a round only After minutes
// after the previous call ended and only for an On outcome, counts always summing to the
// recipients, exactly one callflow.ended per ended call.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

const FROM = '07012340001';
const KST = 9 * 3_600_000;
const DAY = 86_400_000;
type Answer = 'delivered' | 'no-answer' | 'busy' | 'rejected' | 'failed' | 'machine';
const OUTCOMES = ['no-answer', 'busy', 'rejected', 'failed', 'machine'] as const;

interface Window {
  Days: number[];
  Start: string;
  End: string;
}
interface Round {
  After?: number;
  On?: string[];
  Windows?: Window[];
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
// Windows always meet the legal hours somewhere (start 07 to 20, at least an hour long).
const windowArb: fc.Arbitrary<Window> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), fc.integer({ min: 7, max: 20 }), fc.integer({ min: 1, max: 6 }))
  .map(([days, start, len]) => ({ Days: days, Start: hh(start), End: hh(Math.min(24, start + len)) }));
const windowsArb = fc.option(fc.array(windowArb, { minLength: 1, maxLength: 2 }), { nil: undefined });
const roundsArb: fc.Arbitrary<Round[]> = fc.integer({ min: 1, max: 3 }).chain((n) =>
  fc.tuple(
    windowsArb,
    fc.array(fc.tuple(fc.constantFrom(1, 5, 30, 120), fc.subarray([...OUTCOMES], { minLength: 1 }), windowsArb), { minLength: n - 1, maxLength: n - 1 }),
  ).map(([first, rest]) => [
    first === undefined ? {} : { Windows: first },
    ...rest.map(([After, On, Windows]) => ({ After, On, ...(Windows === undefined ? {} : { Windows }) })),
  ]),
);
const answerArb = fc.constantFrom<Answer>('delivered', 'no-answer', 'busy', 'rejected', 'failed', 'machine');
const batchArb = fc.record({
  rounds: roundsArb,
  maxConcurrency: fc.integer({ min: 1, max: 4 }),
  pacing: fc.integer({ min: 1, max: 20 }),
  detection: fc.constantFrom('None', 'Enable', 'Hangup'),
  phones: fc.array(fc.array(answerArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }),
  startHour: fc.integer({ min: 0, max: 23 }),
});

/** This file's own reading of an instant in Korea time: ISO day (1 = Monday) and minute of day. */
function korea(ms: number): { day: number; minute: number } {
  const local = ms + KST;
  const dayNumber = Math.floor(local / DAY);
  const wd = new Date(dayNumber * DAY).getUTCDay();
  return { day: wd === 0 ? 7 : wd, minute: Math.floor((local - dayNumber * DAY) / 60_000) };
}
const minutes = (t: string) => Number(t.slice(0, 2)) * 60;

describe('call batches, property', () => {
  it('windows, legal hours, limits, rounds, counts and callflow.ended hold for generated batches and phones', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, async (g) => {
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
        await h.sim.clock.advance({ seconds: g.startHour * 3600 });
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
        const end = (c: (typeof calls)[number]) => (c.dateUpdated === null ? Infinity : Date.parse(c.dateUpdated));
        // Every call ended, and each had exactly one callflow.ended.
        expect(calls.every((c) => c.dateUpdated !== null)).toBe(true);
        expect([...flowEnded].sort()).toEqual(calls.map((c) => c.id).sort());

        for (const c of calls) {
          const s = start(c);
          // Concurrency: calls of the batch in progress at each start, this one included.
          expect(calls.filter((o) => start(o) <= s && end(o) > s).length).toBeLessThanOrEqual(g.maxConcurrency);
          // Pacing: dials in the minute from each start.
          expect(calls.filter((o) => start(o) >= s && start(o) < s + 60_000).length).toBeLessThanOrEqual(g.pacing);
        }
        for (const n of numbers) {
          const mine = calls.filter((c) => c.to === n);
          expect(mine.length).toBeLessThanOrEqual(g.rounds.length);
          mine.forEach((c, k) => {
            const round = g.rounds[k]!;
            const { day, minute } = korea(start(c));
            // Legal hours and the round's window (Asia/Seoul: windows are read in Korea time).
            expect(minute >= 8 * 60 && minute < 21 * 60, `${c.dateCreated} outside 08:00-21:00 Korea time`).toBe(true);
            if (round.Windows) {
              expect(round.Windows.some((w) => w.Days.includes(day) && minute >= minutes(w.Start) && minute < minutes(w.End)), `${c.dateCreated} outside round ${k + 1}'s windows`).toBe(true);
            }
            if (k > 0) {
              const prev = mine[k - 1]!;
              expect(start(c) - end(prev)).toBeGreaterThanOrEqual(round.After! * 60_000);
              const outcome = prev.answeredBy === 'machine' ? 'machine' : prev.status;
              expect(round.On).toContain(outcome);
            }
          });
          // No round left out: the last call's outcome is not one the next round waits for.
          const last = mine[mine.length - 1]!;
          const next = g.rounds[mine.length];
          if (next) {
            const outcome = last.answeredBy === 'machine' ? 'machine' : last.status;
            expect(next.On).not.toContain(outcome);
          }
        }
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 40) },
    );
  });
});
