// The kit against deliberately wrong servers (wrong-server.ts, wrong-server-cases.ts): one
// recorded baseline, then each defect reruns only the units that touch its paths. And --bail.
import { describe, expect, it } from 'vitest';
import { simTarget } from '../target.ts';
import { runSuite, scenarios, SEED } from './helpers.ts';
import { wrongServer } from './wrong-server.ts';
import { wrongServerCases } from './wrong-server-cases.ts';

wrongServerCases();

describe('--bail', () => {
  it('stops after the first failed unit', async () => {
    const report = await runSuite(simTarget({ seed: SEED, middleware: wrongServer('auth-ignored') }), { simLevel: 'fail', bail: true, replayDir: 'bail' });
    expect(report.units.at(-1)!.status).toBe('failed');
    expect(report.units.filter((u) => u.status === 'failed')).toHaveLength(1);
    expect(report.units.length).toBeLessThan(scenarios.length);
  });
});
