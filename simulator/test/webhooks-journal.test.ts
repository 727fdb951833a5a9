// The journal's retention: beyond JOURNAL_LIMIT rows the oldest tenth of finished ones goes,
// never work still under way.
import { describe, expect, it } from 'vitest';
import { JOURNAL_LIMIT, withinLimit } from '../peers/webhooks/journal.ts';

describe('journal retention', () => {
  it('keeps everything up to the limit', () => {
    const rows = Array.from({ length: JOURNAL_LIMIT }, (_, i) => ({ i, done: true }));
    expect(withinLimit(rows, (r) => r.done)).toBeUndefined();
  });

  it('past the limit drops the oldest tenth of the finished rows, in order, keeping pending ones', () => {
    const rows = Array.from({ length: JOURNAL_LIMIT + 1 }, (_, i) => ({ i, done: i % 2 === 1 })); // evens pending
    const kept = withinLimit(rows, (r) => r.done)!;
    expect(kept).toHaveLength(JOURNAL_LIMIT + 1 - JOURNAL_LIMIT / 10);
    const dropped = rows.filter((r) => !kept.includes(r));
    expect(dropped.every((r) => r.done)).toBe(true);
    expect(dropped[0]!.i).toBe(1);
    expect(dropped.at(-1)!.i).toBe(2 * (JOURNAL_LIMIT / 10) - 1);
    expect(kept.filter((r) => !r.done)).toHaveLength(rows.filter((r) => !r.done).length);
  });
});
