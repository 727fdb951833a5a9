// Packed rows read back exactly (fast-check, fixed seed): any JSON-like value (instants, digit
// strings, hex ids and their near misses, `__proto__` keys, -0, fractions, undefined members)
// comes back equal, with the same keys in the same order and the same JSON; a value holding
// something else is refused (kept unpacked). A table that packs its finished rows answers
// get, at, all, newestFirst, find and delete as one that does not. A shape's compiled walk
// (core/packed-fit.ts) answers, writes leaves and interns texts exactly as the tree walk.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PackedRows, type Op } from '../core/packed-rows.ts';
import { compileFit, fitsShape } from '../core/packed-fit.ts';
import { Scratch } from '../core/packed-leaves.ts';
import { countLeaves } from '../core/packed-shapes.ts';
import { Table } from '../core/store.ts';

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.integer({ min: 0, max: 4_102_444_800_000 }).map((ms) => new Date(ms).toISOString()),
  fc.constant('2026-02-30T00:00:00.000Z'), // looks like an instant, is not one
  fc.stringMatching(/^[0-9]{1,17}$/),
  fc.stringMatching(/^[^0-9]{0,9}[0-9]{1,16}$/), // dl_42, +821012345678, prefixes too long

  fc.stringMatching(/^[A-Z]{0,5}[0-9a-f]{6,33}$/),
  fc.stringMatching(/^CA[0-9a-f]{32}$/),
  fc.constantFrom('__proto__', 'constructor', ''),
);
const leaf = fc.oneof(text, fc.double(), fc.integer(), fc.nat(), fc.constant(-0), fc.boolean(), fc.constant(null));
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, leaf, tie('arr'), tie('obj')),
  arr: fc.array(tie('node'), { maxLength: 5 }),
  obj: fc.array(fc.tuple(fc.oneof(fc.string({ maxLength: 6 }), fc.constant('__proto__')), fc.oneof(tie('node'), fc.constant(undefined))), { maxLength: 6 }).map((pairs) => {
    const o: Record<string, unknown> = {};
    for (const [k, v] of pairs) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
    return o;
  }),
})).obj;

/** Keys in order and values, all the way down (Object.is on leaves: -0 is not 0). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

describe('packed rows', () => {
  it('read back equal, keys in order, the same JSON', () => {
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 20 }), (values) => {
        const packed = new PackedRows();
        const recs = values.map((v) => packed.pack(v));
        values.forEach((v, i) => {
          const back = packed.unpack<object>(recs[i]!);
          expect(same(back, v)).toBe(true);
          expect(JSON.stringify(back)).toBe(JSON.stringify(v));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a value holding a class instance or a function', () => {
    const packed = new PackedRows();
    expect(packed.pack({ at: new Date(0) })).toBeUndefined();
    expect(packed.pack({ f: () => 1 })).toBeUndefined();
    expect(packed.pack({ list: [1, new Map()] })).toBeUndefined();
    expect(packed.pack({ ok: [1, 'x'] })).toBe(0);
  });

  it('a table that packs answers as one that does not', () => {
    type R = { id: string; status: string; n: number; tags: string[] };
    const row = fc.record({ id: fc.stringMatching(/^CA[0-9a-f]{8}$/), status: fc.constantFrom('queued', 'completed', 'failed'), n: fc.integer(), tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }) });
    fc.assert(
      fc.property(fc.uniqueArray(row, { selector: (r) => r.id, maxLength: 30 }), fc.array(fc.tuple(fc.nat(29), fc.constantFrom('completed', 'queued'), fc.boolean()), { maxLength: 20 }), (rows, changes) => {
        const plain = new Table<R>(rows);
        const packing = new Table<R>(rows, { packWhen: (r) => r.status !== 'queued' });
        for (const [i, status, drop] of changes) {
          const r = plain.all()[i];
          if (!r) continue;
          if (drop) {
            plain.delete(r.id);
            packing.delete(r.id);
          } else {
            plain.replace({ ...r, status });
            packing.replace({ ...r, status });
          }
        }
        expect(packing.all()).toEqual(plain.all());
        expect(packing.newestFirst((r) => r.n > 0)).toEqual(plain.newestFirst((r) => r.n > 0));
        expect(packing.find((r) => r.status === 'failed')).toEqual(plain.find((r) => r.status === 'failed'));
        for (let i = 0; i < plain.size; i++) {
          expect(packing.at(i)).toEqual(plain.at(i));
          expect(packing.get(plain.at(i).id)).toEqual(plain.at(i));
        }
        expect(packing.packing.rows).toBe(plain.all().filter((r) => r.status !== 'queued').length);
      }),
    );
  });
});

describe('the compiled walk of a shape', () => {
  // A recording sink: the leaves written and every text interned, in order.
  const sink = () => {
    const texts: string[] = [];
    return { words: new Scratch(), doubles: new Scratch(), texts, textId: (s: string) => texts.push(s) - 1 };
  };
  const written = (s: ReturnType<typeof sink>) => ({ words: [...s.words.values.subarray(0, s.words.length)], doubles: [...s.doubles.values.subarray(0, s.doubles.length)], texts: s.texts });

  it('answers, writes and interns as the tree walk, for rows that fit the shape and rows that do not', () => {
    fc.assert(
      fc.property(value, fc.array(value, { maxLength: 3 }), leaf, (model, unlike, other) => {
        const store = new PackedRows();
        if (store.pack(model) === undefined) return;
        const shape = store.exportRecords([0]).shapes[0] as Op;
        const tree = sink();
        const compiled = sink();
        // Each walk on its own copy of the shape: a text leaf's memo lives on the shape.
        const fit = compileFit(structuredClone(shape), compiled, countLeaves(shape, { words: 0, doubles: 0 }));
        // The same rows in the same order through each: the text memos carry from row to row.
        // Rows that differ from the model late: one member changed, one added, the last one dropped.
        const keys = Object.keys(model);
        const near = keys.flatMap((k) => [{ ...model, [k]: other }, { ...model, [k]: { ...model, [k]: other } }]);
        const more = { ...model, zz: other };
        const fewer = Object.fromEntries(Object.entries(model).slice(0, -1));
        for (const v of [model, ...near, more, fewer, ...unlike, model]) {
          expect(fit(v)).toBe(fitsShape(shape, v, tree));
          expect(written(compiled)).toEqual(written(tree));
        }
      }),
      { numRuns: 300 },
    );
  });
});
