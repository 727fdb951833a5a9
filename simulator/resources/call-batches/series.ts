// What a batch did over virtual time, for the inspector's batch view: recipients per task status
// at the end of each time bucket, dials per bucket, and per round the calls placed and how they
// ended. Fed by one hook on the batch's live state (Live.watch: a task changed status), so it
// costs O(1) per change and O(buckets) in memory whatever the number of recipients: buckets
// start one minute wide and widen along a ladder (each width divides the next) so a batch's
// whole span never takes more than MAX_BUCKETS of them. Part of the family's snapshot (state.ts).
import { Type, type Static } from '@sinclair/typebox';
import type { VirtualClock } from '../../core/clock.ts';
import { ApiError } from '../../core/errors.ts';
import { TASK_STATUSES, type TaskRow, type TaskStatus } from './schema.ts';
import type { Live } from './live.ts';

const MINUTE = 60_000;
/** Bucket widths in minutes; past the last, widths double. Each divides the next, so merged buckets stay aligned. */
const LADDER = [1, 5, 15, 60, 180, 360, 720, 1440];
/** Enough for a week at five minutes (2,016) and a day and a half at one minute. */
export const MAX_BUCKETS = 2048;
const STATES = TASK_STATUSES.length;
const STATE_INDEX = Object.fromEntries(TASK_STATUSES.map((s, i) => [s, i])) as Record<TaskStatus, number>;

/** The fields of a task the series reads when it changes status. */
export type TaskFacts = Pick<TaskRow, 'status' | 'dialRound' | 'disposition' | 'answeredBy'>;

/** What Live calls when a task changes status (from null: the task was just added). */
export interface TaskWatch {
  moved(from: TaskStatus | null, task: TaskFacts): void;
}

export const RoundTallySchema = Type.Object(
  {
    dialed: Type.Integer(), // calls placed in this round
    retried: Type.Integer(), // of its ended calls, those queued for the next round
    outcomes: Type.Record(Type.String(), Type.Integer()), // how its calls ended, and recipients it never dialed
  },
  { additionalProperties: false },
);
export type RoundTally = Static<typeof RoundTallySchema>;

export const BatchSeriesStateSchema = Type.Object(
  {
    batchId: Type.String(),
    widthMs: Type.Integer({ minimum: MINUTE }),
    first: Type.Number(), // start of bucket 0 (epoch ms)
    counts: Type.Array(Type.Integer()), // per bucket, recipients per status in TASK_STATUSES order at its end
    dials: Type.Array(Type.Integer()), // per bucket
    rounds: Type.Array(RoundTallySchema),
  },
  { additionalProperties: false },
);
export type BatchSeriesState = Static<typeof BatchSeriesStateSchema>;

/** How a task's status change reads as an outcome of a round (null: not an outcome). */
function outcomeOf(from: TaskStatus | null, t: TaskFacts): { round: number; outcome: string } | null {
  if (from === 'dialing') {
    const outcome = t.answeredBy === 'machine' ? 'machine' : t.disposition === 'completed' ? 'answered' : (t.disposition ?? 'unknown');
    return { round: t.dialRound - 1, outcome };
  }
  if (from !== 'pending' || t.status === 'dialing') return null;
  // A recipient left without a call in the round it waited for: opted out, refused by createCall, or the batch ended.
  const outcome = t.status === 'suppressed' ? 'opted out' : t.status === 'failed' ? 'not placed' : `batch ${t.status}`;
  return { round: t.dialRound, outcome };
}

export class BatchSeries implements TaskWatch {
  widthMs = MINUTE;
  first: number | undefined;
  /** recipients per status at the end of each bucket, STATES numbers a bucket */
  counts: number[] = [];
  dials: number[] = [];
  readonly rounds: RoundTally[] = [];
  /** the batch it follows (set when the model adopts or creates it) */
  live: Live | undefined;

  constructor(
    readonly batchId: string,
    private readonly clock: Pick<VirtualClock, 'now'>,
  ) {}

  static from(state: BatchSeriesState, clock: Pick<VirtualClock, 'now'>): BatchSeries {
    if (state.counts.length !== state.dials.length * STATES || state.dials.length > MAX_BUCKETS) {
      const message = `needs ${STATES} counts per bucket (${TASK_STATUSES.join(', ')}) and at most ${MAX_BUCKETS} buckets`;
      throw ApiError.validation(`snapshot callBatches.series of ${state.batchId}: ${message}`, [{ path: 'callBatches.series.counts', message }]);
    }
    const s = new BatchSeries(state.batchId, clock);
    s.widthMs = state.widthMs;
    s.first = state.dials.length === 0 ? undefined : state.first;
    s.counts = [...state.counts];
    s.dials = [...state.dials];
    s.rounds.push(...state.rounds.map((r) => ({ ...r, outcomes: { ...r.outcomes } })));
    return s;
  }

  /** A series of a batch that had none (a snapshot from before the series): its counts now, as one bucket. */
  seed(counts: Readonly<Record<TaskStatus, number>>): void {
    const i = this.bucketAt(this.clock.now());
    TASK_STATUSES.forEach((s, k) => (this.counts[i * STATES + k] = counts[s]));
  }

  get length(): number {
    return this.dials.length;
  }

  moved(from: TaskStatus | null, task: TaskFacts): void {
    const i = this.bucketAt(this.clock.now());
    const base = i * STATES;
    if (from !== null) this.counts[base + STATE_INDEX[from]]!--;
    this.counts[base + STATE_INDEX[task.status]]!++;
    if (task.status === 'dialing') {
      this.dials[i]!++;
      this.round(task.dialRound - 1).dialed++;
      return;
    }
    const o = outcomeOf(from, task);
    if (o === null) return;
    const r = this.round(o.round);
    r.outcomes[o.outcome] = (r.outcomes[o.outcome] ?? 0) + 1;
    if (from === 'dialing' && task.status === 'pending') r.retried++;
  }

  /** Recipients per status at the end of bucket `i`, in TASK_STATUSES order. */
  countsAt(i: number): number[] {
    return this.counts.slice(i * STATES, (i + 1) * STATES);
  }

  snapshot(): BatchSeriesState {
    return { batchId: this.batchId, widthMs: this.widthMs, first: this.first ?? 0, counts: [...this.counts], dials: [...this.dials], rounds: this.rounds.map((r) => ({ ...r, outcomes: { ...r.outcomes } })) };
  }

  private round(index: number): RoundTally {
    while (this.rounds.length <= index) this.rounds.push({ dialed: 0, retried: 0, outcomes: {} });
    return this.rounds[index]!;
  }

  /** The bucket holding `t`, made (and the series widened) when needed; earlier buckets carry their counts forward. */
  private bucketAt(t: number): number {
    if (this.first === undefined) {
      this.first = Math.floor(t / this.widthMs) * this.widthMs;
      this.counts.push(...new Array<number>(STATES).fill(0));
      this.dials.push(0);
      return 0;
    }
    let i = Math.max(0, Math.floor((t - this.first) / this.widthMs));
    if (i < this.dials.length) return i;
    while (i >= MAX_BUCKETS) {
      this.widen();
      i = Math.floor((t - this.first) / this.widthMs);
    }
    const last = (this.dials.length - 1) * STATES;
    while (this.dials.length <= i) {
      for (let k = 0; k < STATES; k++) this.counts.push(this.counts[last + k]!);
      this.dials.push(0);
    }
    return i;
  }

  /** The next width of the ladder: counts keep each new bucket's last old one, dials add up. */
  private widen(): void {
    const minutes = this.widthMs / MINUTE;
    const next = (LADDER.find((m) => m > minutes) ?? minutes * 2) * MINUTE;
    const first = Math.floor(this.first! / next) * next;
    const counts: number[] = [];
    const dials: number[] = [];
    for (let k = 0; k < this.dials.length; k++) {
      const j = Math.floor((this.first! + k * this.widthMs - first) / next);
      if (j === dials.length) dials.push(0);
      dials[j]! += this.dials[k]!;
      for (let s = 0; s < STATES; s++) counts[j * STATES + s] = this.counts[k * STATES + s]!;
    }
    this.widthMs = next;
    this.first = first;
    this.counts = counts;
    this.dials = dials;
  }
}

/** Every batch's series, by batch id; the model hands each live batch its own (model.ts). */
export class BatchSeriesBook {
  private byBatch = new Map<string, BatchSeries>();

  constructor(private readonly clock: Pick<VirtualClock, 'now'>) {}

  /** The series of a live batch (made, and seeded from its counts, when a snapshot had none). */
  of(live: Live): BatchSeries {
    let s = this.byBatch.get(live.batch.id);
    if (!s) {
      s = new BatchSeries(live.batch.id, this.clock);
      this.byBatch.set(live.batch.id, s);
      if (live.tasks.length > 0) s.seed(live.counts);
    }
    s.live = live;
    return s;
  }

  find(batchId: string): BatchSeries | undefined {
    const s = this.byBatch.get(batchId);
    return s?.live ? s : undefined;
  }

  clear(): void {
    this.byBatch = new Map();
  }

  snapshot(): BatchSeriesState[] {
    return [...this.byBatch.values()].map((s) => s.snapshot());
  }

  /** Before the model adopts the snapshot's batches (which then find their series here). */
  restore(states: readonly BatchSeriesState[]): void {
    this.byBatch = new Map(states.map((st) => [st.batchId, BatchSeries.from(st, this.clock)]));
  }
}
