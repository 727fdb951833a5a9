// One batch as the dialer works on it: the stored row and tasks (what a snapshot holds; the
// tasks in columns, task-store.ts) plus what is derived from them and kept incrementally: counts
// per task status, one queue of pending tasks per round, the calls in progress, the texts
// waiting for the legal hours.
import { TaskQueue } from './task-queue.ts';
import { StatusIndex } from './status-index.ts';
import { TaskStore } from './task-store.ts';
import type { TaskWatch } from './series.ts';
import type { CallRow } from '../calls/schema.ts';
import { TASK_STATUSES, type BatchRow, type TaskRow, type TaskStatus } from './schema.ts';

export function newCounts(): Record<TaskStatus, number> {
  return Object.fromEntries(TASK_STATUSES.map((s) => [s, 0])) as Record<TaskStatus, number>;
}

export class Live {
  batch: BatchRow;
  /** tasks by position (creation order) */
  readonly tasks = new TaskStore();
  /** recipients per task status, kept with every change: they sum to tasks.length */
  readonly counts = newCounts();
  /** pending tasks of each round by the time they may be dialed */
  readonly queues: TaskQueue[];
  /** calls of this batch in progress */
  dialing = 0;
  /** the latest dial (pacing spaces the next from it); kept here, not in the row, so a dial copies no row */
  lastDialAt: number | null;
  /** positions of tasks whose text waits (legal hours, or the batch paused), oldest first */
  readonly texts: number[] = [];
  textHead = 0;
  /** the earliest tick job scheduled for this batch and not yet run */
  tick: number | undefined;
  /** told every status change (the batch's series over time, series.ts) */
  watch: TaskWatch | undefined;
  /** where the tasks of each status are, for pages of one status */
  private readonly index = new StatusIndex(TASK_STATUSES);

  constructor(batch: BatchRow, tasks: readonly TaskRow[]) {
    this.batch = batch;
    this.lastDialAt = batch.lastDialAt;
    this.queues = batch.rounds.map(() => new TaskQueue());
    for (const t of tasks) this.add(t);
  }

  /** Changes the task at `pos` (the fields `patch` has), keeping counts in step. */
  set(pos: number, patch: Partial<TaskRow>): void {
    if (patch.status === undefined) return this.tasks.update(pos, patch);
    const prev = this.moveTo(pos, patch.status);
    this.tasks.update(pos, patch);
    this.told(pos, prev, patch.status);
  }

  /** The dialer placed `callId` for the task: `set` with the dial's patch, without the patch (task-store.ts `dialed`). */
  dialed(pos: number, dialRound: number, callId: string): void {
    const prev = this.moveTo(pos, 'dialing');
    this.tasks.dialed(pos, dialRound, callId);
    this.told(pos, prev, 'dialing');
  }

  /** The task's call ended and the task is now `status` (pending again at `nextAttemptAt`, or done or failed): `set` with the outcome's patch, without the patch. */
  ended(pos: number, status: TaskStatus, nextAttemptAt: number | undefined, call: CallRow): void {
    const prev = this.moveTo(pos, status);
    this.tasks.ended(pos, status, nextAttemptAt, call);
    this.told(pos, prev, status);
  }

  /** Counts and the status index follow a change of the task's status; its status before. */
  private moveTo(pos: number, status: TaskStatus): TaskStatus {
    const prev = this.tasks.status(pos);
    if (prev !== status) {
      this.counts[prev]--;
      this.counts[status]++;
      this.index.move(pos, prev, status);
    }
    return prev;
  }

  /** The series is told the task as it now is (its status, round and how its last call ended). */
  private told(pos: number, prev: TaskStatus, status: TaskStatus): void {
    if (prev === status || !this.watch) return;
    const t = this.tasks;
    this.watch.moved(prev, { status: t.status(pos), dialRound: t.dialRound(pos), disposition: t.disposition(pos), answeredBy: t.answeredBy(pos) });
  }

  add(task: TaskRow): void {
    this.tasks.push(task);
    this.counts[task.status]++;
    this.index.push(task.status);
    this.watch?.moved(null, task);
  }

  /** `count` tasks of one status from the `start`-th (0-based), in batch order. */
  withStatus(status: TaskStatus, start: number, count: number): TaskRow[] {
    const out: TaskRow[] = [];
    const end = Math.min(this.counts[status], start + count);
    for (let k = start; k < end; k++) out.push(this.tasks.row(this.index.kth(status, k)!));
    return out;
  }

  /** Tasks `start` to `start + count` in batch order. */
  slice(start: number, count: number): TaskRow[] {
    const out: TaskRow[] = [];
    for (let pos = start; pos < Math.min(this.tasks.length, start + count); pos++) out.push(this.tasks.row(pos));
    return out;
  }

  /** Every task as a row (a snapshot). */
  rows(): TaskRow[] {
    return this.slice(0, this.tasks.length);
  }

  /** The stored row as a snapshot holds it. */
  row(): BatchRow {
    return this.lastDialAt === this.batch.lastDialAt ? this.batch : { ...this.batch, lastDialAt: this.lastDialAt };
  }

  pendingTexts(): number {
    return this.texts.length - this.textHead;
  }
}
