// Virtual clock and job scheduler. Time is epoch milliseconds; nothing here reads the wall
// clock. Jobs are plain data ({kind, payload}) so that a state snapshot can carry them, and
// they run in one total order: due time, then creation sequence (DESIGN "Rules"). A kind
// registered with its payload check (the owner's declared schema) refuses a snapshot whose job
// of that kind carries a payload the handler could not read.
import { ApiError, errorCodes } from './errors.ts';
import { grown } from './typed-arrays.ts';

export interface Job {
  id: number; // maps a scheduled job to its handle for cancel()
  due: number; // maps the job to the virtual instant (ms) at which it runs
  seq: number; // maps the job to its creation order, the tie-breaker for equal due times
  kind: string; // maps the job to the handler registered for that kind
  payload: unknown; // maps the job to its JSON-serialisable argument
}

export type JobHandler = (payload: any, job: Job) => void;

/** Throws a 400 naming `path` when a payload does not fit its kind (the family scope builds it from the schema). */
export type PayloadCheck = (payload: unknown, path: string) => void;

export interface ClockSnapshot {
  now: number;
  nextJobId: number;
  jobs: Job[];
}

/** Jobs fired by one advance beyond which the clock assumes a job keeps rescheduling itself. */
export const RUNAWAY_LIMIT = 1_000_000;

export class VirtualClock {
  private current: number;
  private nextJobId = 1;
  private heap: Job[] = [];
  // Each heap place's (due, seq) beside it: the heap compares numbers in two typed arrays instead
  // of reading two objects per step (docs/decisions.md "The batch's CPU per call, fifth round").
  private dues = new Float64Array(64);
  private seqs = new Float64Array(64);
  private readonly cancelled = new Set<number>();
  private readonly handlers = new Map<string, JobHandler>();
  private readonly checks = new Map<string, PayloadCheck>(); // maps a kind to the check of its declared payload schema
  private running = false;
  private scheduledListener?: (due: number) => void; // the realtime driver re-arms its timer here
  private readonly movedListeners = new Set<(now: number) => void>(); // watchers of time moving (the inspector's live feed)

  constructor(start: number) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  nowIso(): string {
    return iso(this.current);
  }

  /** Registers the function that runs jobs of `kind` (once), and the check a restored job's payload must pass. */
  on(kind: string, handler: JobHandler, check?: PayloadCheck): void {
    if (this.handlers.has(kind)) throw new Error(`job kind registered twice: ${kind}`);
    this.handlers.set(kind, handler);
    if (check) this.checks.set(kind, check);
  }

  /** Kinds registered without a payload check (families not yet declaring their jobs' schemas). */
  uncheckedKinds(): string[] {
    return [...this.handlers.keys()].filter((k) => !this.checks.has(k)).sort();
  }

  /** Schedules a job at an absolute instant; an instant in the past runs at the next advance. */
  schedule(kind: string, due: number, payload: unknown = null): number {
    if (!this.handlers.has(kind)) throw new Error(`no handler for job kind: ${kind}`);
    const id = this.nextJobId++;
    const at = Math.max(due, this.current);
    this.push({ id, due: at, seq: id, kind, payload });
    this.scheduledListener?.(at);
    return id;
  }

  /** Called with the due time of every newly scheduled job (one listener: the clock driver). */
  onScheduled(listener: ((due: number) => void) | undefined): void {
    this.scheduledListener = listener;
  }

  /** Calls `listener` with the new time after every advance and restore; returns the unsubscribe. */
  watch(listener: (now: number) => void): () => void {
    this.movedListeners.add(listener);
    return () => this.movedListeners.delete(listener);
  }

  private moved(): void {
    for (const l of this.movedListeners) l(this.current);
  }

  scheduleIn(kind: string, delayMs: number, payload: unknown = null): number {
    return this.schedule(kind, this.current + delayMs, payload);
  }

  cancel(jobId: number): void {
    if (this.heap.some((j) => j.id === jobId)) this.cancelled.add(jobId);
  }

  /** Due time of the earliest live job, or undefined when nothing is scheduled. */
  nextDue(): number | undefined {
    this.dropCancelledTop();
    return this.heap[0]?.due;
  }

  pendingJobs(): Job[] {
    return this.heap.filter((j) => !this.cancelled.has(j.id)).sort(compareJobs);
  }

  /**
   * Moves time forward to `target`, running every job that falls due on the way (including
   * jobs those jobs schedule), each at its own instant. Returns the number of jobs run.
   */
  advanceTo(target: number): number {
    if (!Number.isFinite(target)) throw ApiError.validation('the target instant is not a valid time');
    if (target < this.current) {
      throw ApiError.validation(
        `the clock cannot move backwards (now ${this.nowIso()}, asked for ${new Date(target).toISOString()})`,
      );
    }
    if (this.running) throw new Error('advanceTo called from inside a job');
    this.running = true;
    let fired = 0;
    try {
      for (;;) {
        this.dropCancelledTop();
        const top = this.heap[0];
        if (!top || top.due > target) break;
        this.pop();
        this.current = top.due;
        const handler = this.handlers.get(top.kind);
        if (!handler) throw new Error(`no handler for job kind: ${top.kind}`);
        handler(top.payload, top);
        fired++;
        if (fired >= RUNAWAY_LIMIT) {
          throw errorCodes.CLOCK_RUNAWAY(`more than ${RUNAWAY_LIMIT} jobs fell due in one advance; a job keeps rescheduling itself`);
        }
      }
      this.current = target;
    } finally {
      this.running = false;
    }
    this.moved();
    return fired;
  }

  snapshot(): ClockSnapshot {
    return { now: this.current, nextJobId: this.nextJobId, jobs: this.pendingJobs().map((j) => ({ ...j })) };
  }

  restore(s: ClockSnapshot): void {
    s.jobs.forEach((j, i) => {
      if (!this.handlers.has(j.kind)) throw ApiError.validation(`snapshot has a job of unknown kind "${j.kind}"`);
      this.checks.get(j.kind)?.(j.payload, `clock.jobs[${i}].payload`);
    });
    this.current = s.now;
    this.nextJobId = s.nextJobId;
    this.heap = [];
    this.cancelled.clear();
    for (const j of s.jobs) this.push({ ...j });
    this.moved();
  }

  // --- binary heap ordered by (due, seq) ---

  private push(job: Job): void {
    const h = this.heap;
    let i = h.length;
    h.push(job);
    if (i >= this.dues.length) {
      this.dues = grown(this.dues, i + 1);
      this.seqs = grown(this.seqs, i + 1);
    }
    const due = job.due;
    const seq = job.seq;
    const dues = this.dues;
    const seqs = this.seqs;
    // Parents after the job move down a place until the job's place is found (one write of it).
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pd = dues[parent]!;
      if (pd < due || (pd === due && seqs[parent]! <= seq)) break;
      h[i] = h[parent]!;
      dues[i] = pd;
      seqs[i] = seqs[parent]!;
      i = parent;
    }
    h[i] = job;
    dues[i] = due;
    seqs[i] = seq;
  }

  private pop(): Job | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    const n = h.length;
    if (n > 0 && last) {
      const dues = this.dues;
      const seqs = this.seqs;
      const due = dues[n]!;
      const seq = seqs[n]!;
      // The smaller child moves up a place until the last job's place is found: jobs are
      // totally ordered by (due, seq), so the heap takes the same shape as a swap at each step.
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        if (r < n && (dues[r]! < dues[l]! || (dues[r] === dues[l] && seqs[r]! < seqs[l]!))) m = r;
        const md = dues[m]!;
        if (md > due || (md === due && seqs[m]! >= seq)) break;
        h[i] = h[m]!;
        dues[i] = md;
        seqs[i] = seqs[m]!;
        i = m;
      }
      h[i] = last;
      dues[i] = due;
      seqs[i] = seq;
    }
    return top;
  }

  private dropCancelledTop(): void {
    while (this.cancelled.size > 0 && this.heap.length > 0 && this.cancelled.has(this.heap[0]!.id)) { // nothing cancelled: no job read (asked before every job)
      this.cancelled.delete(this.pop()!.id);
    }
  }
}

function compareJobs(a: Job, b: Job): number {
  return a.due - b.due || a.seq - b.seq;
}

/** Parses an ISO 8601 datetime with an explicit offset; returns epoch ms or undefined. */
export function parseInstant(text: string): number | undefined {
  // The same text is often parsed at every call (an account's subscription start): the last answer is kept.
  if (text === lastParsedText) return lastParsedMs;
  let ms: number | undefined;
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i.test(text)) {
    ms = Date.parse(text);
    if (Number.isNaN(ms)) ms = undefined;
  }
  lastParsedText = text;
  lastParsedMs = ms;
  return ms;
}

let lastParsedText = ''; // no instant
let lastParsedMs: number | undefined;

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

function digit(text: string, i: number): number {
  return text.charCodeAt(i) - 48;
}

/** YYYY-MM-DDTHH:MM:SS.sssZ: 0 where a digit goes, else the character's code. */
const CANONICAL_SHAPE = Int32Array.from('0000-00-00T00:00:00.000Z', (c) => (c === '0' ? 0 : c.charCodeAt(0)));

/**
 * parseInstant for the texts the simulator writes itself (`iso()`: YYYY-MM-DDTHH:MM:SS.sssZ),
 * read by arithmetic without the pattern (a million stored instants are read this way when an
 * index catches up); any other text goes through parseInstant.
 */
export function instantOf(text: string): number | undefined {
  return canonicalInstant(text) ?? parseInstant(text);
}

/** The instant of a text exactly as `iso()` writes it (so `iso(result) === text`), else undefined. */
export function canonicalInstant(text: string): number | undefined {
  // A row's instants repeat (dateUpdated, its timeline's last step, the delivery's completedAt):
  // the last text read is answered again without reading its digits.
  if (text === lastCanonicalText) return lastCanonicalMs;
  // A row's other instants are recent ones too, most of them made by iso() (which files each text
  // it makes here): one place per text, picked from its digits, holds the last text read or made
  // there and its instant. No map hashed, grown and emptied: about 12 reads a call of a batch,
  // 1.5 of them texts not read before (docs/decisions.md "Scale", "The batch's CPU per call,
  // eighth round").
  const place = textPlace(text);
  let ms: number;
  if (readText[place] === text) ms = readMs[place]!;
  else {
    const read = readCanonical(text);
    if (read === undefined) return undefined;
    ms = read;
    readText[place] = text;
    readMs[place] = ms;
  }
  lastCanonicalText = text;
  lastCanonicalMs = ms;
  return ms;
}

/**
 * The place of a canonical text in the read cache, from the digits that differ between nearby
 * instants (milliseconds, seconds, minutes, the hour's and the day's last digits). Any text has
 * one (a shorter text reads NaN there, so place 0); only an equal text finds an entry.
 */
function textPlace(text: string): number {
  const v =
    text.charCodeAt(22) +
    text.charCodeAt(21) * 10 +
    text.charCodeAt(20) * 100 +
    text.charCodeAt(18) * 1_000 +
    text.charCodeAt(17) * 10_000 +
    text.charCodeAt(15) * 100_000 +
    text.charCodeAt(14) * 1_000_000 +
    text.charCodeAt(12) * 10_000_000 +
    text.charCodeAt(9) * 100_000_000;
  return Math.imul(v | 0, 0x9e3779b1) >>> 20; // 12 bits: READ_CACHE_SIZE places
}

/**
 * Canonical texts read or made, and their instants, one per place (textPlace). Every place starts
 * as a true pair (the epoch's text and 0), never as a text that is no instant: '' would be found
 * at place 0, where every text too short to have those digits goes.
 */
const READ_CACHE_SIZE = 4096;
const readText: string[] = new Array<string>(READ_CACHE_SIZE).fill('1970-01-01T00:00:00.000Z');
const readMs: number[] = taggedNumbers(READ_CACHE_SIZE);

/**
 * An array of `size` zeros whose elements stay tagged values (an array that once held a
 * non-number keeps that kind): an instant read back from it is the number stored, where a
 * Float64Array (or an array of numbers only) boxed a new one at each read, about 150 bytes of
 * garbage a call of a batch.
 */
function taggedNumbers(size: number): number[] {
  const a: unknown[] = new Array<unknown>(size).fill(null);
  a.fill(0);
  return a as number[];
}

// Starts as a canonical text and its instant (never '', which is no instant).
let lastCanonicalText = '1970-01-01T00:00:00.000Z';
let lastCanonicalMs = 0;

function readCanonical(text: string): number | undefined {
  if (text.length !== 24) return undefined;
  for (let i = 0; i < 24; i++) {
    const c = text.charCodeAt(i);
    const want = CANONICAL_SHAPE[i]!;
    if (want === 0 ? c < 48 || c > 57 : c !== want) return undefined;
  }
  const year = digit(text, 0) * 1000 + digit(text, 1) * 100 + digit(text, 2) * 10 + digit(text, 3);
  const month = digit(text, 5) * 10 + digit(text, 6);
  const day = digit(text, 8) * 10 + digit(text, 9);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
  // iso() writes years below 1970 through Date's own formatting; those stay with parseInstant.
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > days) return undefined;
  const hour = digit(text, 11) * 10 + digit(text, 12);
  const minute = digit(text, 14) * 10 + digit(text, 15);
  const second = digit(text, 17) * 10 + digit(text, 18);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + digit(text, 20) * 100 + digit(text, 21) * 10 + digit(text, 22);
}

// Recently formatted instants: jobs stamp many rows with the same few instants (now, a due
// time), formatting costs far more than a lookup, and rows then share one string (call batches
// keep 100,000s of calls; docs/decisions.md "Call batches"). One place per instant, picked by a
// hash of it (a newer instant takes the place of an older one): no number boxed and hashed by a
// Map at each of the batch's millions of calls (docs/decisions.md "Scale", "The batch's CPU per
// call, fourth round").
const ISO_CACHE_SIZE = 4096;
const isoMs = new Float64Array(ISO_CACHE_SIZE).fill(NaN);
const isoText: string[] = new Array<string>(ISO_CACHE_SIZE).fill('');

export function iso(ms: number): string {
  const place = Math.imul(ms | 0, 0x9e3779b1) >>> 20; // 12 bits: ISO_CACHE_SIZE places
  if (isoMs[place] === ms) return isoText[place]!;
  const text = format(ms);
  isoMs[place] = ms;
  isoText[place] = text;
  // A text of the fast formatting is canonical with exactly this instant: filed for canonicalInstant.
  if (formattedCanonical(ms)) {
    const read = textPlace(text);
    readText[read] = text;
    readMs[read] = ms + 0; // -0 is filed as 0, what reading the text's digits gives
  }
  return text;
}

const DAY_MS = 86_400_000;
/** 10000-01-01: from there on (and before 1970) Date's own formatting, which also refuses invalid times. */
const LAST_FAST_MS = 253_402_300_800_000;

/**
 * Whether iso() writes `ms` by its own formatting (1970 to 9999, whole milliseconds): a text
 * YYYY-MM-DDTHH:MM:SS.sssZ that canonicalInstant reads back as exactly `ms` (-0 as 0).
 */
export function formattedCanonical(ms: number): boolean {
  return ms >= 0 && ms < LAST_FAST_MS && Number.isInteger(ms);
}
let formattedDay = NaN;
// The date part's character codes (YYYY-MM-DDT), written once per day.
const dayCodes = new Int32Array(11);

/**
 * Date.toISOString by arithmetic, with the date part formatted once per day (several times
 * faster). The text is made from its character codes in one piece, the codes passed one by one
 * (an array spread or applied is copied first): a text joined from parts is a tree of pieces
 * in V8, which every later read (hashing it in canonicalInstant's map, reading its digits,
 * comparing it) must first copy flat (docs/decisions.md "Scale", "The batch's CPU per call,
 * seventh round").
 */
function format(ms: number): string {
  if (!formattedCanonical(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  const d = dayCodes;
  if (day !== formattedDay) {
    const date = new Date(day * DAY_MS).toISOString();
    for (let i = 0; i < 11; i++) d[i] = date.charCodeAt(i);
    formattedDay = day;
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  const ZERO = 48;
  const COLON = 58;
  return String.fromCharCode(
    d[0]!, d[1]!, d[2]!, d[3]!, d[4]!, d[5]!, d[6]!, d[7]!, d[8]!, d[9]!, d[10]!,
    ZERO + Math.floor(h / 10), ZERO + (h % 10), COLON,
    ZERO + Math.floor(m / 10), ZERO + (m % 10), COLON,
    ZERO + Math.floor(sec / 10), ZERO + (sec % 10), 46, // .
    ZERO + Math.floor(milli / 100), ZERO + (Math.floor(milli / 10) % 10), ZERO + (milli % 10), 90, // Z
  );
}
