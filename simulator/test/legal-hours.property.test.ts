// Property (fast-check, fixed seed from setup.ts): the legal calling hours (08:00 to 21:00 Korea
// time, call-batches/windows.ts) hold at the same instants as the reference's reading of the
// time of day, a remainder taken twice, over instants before and after 1970 and their edges.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalOpen } from '../resources/call-batches/windows.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The time of day in Korea by remainders (what legalOpen computed before it took the day's start by floor). */
function openByRemainder(t: number): boolean {
  const ms = (((t + 9 * HOUR) % DAY) + DAY) % DAY;
  return ms >= 8 * HOUR && ms < 21 * HOUR;
}

describe('legal calling hours', () => {
  it('open at the same instants as the remainder reading, edges included', () => {
    const day = fc.integer({ min: -100_000, max: 3_000_000 }); // about 1696 to 10183
    const edge = fc.constantFrom(-1, 0, 1, 8 * HOUR - 1, 8 * HOUR, 21 * HOUR - 1, 21 * HOUR, DAY - 1);
    const instant = fc.oneof(fc.integer({ min: -(2 ** 50), max: 2 ** 50 }), fc.tuple(day, edge).map(([d, e]) => d * DAY - 9 * HOUR + e));
    fc.assert(
      fc.property(instant, (t) => {
        expect(legalOpen(t)).toBe(openByRemainder(t));
      }),
    );
  });

  it('opens at 08:00 and closes at 21:00 Korea time', () => {
    const day = Date.parse('2026-03-02T00:00:00+09:00');
    expect([8 * HOUR - 1, 8 * HOUR, 21 * HOUR - 1, 21 * HOUR].map((ms) => legalOpen(day + ms))).toEqual([false, true, true, false]);
  });
});
