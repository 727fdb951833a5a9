// The addMonths filter: calendar months in UTC with the day clamped to the month's last, so a
// scenario can name a billing cycle's end whatever month a shared target's clock has reached.
import { describe, expect, it } from 'vitest';
import { filterArgProblem, Scope, SeededRandom } from '../scenario/interpolate.ts';

const scope = (t: string) => {
  const s = new Scope(new SeededRandom(1));
  s.set('t', t);
  return s;
};

describe('addMonths', () => {
  it('moves by calendar months, keeps the time of day, clamps a day the month lacks', () => {
    expect(scope('2026-03-02T03:56:49.000Z').resolve('{{ t | addMonths(1) }}')).toBe('2026-04-02T03:56:49.000Z');
    expect(scope('2026-01-31T10:00:00.000Z').resolve('{{ t | addMonths(1) }}')).toBe('2026-02-28T10:00:00.000Z');
    expect(scope('2028-01-31T10:00:00.000Z').resolve('{{ t | addMonths(1) }}')).toBe('2028-02-29T10:00:00.000Z');
    expect(scope('2026-11-30T00:00:00.000Z').resolve('{{ t | addMonths(3) }}')).toBe('2027-02-28T00:00:00.000Z');
    expect(scope('2026-03-31T00:00:00.000Z').resolve('{{ t | addMonths(-1) }}')).toBe('2026-02-28T00:00:00.000Z');
    expect(scope('2026-03-02T00:00:00Z').resolve('{{ t | addMonths(1) | day }}')).toBe('2026-04-02');
  });

  it('refuses a count that is not a whole number, and a value that is not a datetime', () => {
    expect(filterArgProblem('addMonths', '1.5')).toMatch(/whole number of months/);
    expect(filterArgProblem('addMonths', undefined)).toMatch(/whole number of months/);
    expect(filterArgProblem('addMonths', '12')).toBeUndefined();
    expect(() => scope('not a date').resolve('{{ t | addMonths(1) }}')).toThrow(/addMonths needs a datetime/);
  });
});
