// The reported duration is the run's wall time: from the start the caller gives (the CLI passes
// the process's start) to a finished report, so nothing the user waits for is left out of it.
import { describe, expect, it } from 'vitest';
import { main } from '../cli.ts';
import { simTarget } from '../target.ts';
import { runSuite, scenarios } from './helpers.ts';

describe('the reported duration', () => {
  it('runs from the given start to after the last unit, and the start time says when that was', async () => {
    const startedAt = performance.now() - 1500; // as if loading had taken 1.5 s
    let lastUnitAt = 0;
    const report = await runSuite(simTarget(), {
      scenarios: scenarios.filter((s) => s.id.startsWith('auth/')),
      properties: [],
      startedAt,
      progress: { unit: () => void (lastUnitAt = performance.now()) },
    });
    const returnedAt = performance.now();
    expect(report.units.length).toBeGreaterThan(0);
    expect(report.ms).toBeGreaterThanOrEqual(lastUnitAt - startedAt);
    expect(report.ms).toBeLessThanOrEqual(returnedAt - startedAt);
    expect(Date.parse(report.startedAt)).toBeCloseTo(performance.timeOrigin + startedAt, -1);
  });

  it('is what the CLI summary shows, counted from the command start it is given', async () => {
    let out = '';
    const io = { out: { write: (s: string) => (out += s) }, err: { write: () => true }, env: {}, startedAt: performance.now() - 60_000 };
    expect(await main(['run', 'scenarios/auth/other-account.yaml'], io)).toBe(0);
    const seconds = Number(/Summary \(sim, seed \d+, ([\d.]+) s\)/.exec(out)?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(60);
  });
});
