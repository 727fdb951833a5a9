// The Markdown report opens with the per-area table a vendor pastes into a certification
// request: clauses, covered, failed, not covered, and skipped units with their reasons.
import { describe, expect, it } from 'vitest';
import { toMarkdown } from '../report/markdown.ts';
import { runConformance } from '../run.ts';
import { simTarget } from '../target.ts';
import { catalogue, contract, scenarios, SEED } from './helpers.ts';

describe('the Markdown report', () => {
  it('opens with a per-area table, skipped units with their reason', async () => {
    const target = simTarget({ seed: SEED });
    try {
      const auth = scenarios.filter((s) => s.id.startsWith('auth/'));
      const report = await runConformance({ target, contract, clauses: catalogue, scenarios: auth, seed: SEED, readOnly: true });
      const md = toMarkdown(report, catalogue);
      expect(md.indexOf('## Per area')).toBeGreaterThan(0);
      expect(md.indexOf('## Per area')).toBeLessThan(md.indexOf('## Units'));
      const row = md.split('\n').find((l) => l.startsWith('| auth |'))!;
      const [, , clauses, covered, failed, notCovered, skipped] = row.split('|').map((c) => c.trim());
      const observable = catalogue.clauses.filter((c) => c.id.startsWith('auth.') && c.observable).length;
      expect(Number(clauses)).toBe(observable);
      expect(Number(covered)).toBeGreaterThan(0);
      expect(Number(failed)).toBe(0);
      expect(Number(covered) + Number(notCovered)).toBe(observable);
      expect(skipped).toMatch(/\d+: target lacks capability "writes"/);
      expect(md).toMatch(/\| \*\*all\*\* \| \d+ \| \d+ \| 0 \|/);
    } finally {
      await target.close();
    }
  });
});
