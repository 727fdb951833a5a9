// Realtime clock mode: virtual time follows the wall clock times the speed, and scheduled jobs
// fire on their own (timer-driven), including jobs scheduled between requests.
import { describe, expect, it } from 'vitest';
import { createSimulator, parseClockMode } from '../index.ts';
import { runtimeOf } from '../internal.ts';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('realtime clock', () => {
  it('parses clock modes', () => {
    expect(parseClockMode('manual')).toEqual({ kind: 'manual' });
    expect(parseClockMode('realtime')).toEqual({ kind: 'realtime', speed: 1 });
    expect(parseClockMode('realtime:60')).toEqual({ kind: 'realtime', speed: 60 });
    for (const bad of ['realtime:0', 'realtime:-1', 'fast', 'realtime:x']) expect(() => parseClockMode(bad)).toThrow();
  });

  it('follows wall time times the speed, from the fixture start', async () => {
    const sim = createSimulator({ clock: 'realtime:1000' });
    try {
      const start = Date.parse((await sim.control.health()).now);
      await wait(60);
      const later = Date.parse((await sim.control.health()).now);
      expect(later - start).toBeGreaterThanOrEqual(40_000);
      expect(later - start).toBeLessThan(10 * 60_000);
    } finally {
      await sim.close();
    }
  });

  it('fires a job scheduled between requests without any further request', async () => {
    const sim = createSimulator({ clock: 'realtime:1000' });
    const fired: string[] = [];
    runtimeOf(sim).clock.on('test.ping', () => fired.push(sim.clock.now()));
    try {
      runtimeOf(sim).clock.scheduleIn('test.ping', 5_000); // 5 s virtual = 5 ms wall
      await wait(100);
      expect(fired).toHaveLength(1);
    } finally {
      await sim.close();
    }
  });

  it('a control-plane jump moves time ahead and keeps following the wall clock from there', async () => {
    const sim = createSimulator({ clock: 'realtime:1' });
    try {
      const before = Date.parse(sim.clock.now());
      const { now } = await sim.clock.advance({ seconds: 3600 });
      expect(Date.parse(now) - before).toBeGreaterThanOrEqual(3_600_000);
      await wait(30);
      const after = Date.parse((await sim.control.health()).now);
      expect(after).toBeGreaterThanOrEqual(Date.parse(now));
      expect(after - Date.parse(now)).toBeLessThan(5_000);
    } finally {
      await sim.close();
    }
  });
});
