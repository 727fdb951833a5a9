// Moving the virtual clock forward when real I/O is involved (POST /_sim/clock/advance). The
// clock runs the jobs of one instant, then waits for the I/O they started (core/io.ts) before
// it runs the next instant, so outcomes that schedule more jobs (a webhook retry) are known
// before time passes them: on a manual clock the same requests always give the same sequence,
// whatever the network's speed. Without I/O in flight it is synchronous, as before.
// Concurrent advances run one after another; each computes its target when its turn comes.
import { errorCodes } from './errors.ts';
import { RUNAWAY_LIMIT, type VirtualClock } from './clock.ts';
import type { IoBarrier } from './io.ts';

export class ClockAdvancer {
  private tail: Promise<void> | undefined; // the last advance waiting on I/O, if any

  constructor(
    private readonly clock: VirtualClock,
    private readonly io: IoBarrier,
  ) {}

  /** Advances to `targetOf(now)`; returns the number of jobs run, synchronously when it can. */
  advance(targetOf: (now: number) => number): number | Promise<number> {
    if (this.tail) return this.track(this.tail.then(() => this.run(targetOf)));
    const result = this.run(targetOf);
    return result instanceof Promise ? this.track(result) : result;
  }

  private track(p: Promise<number>): Promise<number> {
    const done = p.then(
      () => undefined,
      () => undefined,
    );
    this.tail = done;
    void done.then(() => {
      if (this.tail === done) this.tail = undefined;
    });
    return p;
  }

  private run(targetOf: (now: number) => number): number | Promise<number> {
    const target = targetOf(this.clock.now());
    // A target in the past gets the clock's own refusal (400, "cannot move backwards").
    if (!(target >= this.clock.now())) this.clock.advanceTo(target);
    return this.step(target, 0);
  }

  private step(target: number, fired: number): number | Promise<number> {
    for (;;) {
      if (this.io.busy) return this.io.settled().then(() => this.step(target, fired));
      const next = this.clock.nextDue();
      if (next === undefined || next > target) {
        // The realtime driver may have moved the clock past the target meanwhile.
        if (target > this.clock.now()) fired += this.clock.advanceTo(target);
        return fired;
      }
      fired += this.clock.advanceTo(next);
      if (fired >= RUNAWAY_LIMIT) {
        throw errorCodes.CLOCK_RUNAWAY(`more than ${RUNAWAY_LIMIT} jobs fell due in one advance; a job keeps rescheduling itself`);
      }
    }
  }
}
