// Frame pacing of the open media streams on the wall clock (the one place of the Agent SDK family
// that reads wall time and sets timers: allow-listed by the determinism test). Every open stream
// plays its frames on one shared grid, a frame per `frameMs` of wall time (20 ms, or 20 / speed
// under `--clock realtime:<speed>`), so all calls advance together and one timer serves them all.
// A late wake (a busy event loop) plays the missed frames at once, up to MAX_CATCH_UP; beyond that
// the backlog is dropped and the streams' media clocks fall behind wall time instead of bursting.
// Pacing decides when frames go out, never what they hold: the streams' contents follow their
// media positions (engine.ts), so a late timer changes timing on the wire, not the records.
// After each grid tick `onTicks(1)` reports it (the manual clock follows open streams:
// docs/decisions.md "Agent SDK", virtual time during media). What a wake plays (how many grid
// ticks fell due) is decided by the wall clock, so it goes through `gate` (the I/O barrier's
// effect, so a durable state dir journals it and its replay plays it again: docs/decisions.md
// "Durable state"); while such a replay runs no timer is armed.

/** Missed frames played in one wake at most (1 s of audio); older ones are dropped. */
export const MAX_CATCH_UP = 50;
/** Grid points a new stream waits before its first frame (80 to 100 ms: a media path's set-up). */
export const LEAD_IN = 5;

/** How wakes reach the streams: `wake(due)` plays `due` grid ticks now, through whatever records it; `replaying()`: arm no timer. */
export interface PacerGate {
  wake(due: number): void;
  replaying(): boolean;
}

export interface PacedStream {
  /** Plays one frame each way. */
  tick(): void;
}

export interface PacerStats {
  wakes: number;
  /** Grid ticks played (each plays every open stream once). */
  ticks: number;
  /** Grid ticks dropped because a wake came more than MAX_CATCH_UP frames late. */
  dropped: number;
  /** Wall ms each wake came after its grid point (observational: the bench reads it). */
  lateness: number[];
}

export class MediaPacer {
  readonly stats: PacerStats = { wakes: 0, ticks: 0, dropped: 0, lateness: [] };
  /** Keep at most this many lateness samples (the bench turns it up). */
  latenessSamples = 0;
  private readonly streams = new Set<PacedStream>();
  /** Streams waiting for their first grid tick: the tick count after which they join. */
  private readonly joining = new Map<PacedStream, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private anchor = 0;
  private done = 0;
  private frameMs = 20;

  /** Set by the owner when wakes must go through a recorder; by default a wake plays at once. */
  gate: PacerGate = { wake: (due) => this.play(due), replaying: () => false };

  constructor(
    /** Wall ms per frame (read when a grid starts: the clock mode may be set after construction). */
    private readonly frameMsOf: number | (() => number),
    private readonly onTicks: (ticks: number) => void,
    private readonly onDefect: (e: unknown) => void,
  ) {}

  get size(): number {
    return this.streams.size + this.joining.size;
  }

  /**
   * Starts pacing a stream. Its first frame plays LEAD_IN grid points after the next one (80 to
   * 100 ms away): an agent that sends its audio as soon as its socket opens, or answers `start` at
   * once, has it queued before the first frame even on a busy machine.
   */
  add(stream: PacedStream): void {
    if (this.timer === undefined && !this.gate.replaying()) {
      this.frameMs = typeof this.frameMsOf === 'number' ? this.frameMsOf : this.frameMsOf();
      this.anchor = performance.now();
      this.done = 0;
      this.arm();
    }
    this.joining.set(stream, this.done + LEAD_IN);
  }

  remove(stream: PacedStream): void {
    this.streams.delete(stream);
    this.joining.delete(stream);
    if (this.size === 0) this.halt();
  }

  stop(): void {
    this.streams.clear();
    this.joining.clear();
    this.halt();
  }

  private halt(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const next = this.anchor + (this.done + 1) * this.frameMs;
    this.timer = setTimeout(() => this.wake(), Math.max(0, next - performance.now()));
  }

  private wake(): void {
    this.timer = undefined;
    const now = performance.now();
    const due = Math.floor((now - this.anchor) / this.frameMs) - this.done;
    this.stats.wakes++;
    if (this.latenessSamples > this.stats.lateness.length) this.stats.lateness.push(now - (this.anchor + (this.done + 1) * this.frameMs));
    this.gate.wake(due);
    if (this.size > 0) this.arm();
    else this.halt();
  }

  /** Plays the grid ticks a wake found due (at most MAX_CATCH_UP; the rest are dropped). */
  play(due: number): void {
    const play = Math.min(Math.max(due, 0), MAX_CATCH_UP);
    this.stats.dropped += Math.max(due, 0) - play;
    this.done += Math.max(due, 0);
    // Tick by tick, the clock following each: a job due at a frame's end runs before the next frame.
    for (let i = 0; i < play && this.size > 0; i++) {
      const tick = this.done - play + i + 1; // the grid tick being played (from 1)
      for (const [s, after] of this.joining) {
        if (tick <= after) continue;
        this.joining.delete(s);
        this.streams.add(s);
      }
      if (this.streams.size === 0) continue;
      for (const s of [...this.streams]) {
        try {
          s.tick();
        } catch (e) {
          this.onDefect(e);
          this.streams.delete(s);
        }
      }
      this.stats.ticks++;
      try {
        this.onTicks(1);
      } catch (e) {
        this.onDefect(e);
      }
    }
  }
}
