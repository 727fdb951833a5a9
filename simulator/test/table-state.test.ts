// core/table-state.ts: the snapshot part of table-only models, which the runtime runs (it
// validates the part first: house.test.ts). Tables under their names in the order given,
// restored in place (holders keep one object), nothing changed when a row is refused.
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Table } from '../core/store.ts';
import { tablesPart } from '../core/table-state.ts';

const RowSchema = Type.Object({ id: Type.String(), n: Type.Integer() });
const StateSchema = Type.Object({ b: Type.Array(RowSchema), a: Type.Array(RowSchema) }, { additionalProperties: false });

function holder() {
  const b = new Table<{ id: string; n: number }>([{ id: 'b1', n: 1 }]);
  const a = new Table<{ id: string; n: number }>([{ id: 'a1', n: 2 }, { id: 'a2', n: 3 }]);
  return { a, b, derived: 0 };
}
const part = tablesPart(StateSchema, (m: ReturnType<typeof holder>) => ({ b: m.b, a: m.a }), (m) => void (m.derived = m.a.size + m.b.size));

describe('tablesPart (the runtime runs it)', () => {
  it('snapshots the tables in the order given, restores in place and rebuilds what is derived', () => {
    const m = holder();
    expect(JSON.stringify(part.snapshot(m))).toBe('{"b":[{"id":"b1","n":1}],"a":[{"id":"a1","n":2},{"id":"a2","n":3}]}');
    const a = m.a;
    part.restore(m, { b: [], a: [{ id: 'x', n: 9 }] });
    expect(m.a).toBe(a);
    expect(a.get('x')).toEqual({ id: 'x', n: 9 });
    expect(a.get('a1')).toBeUndefined();
    expect(m.derived).toBe(1);
    part.clear(m);
    expect(m.a.size + m.b.size).toBe(0);
    expect(m.derived).toBe(0);
    expect(part.schema).toBe(StateSchema);
  });

  it('a duplicate id fails before any table changes', () => {
    const m = holder();
    expect(() => part.restore(m, { b: [{ id: 'z', n: 1 }], a: [{ id: 'd', n: 1 }, { id: 'd', n: 2 }] })).toThrow(/duplicate id d/);
    expect(m.b.get('b1')).toBeDefined();
    expect(m.b.get('z')).toBeUndefined();
    expect(m.derived).toBe(0);
  });

  it('holds the tables for an undo: after a restore, putting them back gives the same rows, ids, packed rows and lists', () => {
    const m = holder();
    const t = new Table<{ id: string; n: number }>([{ id: 'p', n: 1 }, { id: 'q', n: 2 }], { packWhen: (r) => r.n === 1 });
    const withPacked = { ...m, b: t };
    const before = JSON.stringify(part.snapshot(withPacked));
    const listed = t.all().map((r) => r.id); // a list read before, so a stale view would show
    const putBack = part.hold!(withPacked);
    part.restore(withPacked, { b: [{ id: 'z', n: 7 }], a: [] });
    expect(t.get('p')).toBeUndefined();
    expect(withPacked.derived).toBe(1);
    putBack();
    expect(JSON.stringify(part.snapshot(withPacked))).toBe(before);
    expect(t.all().map((r) => r.id)).toEqual(listed);
    expect(t.get('p')).toEqual({ id: 'p', n: 1 }); // the packed row, through the index put back
    expect(t.get('z')).toBeUndefined();
    expect(t.packing.rows).toBe(1);
    expect(withPacked.derived).toBe(4);
    t.insert({ id: 'r', n: 5 }); // and it keeps working as a table
    expect(t.at(2)).toEqual({ id: 'r', n: 5 });
  });

  it('inserting a repeated id throws and leaves the table as it was (packed rows too)', () => {
    const t = new Table<{ id: string; n: number }>([{ id: 'p', n: 1 }, { id: 'q', n: 2 }], { packWhen: (r) => r.n === 1 });
    expect(t.packing.rows).toBe(1);
    expect(() => t.insert({ id: 'p', n: 3 })).toThrow(/duplicate id p/);
    expect(() => t.insert({ id: 'q', n: 4 })).toThrow(/duplicate id q/);
    expect(t.size).toBe(2);
    expect(t.get('p')).toEqual({ id: 'p', n: 1 });
    expect(t.get('q')).toEqual({ id: 'q', n: 2 });
    t.insert({ id: 'r', n: 5 });
    expect(t.get('r')).toEqual({ id: 'r', n: 5 });
    expect(t.at(2)).toEqual({ id: 'r', n: 5 });
  });
});
