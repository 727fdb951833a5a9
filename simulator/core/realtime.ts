// The realtime clock driver: the one place under simulator/ that reads wall time and sets
// timers (allow-listed by the determinism test). In realtime mode virtual time follows wall
// time from the fixture's start instant, times `speed`; control-plane jumps shift it forward.
import type { VirtualClock } from './clock.ts';

export type ClockMode = { kind: 'manual' } | { kind: 'realtime'; speed: number };

export interface ClockDriver {
  readonly mode: ClockMode;
  /** Brings virtual time up to date (runs due jobs); called before each request. */
  sync(): void;
  /** Call after the clock was moved or replaced by the control plane. */
  rebase(): void;
  stop(): void;
}

export function manualDriver(): ClockDriver {
  return { mode: { kind: 'manual' }, sync() {}, rebase() {}, stop() {} };
}

/** `onMove`: hears each move the driver decides, before it runs (the durable journal records it). */
export function realtimeDriver(clock: VirtualClock, speed: number, onDefect: (e: unknown) => void, onMove?: (to: number) => void): ClockDriver {
  let wallAnchor = performance.now();
  let virtualAnchor = clock.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let armedFor: number | undefined; // virtual due time the timer is set for
  let stopped = false;

  const target = () => virtualAnchor + (performance.now() - wallAnchor) * speed;

  const rearm = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    armedFor = undefined;
    if (stopped) return;
    const due = clock.nextDue();
    if (due === undefined) return;
    // Wall time until `due`: virtual time runs `speed` times faster than the wall clock.
    const wait = Math.max(0, Math.min((due - target()) / speed, 2 ** 31 - 1));
    armedFor = due;
    timer = setTimeout(tick, wait);
    timer.unref?.();
  };

  // A job scheduled between two syncs (by a request, or by I/O finishing) may be due before
  // the timer fires; re-arm for it.
  clock.onScheduled((due) => {
    if (!stopped && (armedFor === undefined || due < armedFor)) rearm();
  });

  const sync = () => {
    const t = Math.floor(target());
    if (t > clock.now()) {
      onMove?.(t);
      clock.advanceTo(t);
    }
    rearm();
  };

  function tick() {
    try {
      sync();
    } catch (e) {
      onDefect(e);
    }
  }

  return {
    mode: { kind: 'realtime', speed },
    sync,
    rebase() {
      wallAnchor = performance.now();
      virtualAnchor = clock.now();
      rearm();
    },
    stop() {
      stopped = true;
      clock.onScheduled(undefined);
      if (timer) clearTimeout(timer);
    },
  };
}
