// Generated call batches over generated phone scripts, run for two weeks of virtual time and
// checked through the API only (listCalls per recipient, the batch's counts), with this file's
// own reading of Korea time: no call outside its round's windows (read in Asia/Seoul) or the
// legal hours 08:00-21:00, MaxConcurrency and PacingPerMinute never exceeded, round n+1 only
// After minutes after round n's call ended and only for an On outcome, no round left out, and
// counts that sum to the recipients.
import fc from 'fast-check';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;
type Answer = 'delivered' | 'no-answer' | 'busy' | 'rejected' | 'failed' | 'machine';
const OUTCOMES = ['no-answer', 'busy', 'rejected', 'failed', 'machine'] as const;
const KST = 9 * 3_600_000;
const DAY = 86_400_000;

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
interface Case {
  rounds: Round[];
  maxConcurrency: number;
  pacing: number;
  detection: string;
  phones: Answer[][];
}
interface CallRow {
  status: string;
  answeredBy: string | null;
  dateCreated: string;
  dateUpdated: string | null;
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
// Windows always meet the legal hours (start 07 to 20, an hour or more).
const windowArb: fc.Arbitrary<Window> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), fc.integer({ min: 7, max: 20 }), fc.integer({ min: 1, max: 6 }))
  .map(([days, start, len]) => ({ Days: days, Start: hh(start), End: hh(Math.min(24, start + len)) }));
const windowsArb = fc.option(fc.array(windowArb, { minLength: 1, maxLength: 2 }), { nil: undefined });
const caseArb: fc.Arbitrary<Case> = fc.record({
  rounds: fc.integer({ min: 1, max: 3 }).chain((n) =>
    fc
      .tuple(windowsArb, fc.array(fc.tuple(fc.constantFrom(1, 5, 30, 120), fc.subarray([...OUTCOMES], { minLength: 1 }), windowsArb), { minLength: n - 1, maxLength: n - 1 }))
      .map(([first, rest]) => [
        first === undefined ? {} : { Windows: first },
        ...rest.map(([After, On, Windows]) => ({ After, On, ...(Windows === undefined ? {} : { Windows }) })),
      ]),
  ),
  maxConcurrency: fc.integer({ min: 1, max: 3 }),
  pacing: fc.integer({ min: 1, max: 20 }),
  detection: fc.constantFrom('None', 'Enable', 'Hangup'),
  phones: fc.array(fc.array(fc.constantFrom<Answer>('delivered', 'no-answer', 'busy', 'rejected', 'failed', 'machine'), { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }),
});

function korea(ms: number): { day: number; minute: number } {
  const local = ms + KST;
  const n = Math.floor(local / DAY);
  const wd = new Date(n * DAY).getUTCDay();
  return { day: wd === 0 ? 7 : wd, minute: Math.floor((local - n * DAY) / 60_000) };
}
const minutes = (t: string) => Number(t.slice(0, 2)) * 60;
const outcomeOf = (c: CallRow) => (c.answeredBy === 'machine' ? 'machine' : c.status);

/** The first broken rule in the calls the batch placed, or undefined. */
export function batchViolation(v: Case, callsByPhone: CallRow[][]): string | undefined {
  const all = callsByPhone.flat();
  const start = (c: CallRow) => Date.parse(c.dateCreated);
  const end = (c: CallRow) => (c.dateUpdated === null ? Infinity : Date.parse(c.dateUpdated));
  for (const c of all) {
    const s = start(c);
    const busy = all.filter((o) => start(o) <= s && end(o) > s).length;
    if (busy > v.maxConcurrency) return `${busy} calls in progress at ${c.dateCreated}; MaxConcurrency is ${v.maxConcurrency}`;
    const paced = all.filter((o) => start(o) >= s && start(o) < s + 60_000).length;
    if (paced > v.pacing) return `${paced} dials in the minute from ${c.dateCreated}; PacingPerMinute is ${v.pacing}`;
  }
  for (const [p, calls] of callsByPhone.entries()) {
    if (calls.length > v.rounds.length) return `recipient ${p} was called ${calls.length} times with ${v.rounds.length} round(s)`;
    for (const [k, c] of calls.entries()) {
      const round = v.rounds[k]!;
      const { day, minute } = korea(start(c));
      if (minute < 8 * 60 || minute >= 21 * 60) return `a call at ${c.dateCreated} is outside the legal hours 08:00-21:00 Korea time`;
      if (round.Windows && !round.Windows.some((w) => w.Days.includes(day) && minute >= minutes(w.Start) && minute < minutes(w.End))) return `a round ${k + 1} call at ${c.dateCreated} is outside its windows`;
      if (k > 0) {
        const prev = calls[k - 1]!;
        if (start(c) - end(prev) < round.After! * 60_000) return `round ${k + 1} of recipient ${p} came ${(start(c) - end(prev)) / 60_000} min after the previous call ended; After is ${round.After}`;
        if (!round.On!.includes(outcomeOf(prev))) return `round ${k + 1} of recipient ${p} followed a ${outcomeOf(prev)} call; On is ${round.On!.join(', ')}`;
      }
    }
    const last = calls[calls.length - 1];
    const next = v.rounds[calls.length];
    if (last && next && next.On!.includes(outcomeOf(last))) return `recipient ${p}'s ${outcomeOf(last)} call was not followed by round ${calls.length + 1}`;
  }
  return undefined;
}

export const callBatchesProperty: PropertyDef = generatedProperty<Case>({
  id: 'call-batches',
  description: 'generated batches over generated phone scripts: windows, legal hours, concurrency, pacing, rounds (After, On) and counts hold',
  clauses: ['call-batch.round.after', 'call-batch.round.on', 'call-batch.round.windows', 'call-batch.field.counts-every-recipient'],
  tags: ['call-batches', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'phone-calls', 'clock', 'call-batches'],
  level: 'sim',
  numRuns: 10,
  arbitrary: caseArb,
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
      for (const a of answers) {
        await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: `{{ phone${i} }}`, types: ['call'], times: 1, outcome: a === 'machine' ? 'delivered' : a, answeredBy: a === 'machine' ? 'machine' : 'human' } } });
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
