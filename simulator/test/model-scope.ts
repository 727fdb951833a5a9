// A family's model scope for unit tests of a model alone: the kernel's parts over a given clock
// and random (jobs are the clock's, events are dropped), plus the ports the test passes. The
// runtime builds the real one (runtime.ts scopeFor); this one skips the declaration checks.
import { IoBarrier } from '../core/io.ts';
import { References } from '../core/refs.ts';
import type { VirtualClock } from '../core/clock.ts';
import type { SeededRandom } from '../core/random.ts';

export function modelScope<P extends object>(clock: VirtualClock, random: SeededRandom, ports: P, refs = new References()) {
  return {
    clock,
    random,
    refs,
    io: new IoBarrier(),
    listed: { events: [], carrierOwners: [] },
    events: { emit: () => undefined, on: () => () => undefined },
    jobs: {
      on: (kind: string, handler: (payload: never) => void) => clock.on(kind, handler as never),
      schedule: (kind: string, due: number, payload: unknown) => clock.schedule(kind, due, payload),
      cancel: (id: number) => clock.cancel(id),
    },
    ...ports,
  } as const;
}

/** A clock's jobs as a scope's `jobs` (unit tests of a model built with its job handlers). */
export function clockJobs(clock: VirtualClock) {
  return {
    on: (kind: string, handler: (payload: never) => void) => clock.on(kind, handler as never),
    schedule: (kind: string, due: number, payload: unknown) => clock.schedule(kind, due, payload),
  } as never;
}
