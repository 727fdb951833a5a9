// The body depth check (core/body-depth.ts) finds the same first too-deep value, with the same
// path, as the plain walk it replaced (every member stacked with its path written), on any
// JSON value and limit (fast-check, fixed seed), and names paths as documented.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tooDeepAt } from '../core/body-depth.ts';

/** The plain walk: every member stacked with its path, in the same order. */
function plainTooDeepAt(value: unknown, limit: number): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 1, path: '' }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (!next.value || typeof next.value !== 'object') continue;
    if (next.depth > limit) return next.path;
    const entries = Array.isArray(next.value) ? next.value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(next.value).map(([k, v]) => [next.path ? `.${k}` : k, v] as const);
    for (const [key, v] of entries) stack.push({ value: v, depth: next.depth + 1, path: next.path + key });
  }
  return undefined;
}

describe('tooDeepAt', () => {
  it('names the first value over the limit as the plain walk does (property)', () => {
    const json = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'medium' }, fc.constantFrom(null, 0, 1, '', 'x', true, false), tie('arr'), tie('obj')),
      arr: fc.array(tie('node'), { maxLength: 4 }),
      obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 3 }), fc.constantFrom('', 'a.b', '0')), tie('node'), { maxKeys: 4 }),
    })).node;
    fc.assert(
      fc.property(json, fc.integer({ min: 0, max: 6 }), (value, limit) => {
        expect(tooDeepAt(value, limit)).toBe(plainTooDeepAt(value, limit));
      }),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it('writes paths with indexes and dotted members, no dot after an empty path', () => {
    expect(tooDeepAt({ a: [{ b: [[]] }] }, 3)).toBe('a[0].b');
    expect(tooDeepAt([[1], [[2]]], 2)).toBe('[1][0]');
    expect(tooDeepAt({ '': { x: {} } }, 2)).toBe('x'); // the empty member's path is empty
    expect(tooDeepAt({}, 0)).toBe('');
    expect(tooDeepAt({ a: 1, b: 'x' }, 1)).toBeUndefined();
    expect(tooDeepAt('text', 0)).toBeUndefined();
  });
});
