// The reference rules of call batches, written once: what a batch's calls must look like given
// its rounds, windows and limits (no call outside its round's windows, read in Asia/Seoul, or the
// legal hours 08:00-21:00 Korea time; MaxConcurrency and PacingPerMinute never exceeded; round
// n+1 only After minutes after round n's call ended and only for an On outcome; no round left
// out), with this file's own reading of Korea time, and the generators of batches and phone
// scripts. The kit's property (call-batches.ts) checks a target through the API with them; the
// simulator's property test (simulator/test/call-batches.property.test.ts) checks its calls in process.
import fc from 'fast-check';

export type Answer = 'delivered' | 'no-answer' | 'busy' | 'rejected' | 'failed' | 'machine';
export const OUTCOMES = ['no-answer', 'busy', 'rejected', 'failed', 'machine'] as const;
const KST = 9 * 3_600_000;
const DAY = 86_400_000;

export interface Window {
  Days: number[];
  Start: string;
  End: string;
}
export interface Round {
  After?: number;
  On?: string[];
  Windows?: Window[];
}
export interface BatchCase {
  rounds: Round[];
  maxConcurrency: number;
  pacing: number;
  detection: string;
  phones: Answer[][];
}
export interface CallRow {
  status: string;
  answeredBy: string | null;
  dateCreated: string;
  dateUpdated: string | null;
}

const hh = (h: number) => `${String(h).padStart(2, '0')}:00`;
// Windows always meet the legal hours 08:00-21:00 somewhere (start 07 to 20, an hour or more,
// never ending before 09:00): a window that cannot is refused (window_unsatisfiable).
export const windowArb: fc.Arbitrary<Window> = fc
  .tuple(fc.uniqueArray(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 7 }), fc.integer({ min: 7, max: 20 }), fc.integer({ min: 1, max: 6 }))
  .map(([days, start, len]) => ({ Days: days, Start: hh(start), End: hh(Math.min(24, Math.max(start + len, 9))) }));
export const windowsArb = fc.option(fc.array(windowArb, { minLength: 1, maxLength: 2 }), { nil: undefined });
/** One to three rounds: the first with optional windows, later ones with After, On and optional windows. */
export const roundsArb: fc.Arbitrary<Round[]> = fc.integer({ min: 1, max: 3 }).chain((n) =>
  fc
    .tuple(windowsArb, fc.array(fc.tuple(fc.constantFrom(1, 5, 30, 120), fc.subarray([...OUTCOMES], { minLength: 1 }), windowsArb), { minLength: n - 1, maxLength: n - 1 }))
    .map(([first, rest]) => [
      first === undefined ? {} : { Windows: first },
      ...rest.map(([After, On, Windows]) => ({ After, On, ...(Windows === undefined ? {} : { Windows }) })),
    ]),
);

/** What a recipient's phone does with one call. */
export const answerArb = fc.constantFrom<Answer>('delivered', 'no-answer', 'busy', 'rejected', 'failed', 'machine');

/** A batch and its recipients' phone scripts (each recipient's answers in turn), within the given sizes. */
export function batchCaseArb(limits: { maxConcurrency: number; maxPhones: number }): fc.Arbitrary<BatchCase> {
  return fc.record({
    rounds: roundsArb,
    maxConcurrency: fc.integer({ min: 1, max: limits.maxConcurrency }),
    pacing: fc.integer({ min: 1, max: 20 }),
    detection: fc.constantFrom('None', 'Enable', 'Hangup'),
    phones: fc.array(fc.array(answerArb, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: limits.maxPhones }),
  });
}

/** This file's own reading of an instant in Korea time: ISO day (1 = Monday) and minute of day. */
export function korea(ms: number): { day: number; minute: number } {
  const local = ms + KST;
  const n = Math.floor(local / DAY);
  const wd = new Date(n * DAY).getUTCDay();
  return { day: wd === 0 ? 7 : wd, minute: Math.floor((local - n * DAY) / 60_000) };
}
const minutes = (t: string) => Number(t.slice(0, 2)) * 60;
export const outcomeOf = (c: CallRow) => (c.answeredBy === 'machine' ? 'machine' : c.status);

/** The first broken rule in the calls the batch placed, or undefined. */
export function batchViolation(v: BatchCase, callsByPhone: CallRow[][]): string | undefined {
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

