// Columns of a million rows read back exactly what went in (fast-check, fixed seed): packed ids
// and the ids outside their format, digit strings and numbers with other characters, small code
// sets with null, the set of ids handed out, and a batch's tasks (task-store.ts) including
// Variables named `__proto__`, odd `seq` values from a hand-written snapshot and later changes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CodeColumn, DigitsColumn, IdColumn, IdSet } from '../core/text-columns.ts';
import { digitsText, digitsValue, hexWord } from '../core/packed-leaves.ts';
import { TaskStore } from '../resources/call-batches/task-store.ts';
import { TASK_STATUSES, type TaskRow } from '../resources/call-batches/schema.ts';

const FORMAT = { prefix: 'CT', hex: 24 } as const;
const hexId = fc.stringMatching(/^CT[0-9a-f]{24}$/);
const anyId = fc.oneof(hexId, fc.string({ maxLength: 30 }), fc.stringMatching(/^CT[0-9A-F]{24}$/), fc.stringMatching(/^CT[0-9a-f]{23}$/));
const phone = fc.oneof(fc.stringMatching(/^0[0-9]{9,10}$/), fc.stringMatching(/^[0-9]{1,15}$/), fc.string({ maxLength: 20 }), fc.stringMatching(/^[0-9]{16,18}$/));

describe('text columns', () => {
  it('ids, digits and codes read back as written, in any order of writes', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(200), fc.option(anyId, { nil: null }), phone, fc.option(fc.constantFrom('busy', 'no-answer', 'x'), { nil: null })), { maxLength: 300 }), (writes) => {
        const ids = new IdColumn(FORMAT);
        const digits = new DigitsColumn();
        const codes = new CodeColumn();
        const expected = new Map<number, [string | null, string, string | null]>();
        for (const [pos, id, p, code] of writes) {
          ids.set(pos, id);
          digits.set(pos, p);
          codes.set(pos, code);
          expected.set(pos, [id, p, code]);
        }
        for (const [pos, [id, p, code]] of expected) expect([ids.get(pos), digits.get(pos), codes.get(pos)]).toEqual([id, p, code]);
      }),
    );
  });

  it('a digit string read back from its number is the digits, at every length and at the ends of the low part', () => {
    const digits = fc.oneof(
      fc.stringMatching(/^[0-9]{1,15}$/),
      fc.tuple(fc.stringMatching(/^[0-9]{1,7}$/), fc.constantFrom('00000000', '00000001', '99999999', '99999998', '50000000')).map(([a, b]) => a + b),
    );
    fc.assert(
      fc.property(digits, (d) => {
        const value = digitsValue(d, 0);
        expect(digitsText(value)).toBe(d);
        expect(digitsText(value)).toBe(String(value).slice(1));
      }),
    );
    for (const d of ['9'.repeat(15), '0'.repeat(15), '1', '0', '123456789', '000000000']) expect(digitsText(digitsValue(d, 0))).toBe(d);
  });

  it('a word of hex digits is read as the digits by ranges read it, and any other text is refused', () => {
    /** Each digit by its range, the word as a sum (what hexWord did before its table). */
    const byRanges = (s: string, at: number): number => {
      let n = 0;
      for (let i = at; i < at + 8; i++) {
        const c = s.charCodeAt(i);
        const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
        if (v < 0) return -1;
        n = n * 16 + v;
      }
      return n;
    };
    const text = fc.oneof(fc.stringMatching(/^[0-9a-f]{6,12}$/), fc.stringMatching(/^[0-9a-fA-G/:`]{6,12}$/), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 10 }));
    fc.assert(
      fc.property(text, fc.integer({ min: -1, max: 6 }), (s, at) => {
        expect(hexWord(s, at)).toBe(byRanges(s, at));
      }),
    );
    expect(hexWord('ffffffff', 0)).toBe(0xffffffff);
  });

  it('the id set holds exactly the ids added, packed or not', () => {
    fc.assert(
      fc.property(fc.uniqueArray(anyId, { maxLength: 3000 }), fc.array(anyId, { maxLength: 50 }), (added, probes) => {
        const set = new IdSet(FORMAT);
        const half = added.slice(0, added.length >> 1);
        for (const id of half) set.add(id);
        for (const id of [...added, ...probes]) expect(set.has(id), id).toBe(half.includes(id));
      }),
      { numRuns: 30 },
    );
  });
});

const taskArb: fc.Arbitrary<TaskRow> = fc.record({
  id: anyId,
  seq: fc.nat(5),
  to: phone,
  vars: fc.dictionary(fc.constantFrom('name', 'day', '__proto__', 'x\u0000y', 'x', 'y'), fc.string({ maxLength: 6 }), { maxKeys: 4 }),
  status: fc.constantFrom(...TASK_STATUSES),
  attempt: fc.nat(5),
  dialRound: fc.nat(5),
  nextAttemptAt: fc.option(fc.integer({ min: 0, max: 2e12 }), { nil: null }),
  callId: fc.option(fc.oneof(fc.stringMatching(/^CA[0-9a-f]{32}$/), fc.string({ maxLength: 8 })), { nil: null }),
  disposition: fc.option(fc.constantFrom('completed', 'no-answer', 'busy'), { nil: null }),
  answeredBy: fc.option(fc.constantFrom('human', 'machine'), { nil: null }),
  result: fc.option(fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }), { nil: null }),
  lastError: fc.option(fc.constantFrom('recipient_blocked', 'NO_SUBSCRIPTION'), { nil: null }),
  messageKind: fc.option(fc.constantFrom('first', 'final'), { nil: null }),
  messageStatus: fc.option(fc.constantFrom('pending', 'queued', 'failed', 'skipped'), { nil: null }),
  messageDeliveryStatus: fc.option(fc.constantFrom('queued', 'sent', 'failed'), { nil: null }),
  messageError: fc.option(fc.constantFrom('quota_exceeded'), { nil: null }),
  messageId: fc.option(fc.string({ minLength: 1, maxLength: 10 }), { nil: null }),
  messageDueAt: fc.option(fc.integer({ min: 0, max: 2e12 }), { nil: null }),
});

describe('a batch\'s tasks in columns', () => {
  it('read back as the rows that went in, and as changed after', () => {
    fc.assert(
      fc.property(fc.array(taskArb, { maxLength: 40 }), fc.array(fc.tuple(fc.nat(39), taskArb), { maxLength: 20 }), (tasks, changes) => {
        const store = new TaskStore();
        const rows = tasks.map((t) => ({ ...t }));
        rows.forEach((t) => store.push(t));
        for (const [i, c] of changes) {
          if (i >= rows.length) continue;
          const { id: _i, seq: _s, to: _t, vars: _v, ...patch } = c;
          store.update(i, patch);
          rows[i] = { ...rows[i]!, ...patch };
        }
        rows.forEach((t, pos) => {
          const back = store.row(pos);
          expect(JSON.stringify(back)).toBe(JSON.stringify(t));
          expect(back).toEqual(t);
          expect(Object.keys(store.vars(pos))).toEqual(Object.keys(t.vars));
        });
      }),
    );
  });
});
