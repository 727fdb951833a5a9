// Property (fast-check, fixed seed from setup.ts): a table's id index (core/id-index.ts) answers
// as a Map from id to position over generated sequences of adds (fresh and repeated ids), gets of
// held and absent ids, moves and deletes, through growth and the backward shift of deletes; ids
// are drawn from a small alphabet so runs of slots, shared hashes and near misses all occur. And a
// table (core/store.ts) deleting from the middle finds every later row at its new position, and
// a table's memo of the id it last found answers as a list of rows through inserts, repeated
// gets, replaces, deletes and adopts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdIndex } from '../core/id-index.ts';
import { Table } from '../core/store.ts';

const id = fc.oneof(fc.stringMatching(/^[ab]{0,6}$/), fc.nat({ max: 400 }).map((n) => `dl_${n}`));
const op = fc.oneof(
  fc.record({ k: fc.constant('add' as const), id }),
  fc.record({ k: fc.constant('get' as const), id }),
  fc.record({ k: fc.constant('delete' as const), id }),
  fc.record({ k: fc.constant('move' as const), id }),
);

describe('IdIndex', () => {
  it('answers as a Map of id to position', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 600 }), (ops) => {
        const index = new IdIndex();
        const map = new Map<string, number>();
        // Positions are distinct (each id its own), as in a table: pos -> id is the reverse of map.
        const ids = new Map<number, string>();
        const idAt = (pos: number) => ids.get(pos)!;
        let next = 0;
        for (const o of ops) {
          if (o.k === 'add') {
            const fresh = !map.has(o.id);
            const pos = next++;
            if (fresh) ids.set(pos, o.id);
            expect(index.add(o.id, pos, idAt)).toBe(fresh);
            if (fresh) map.set(o.id, pos);
          } else if (o.k === 'get') {
            expect(index.get(o.id, idAt)).toBe(map.get(o.id) ?? -1);
          } else if (o.k === 'delete') {
            expect(index.delete(o.id, idAt)).toBe(map.has(o.id));
            if (map.has(o.id)) ids.delete(map.get(o.id)!);
            map.delete(o.id);
          } else if (map.has(o.id)) {
            const pos = next++;
            index.move(o.id, pos, idAt);
            ids.delete(map.get(o.id)!);
            ids.set(pos, o.id);
            map.set(o.id, pos);
          }
          expect(index.size).toBe(map.size);
        }
        for (const [k, pos] of map) expect(index.get(k, idAt)).toBe(pos);
      }),
    );
  });

  it('finds every row of a table after deletes in the middle, packed rows too', () => {
    const table = new Table<{ id: string; done: boolean }>([], { packWhen: (r) => r.done });
    for (let i = 0; i < 300; i++) table.insert({ id: `CA${i.toString(16).padStart(32, '0')}`, done: i % 3 !== 0 });
    for (const i of [0, 150, 7, 290]) expect(table.delete(`CA${i.toString(16).padStart(32, '0')}`)).toBe(true);
    expect(table.size).toBe(296);
    // An id that is not there at run time (a payload without it) finds nothing right after a delete.
    expect(table.get(undefined as unknown as string)).toBeUndefined();
    for (let pos = 0; pos < table.size; pos++) {
      const rowId = table.field(pos, 'id');
      expect(table.get(rowId)?.id).toBe(rowId);
    }
    expect(table.has(`CA${(150).toString(16).padStart(32, '0')}`)).toBe(false);
    expect(() => table.insert({ id: table.field(5, 'id'), done: false })).toThrow(/duplicate id/);
  });

  it('a table answers as a list of rows, the same id asked again after each change', () => {
    const rowOp = fc.record({ k: fc.constantFrom('insert', 'get', 'replace', 'delete', 'adopt'), n: fc.nat({ max: 12 }) });
    fc.assert(
      fc.property(fc.array(rowOp, { maxLength: 200 }), (ops) => {
        const table = new Table<{ id: string; v: number; done: boolean }>([], { packWhen: (r) => r.done });
        let model: { id: string; v: number; done: boolean }[] = [];
        let version = 0;
        for (const o of ops) {
          const rowId = `CA${o.n.toString(16).padStart(32, '0')}`;
          const at = model.findIndex((r) => r.id === rowId);
          if (o.k === 'insert' && at < 0) {
            const row = { id: rowId, v: version++, done: o.n % 2 === 0 };
            table.insert(row);
            model.push(row);
          } else if (o.k === 'replace' && at >= 0) {
            const row = { id: rowId, v: version++, done: o.n % 3 === 0 };
            table.replace(row);
            model[at] = row;
          } else if (o.k === 'delete') {
            expect(table.delete(rowId)).toBe(at >= 0);
            if (at >= 0) model.splice(at, 1);
          } else if (o.k === 'adopt') {
            const other = new Table<{ id: string; v: number; done: boolean }>([], { packWhen: (r) => r.done });
            for (const r of model.slice(1)) other.insert(r);
            table.adopt(other);
            model = model.slice(1);
          }
          // The id just used, then every id: each answers its row (or nothing) at its position.
          expect(table.get(rowId)).toEqual(model.find((r) => r.id === rowId));
          expect(table.has(rowId)).toBe(model.some((r) => r.id === rowId));
          expect(table.size).toBe(model.length);
          model.forEach((r, pos) => {
            expect(table.get(r.id)).toEqual(r);
            expect(table.field(pos, 'id')).toBe(r.id);
          });
        }
      }),
    );
  });
});
