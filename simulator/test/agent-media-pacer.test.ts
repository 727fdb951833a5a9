// The media pacer: every open stream plays on one shared wall-clock grid, the same number of
// frames each after a lead-in; each grid tick is reported (the manual clock follows it); a stream that throws is
// a defect and leaves the grid; nothing ticks once the last stream is gone; control sockets are
// pinged and the silent ones closed. Wall-clock bounds are
// loose on purpose (a shared machine): the exact counts are the invariants.
import { describe, expect, it, vi } from 'vitest';
import { LEAD_IN, MediaPacer, type PacedStream } from '../resources/agent-sdk/media/pacer.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('media pacer', () => {
  it('ticks every stream on the same grid and reports each tick', async () => {
    let reported = 0;
    const p = new MediaPacer(5, (n) => (reported += n), () => {});
    const counts = [0, 0];
    const a: PacedStream = { tick: () => counts[0]!++ };
    const b: PacedStream = { tick: () => counts[1]!++ };
    p.add(a);
    await wait(60);
    p.add(b);
    const bStartedAt = counts[0]!;
    await wait(60);
    p.remove(a);
    p.remove(b);
    const after = [...counts];
    await wait(30);
    expect(counts).toEqual(after); // nothing ticks once no stream is open
    expect(counts[0]).toBeGreaterThanOrEqual(5);
    expect(counts[0]).toBe(bStartedAt + LEAD_IN + counts[1]!); // b skipped its lead-in's grid points, then ticked on every one
    expect(reported).toBe(counts[0]);
    expect(p.stats.ticks).toBe(counts[0]);
    expect(p.size).toBe(0);
  });

  it('catches up late frames up to the limit and drops the rest', async () => {
    const p = new MediaPacer(1, () => {}, () => {});
    let n = 0;
    p.add({ tick: () => n++ });
    // Block the event loop for 120 frames' worth: the next wake plays at most 50 at once.
    const until = performance.now() + 120;
    while (performance.now() < until);
    await wait(5);
    p.stop();
    expect(p.stats.dropped).toBeGreaterThan(0);
    expect(n + p.stats.dropped).toBeGreaterThanOrEqual(120);
  });

  it('a stream that throws is reported and leaves the grid; the others go on', async () => {
    const defects: unknown[] = [];
    const p = new MediaPacer(5, () => {}, (e) => defects.push(e));
    let good = 0;
    p.add({ tick: () => { throw new Error('bad stream'); } });
    p.add({ tick: () => good++ });
    await wait(40);
    p.stop();
    expect(defects).toHaveLength(1);
    expect(good).toBeGreaterThan(1);
  });
});

describe('control socket heartbeat', () => {
  // On fake timers: the beat count is the invariant, and a busy machine must not change it.
  it('pings every interval and closes a socket that answered none of its last two pings', async () => {
    const { Heartbeat } = await import('../resources/agent-sdk/heartbeat.ts');
    vi.useFakeTimers();
    try {
      const hb = new Heartbeat(10);
      const log: string[] = [];
      const alive = { ping: () => { log.push('ping alive'); hb.pong(alive); }, dead: () => log.push('dead alive') };
      const silent = { ping: () => log.push('ping silent'), dead: () => log.push('dead silent') };
      hb.add(alive);
      hb.add(silent);
      vi.advanceTimersByTime(25);
      expect(log).toEqual(['ping alive', 'ping silent', 'ping alive', 'ping silent']);
      vi.advanceTimersByTime(10);
      hb.stop();
      expect(log.slice(4)).toEqual(['ping alive', 'dead silent']);
      vi.advanceTimersByTime(50);
      expect(log).toHaveLength(6); // stopped: no beat after stop()
    } finally {
      vi.useRealTimers();
    }
  });
});
