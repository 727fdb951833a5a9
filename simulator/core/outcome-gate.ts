// The one door through which the outcome of wall-clock I/O (a webhook attempt, an MCP connection
// test or tool call, a flow's `http` request or VoiceML fetch, a media stream) enters the
// deterministic core when the simulator keeps durable state (docs/decisions.md "Durable state").
// Live, the real work runs; its outcome is written to the recorder and then handed to the waiting
// model, each in its own turn of the event loop, so the order the journal holds is the order the
// models saw. On replay nothing goes out: each outcome waits until the journal hands it back.
// Outcomes are numbered in the order the I/O started, which is deterministic (the models start
// it), so the journal's number finds the same waiting model on replay. Local work (the speech
// engine loading) is done again on replay, since its result is needed and always the same, but
// lands where the journal says, as only its timing was the wall clock's. Without a durable state
// dir no gate is attached and the I/O barrier calls the work directly (core/io.ts).
import type { PendingIo } from './io.ts';

/** How a gated piece of I/O settled: its value (plain JSON), or the message of the error it threw. */
export type Settled = { value?: unknown; error?: undefined } | { error: string };

/** Where outcomes are written before they land, and effects as they are made (the durable state dir's journal). */
export interface OutcomeRecorder {
  record(id: number, kind: string, settled: Settled): void;
  recordEffect(kind: string, arg: string): void;
}

/** The outcome to land instead of doing the I/O again when the process died while it was in flight. */
export type LostOutcome<T> = () => T;

interface Waiting {
  id: number;
  kind: string;
  work: () => Promise<unknown>;
  lost: LostOutcome<unknown> | undefined;
  /** Local work: done again on replay; its own result lands (not the journal's copy). */
  local: boolean;
  /** Local work's result once it is done. */
  done?: Settled;
  /** Replay reached this outcome's entry before the local work was done: land it when it is. */
  landWhenDone?: () => void;
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const settledOf = (p: Promise<unknown>): Promise<Settled> =>
  p.then(
    (value) => ({ value }),
    (e: unknown) => ({ error: (e as Error)?.message ?? String(e) }),
  );

export class OutcomeGate implements PendingIo {
  private replaying = true;
  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>(); // maps an outcome number to the model waiting for it
  private idleWaiters: (() => void)[] = [];

  /** `defer`: runs a function in a later turn of the event loop (setImmediate; the core sets no timers itself). */
  constructor(
    private readonly recorder: OutcomeRecorder,
    private readonly defer: (fn: () => void) => void,
  ) {}

  get busy(): boolean {
    return this.waiting.size > 0;
  }

  whenIdle(): Promise<void> {
    return this.busy ? new Promise((resolve) => this.idleWaiters.push(resolve)) : Promise.resolve();
  }

  get isReplaying(): boolean {
    return this.replaying;
  }

  /** Runs (live) or awaits (replay) one piece of I/O; the promise settles with the recorded outcome. `local`: see the header. */
  perform<T>(kind: string, work: () => Promise<T>, lost?: LostOutcome<T>, local = false): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const w: Waiting = { id, kind, work, lost, local, resolve: resolve as (v: unknown) => void, reject };
      this.waiting.set(id, w);
      // The work starts in a turn of its own: whatever it changes itself (effects) is never in the middle of a request.
      if (!this.replaying) this.defer(() => this.run(w));
      else if (local) this.defer(() => this.runLocal(w));
    });
  }

  /** A state change the work made itself (core/io.ts effect()): recorded live; replay makes it again from the record. */
  recordEffect(kind: string, arg: string): void {
    if (!this.replaying) this.recorder.recordEffect(kind, arg);
  }

  /**
   * Replay: the journal's outcome `id`. False when no I/O of that number is waiting (the journal
   * does not fit this code); a promise when it is local work not done yet (it lands once done).
   */
  land(id: number, settled: Settled): boolean | Promise<void> {
    const w = this.waiting.get(id);
    if (!w) return false;
    if (!w.local) {
      this.settle(w, settled, false);
      return true;
    }
    if (w.done) {
      this.settle(w, w.done, false);
      return true;
    }
    return new Promise<void>((resolve) => {
      w.landWhenDone = () => {
        this.settle(w, w.done!, false);
        resolve();
      };
    });
  }

  /**
   * Replay is over: I/O still waiting was in flight when the process died. Each is done again
   * for real, or lands its `lost` outcome (recorded like any other), in the order it started;
   * local work lands (recorded) once done.
   */
  goLive(): void {
    this.replaying = false;
    for (const w of [...this.waiting.values()].sort((a, b) => a.id - b.id)) {
      if (w.local) {
        if (w.done) this.defer(() => this.settle(w, w.done!, true));
      } else if (w.lost) {
        const lost = w.lost;
        this.defer(() => this.settle(w, { value: lost() }, true));
      } else {
        this.run(w);
      }
    }
  }

  /** A new journal starts numbering from 0; only while nothing waits (a compaction waits for a quiet moment). */
  restartNumbering(): void {
    if (this.busy) throw new Error('outcome numbering restarted while I/O is in flight');
    this.nextId = 0;
  }

  private run(w: Waiting): void {
    void settledOf(w.work()).then((s) => this.defer(() => this.settle(w, s, true)));
  }

  private runLocal(w: Waiting): void {
    void settledOf(w.work()).then((s) => {
      w.done = s;
      if (w.landWhenDone) w.landWhenDone();
      else if (!this.replaying) this.defer(() => this.settle(w, s, true));
    });
  }

  /** Records (live) and hands the outcome over; the model sees the recorded JSON, as on replay (local work: its own value). */
  private settle(w: Waiting, settled: Settled, record: boolean): void {
    if (!this.waiting.delete(w.id)) return;
    const plain: Settled = settled.error !== undefined ? { error: settled.error } : settled.value === undefined || w.local ? settled : { value: JSON.parse(JSON.stringify(settled.value)) };
    if (record) this.recorder.record(w.id, w.kind, w.local && plain.error === undefined ? {} : plain);
    if (plain.error !== undefined) w.reject(new Error(plain.error));
    else w.resolve(plain.value);
    if (!this.busy) for (const f of this.idleWaiters.splice(0)) f();
  }
}
