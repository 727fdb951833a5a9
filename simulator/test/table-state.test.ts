// core/table-state.ts: the snapshot/restore/clear of table-only models, and the part the runtime runs.
import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Table } from '../core/store.ts';
import { TableState, tablesPart } from '../core/table-state.ts';
import { ApiError } from '../core/errors.ts';

const RowSchema = Type.Object({ id: Type.String(), n: Type.Integer() });
const StateSchema = Type.Object({ b: Type.Array(RowSchema), a: Type.Array(RowSchema) }, { additionalProperties: false });

function model() {
  const b = new Table<{ id: string; n: number }>([{ id: 'b1', n: 1 }]);
  const a = new Table<{ id: string; n: number }>([{ id: 'a1', n: 2 }, { id: 'a2', n: 3 }]);
  return { a, b, state: new TableState(StateSchema, 'demo', { b, a }) };
}

describe('TableState', () => {
  it('snapshots each table under its name, in the order given', () => {
    const { state } = model();
    expect(JSON.stringify(state.snapshot())).toBe('{"b":[{"id":"b1","n":1}],"a":[{"id":"a1","n":2},{"id":"a2","n":3}]}');
  });

  it('restores into the same table objects and clears them', () => {
    const { a, b, state } = model();
    state.restore({ b: [], a: [{ id: 'x', n: 9 }] });
    expect(b.size).toBe(0);
    expect(a.get('x')).toEqual({ id: 'x', n: 9 });
    expect(a.get('a1')).toBeUndefined();
    state.clear();
    expect(a.size + b.size).toBe(0);
  });

  it('refuses a state that does not match the schema and changes nothing', () => {
    const { a, state } = model();
    const before = JSON.stringify(state.snapshot());
    let err: unknown;
    try {
      state.restore({ b: [], a: [{ id: 'x', n: 'nine' }] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('VALIDATION');
    expect(JSON.stringify(state.snapshot())).toBe(before);
    expect(a.size).toBe(2);
  });

  it('a duplicate id fails before any table changes', () => {
    const { b, state } = model();
    expect(() => state.restore({ b: [{ id: 'z', n: 1 }], a: [{ id: 'd', n: 1 }, { id: 'd', n: 2 }] })).toThrow(/duplicate id d/);
    expect(b.get('b1')).toBeDefined();
  });
});

describe('tablesPart (the runtime runs it)', () => {
  const holder = () => {
    const m = model();
    return { ...m, derived: 0 };
  };
  const part = tablesPart(StateSchema, (m: ReturnType<typeof holder>) => ({ b: m.b, a: m.a }), (m) => void (m.derived = m.a.size + m.b.size));

  it('snapshots the tables in the order given, restores in place and rebuilds what is derived', () => {
    const m = holder();
    expect(JSON.stringify(part.snapshot(m))).toBe('{"b":[{"id":"b1","n":1}],"a":[{"id":"a1","n":2},{"id":"a2","n":3}]}');
    const a = m.a;
    part.restore(m, { b: [], a: [{ id: 'x', n: 9 }] });
    expect(m.a).toBe(a);
    expect(a.get('x')).toEqual({ id: 'x', n: 9 });
    expect(m.derived).toBe(1);
    part.clear(m);
    expect(m.a.size + m.b.size).toBe(0);
    expect(m.derived).toBe(0);
    expect(part.schema).toBe(StateSchema);
  });
});
