// Real I/O in flight to peers the user runs (webhook receivers): its results arrive in wall
// time, so the virtual clock must not move past an instant while I/O started at or before it
// is still under way, or the next step (a retry, say) would depend on how fast the network was.
// Peers register here; the clock advance (core/advance.ts) and the control plane wait on it.
// Every outcome of such I/O enters the models through `outcome()`: with durable state an
// outcome gate (outcome-gate.ts) records it, or hands it back on replay; without, the work runs.
// A state change the work or a wall-clock timer makes itself (the fake DNS counting a lookup a
// connection made, a media pacer's tick) goes through `effect()`, so that replay, which runs no
// work and arms no timer of record, makes it again at its place.
import type { LostOutcome, OutcomeGate } from './outcome-gate.ts';

export interface PendingIo {
  /** True while the peer has work started or queued. */
  readonly busy: boolean;
  /** Resolves once the peer is not busy. */
  whenIdle(): Promise<void>;
}

export class IoBarrier {
  private readonly peers: PendingIo[] = [];
  private gate: OutcomeGate | undefined;
  private readonly effects = new Map<string, (arg: string) => unknown>(); // maps an effect kind to the change it makes

  /** Durable state: from now on every outcome goes through the gate, which the barrier also waits for. */
  attach(gate: OutcomeGate): void {
    if (this.gate) throw new Error('an outcome gate is already attached');
    this.gate = gate;
    this.register(gate);
  }

  /**
   * The one way an outcome of wall-clock I/O reaches a model: `kind` names it in the journal,
   * `work` does the I/O (never run on replay), `lost` is what lands when the process died while
   * it was in flight (default: the work is done again after the restart).
   */
  outcome<T>(kind: string, work: () => Promise<T>, lost?: LostOutcome<T>): Promise<T> {
    return this.gate ? this.gate.perform(kind, work, lost) : work();
  }

  /** Local work whose result is always the same but whose end is the wall clock's (an engine loading): done again on replay, landing where the journal says. */
  localOutcome<T>(kind: string, work: () => Promise<T>): Promise<T> {
    return this.gate ? this.gate.perform(kind, work, undefined, true) : work();
  }

  /** True while a durable state dir replays its journal: wall-clock timers of record arm nothing then. */
  get replaying(): boolean {
    return this.gate?.isReplaying ?? false;
  }

  /** Declares a state change that I/O work makes itself, by kind (once, when the owner is built). */
  defineEffect(kind: string, apply: (arg: string) => unknown): void {
    if (this.effects.has(kind)) throw new Error(`effect kind declared twice: ${kind}`);
    this.effects.set(kind, apply);
  }

  /**
   * I/O work or a wall-clock timer makes the change now; with durable state it is recorded too.
   * Never call it from deterministic code: replay makes every recorded change again, and drops
   * one arriving live meanwhile (undefined: a timer of the replaying process, not of record).
   */
  effect<T>(kind: string, arg: string): T {
    if (this.gate?.isReplaying) return undefined as T;
    // Recorded first: what the change itself journals (a realtime clock catch-up inside a pacer wake) comes after it.
    this.gate?.recordEffect(kind, arg);
    return this.apply(kind, arg) as T;
  }

  /** Replay: makes a recorded change again; false when the kind is unknown. */
  replayEffect(kind: string, arg: string): boolean {
    if (!this.effects.has(kind)) return false;
    this.apply(kind, arg);
    return true;
  }

  private apply(kind: string, arg: string): unknown {
    const apply = this.effects.get(kind);
    if (!apply) throw new Error(`no effect of kind ${kind}`);
    return apply(arg);
  }

  register(peer: PendingIo): void {
    this.peers.push(peer);
  }

  get busy(): boolean {
    return this.peers.some((p) => p.busy);
  }

  /** Resolves when every peer is idle at once (work finishing may start more work). */
  async settled(): Promise<void> {
    while (this.busy) await Promise.all(this.peers.filter((p) => p.busy).map((p) => p.whenIdle()));
  }
}

/** Counts work in flight for a peer that only runs one-off requests: busy until each has landed. */
export class InFlight implements PendingIo {
  private count = 0;
  private waiters: (() => void)[] = [];

  get busy(): boolean {
    return this.count > 0;
  }

  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Hands the work's result to `land` while it still counts as in flight, so a clock advance waiting here sees what `land` did. */
  track<T>(work: Promise<T>, land: (result: T) => void): void {
    this.count++;
    void work.then(land).finally(() => {
      this.count--;
      if (this.count === 0) {
        const w = this.waiters;
        this.waiters = [];
        for (const f of w) f();
      }
    });
  }
}
