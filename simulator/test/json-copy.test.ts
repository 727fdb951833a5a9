// A snapshot's copy member by member is the JSON round trip of the whole (fast-check, fixed
// seed): objects with undefined, functions and toJSON members, -0, `__proto__` keys, nested
// arrays, and an array longer than one slice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../core/json-copy.ts';

const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v) ?? 'null');
const odd = fc.oneof(fc.constant(undefined), fc.constant(() => 1), fc.constant(-0), fc.constant({ toJSON: () => 'as-json' }), fc.constant(new Date(0)));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), odd, tie('arr'), tie('obj')),
  arr: fc.array(tie('node'), { maxLength: 4 }),
  obj: fc.dictionary(fc.oneof(fc.string({ maxLength: 4 }), fc.constant('__proto__')), tie('node'), { maxKeys: 4 }),
})).node;

describe('json copy', () => {
  it('is the JSON round trip of the whole, at every depth', () => {
    fc.assert(
      fc.property(value, fc.nat(4), (v, depth) => {
        expect(JSON.stringify(jsonCopy(v, depth))).toBe(JSON.stringify(viaJson(v)));
        expect(jsonCopy(v, depth)).toEqual(viaJson(v));
      }),
    );
  });

  it('copies an array longer than a slice element by element, sharing nothing', () => {
    const rows = Array.from({ length: 25_003 }, (_, i) => ({ id: i, skip: undefined, list: [i, undefined] }));
    const state = { calls: rows, other: { a: 1 } };
    const copy = jsonCopy(state, 3);
    expect(copy).toEqual(viaJson(state));
    expect(copy.calls[25_002]).not.toBe(rows[25_002]);
    expect(Object.keys(copy.calls[7]!)).toEqual(['id', 'list']);
  });
});
