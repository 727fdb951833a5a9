// listCalls in columns (list-index.ts) answers what the row-by-row filter answers (fast-check,
// fixed seed): generated calls of two accounts, ended (packed) and in progress, some changed
// after a first query (the index catches up; a caller changed, so the calls by number are linked
// again), more made, some deleted (it starts over), made in clock order or not, and generated
// filters on status, numbers, instants, durations and hangup causes; newest first, every page;
// and again after a restore, from rows and from a snapshot with ended calls packed. Two examples
// pin the span of positions since/until take when calls are in clock order and a changed number.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callTable, restoredCallTable } from '../resources/calls/model.ts';
import { packedState } from '../core/packed-transfer.ts';
import { CallListIndex, type ListQuery } from '../resources/calls/list-index.ts';
import { CALL_STATUSES, type CallRow } from '../resources/calls/schema.ts';
import { endedCall } from './synthetic-calls.ts';

const NUMBERS = ['01020000001', '01020000002', '07012340001', '+12025550100'];
const START = Date.parse('2026-03-01T00:00:00.000Z');

/** The first version's filter, row by row over rows newest first. */
function reference(rows: readonly CallRow[], accountId: string, q: ListQuery): string[] {
  return [...rows]
    .reverse()
    .filter((r) => {
      if (r.accountId !== accountId) return false;
      if (q.status !== undefined && r.status !== q.status) return false;
      if (q.from && !q.from.has(r.from)) return false;
      if (q.to && !q.to.has(r.to)) return false;
      if (q.number && !q.number.has(r.from) && !q.number.has(r.to)) return false;
      const t = Date.parse(r.dateCreated);
      if (q.since !== undefined && t < q.since) return false;
      if (q.until !== undefined && t >= q.until) return false;
      if (q.minDuration !== undefined && (r.duration === null || r.duration < q.minDuration)) return false;
      if (q.maxDuration !== undefined && (r.duration === null || r.duration > q.maxDuration)) return false;
      if (q.hangupCause && (r.hangupCause === null || !q.hangupCause.has(r.hangupCause))) return false;
      return true;
    })
    .map((r) => r.id);
}

const spec = fc.record({
  account: fc.constantFrom('AC1', 'AC2'),
  inbound: fc.boolean(),
  from: fc.constantFrom(...NUMBERS),
  to: fc.constantFrom(...NUMBERS),
  minute: fc.nat(90), // a few hours: calls share instants with each other and with the bounds
  answerAfter: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  talk: fc.nat(120),
  live: fc.boolean(), // still in progress: kept as a row, not packed
});
const someOf = <T,>(arb: fc.Arbitrary<T>) => fc.option(fc.uniqueArray(arb, { minLength: 1, maxLength: 2 }).map((xs) => new Set(xs)), { nil: undefined });
const query: fc.Arbitrary<ListQuery> = fc.record(
  {
    status: fc.constantFrom(...CALL_STATUSES),
    from: someOf(fc.constantFrom(...NUMBERS, '01099999999')),
    to: someOf(fc.constantFrom(...NUMBERS)),
    number: someOf(fc.constantFrom(...NUMBERS, '+449999')),
    since: fc.nat(90).map((m) => START + m * 60_000),
    until: fc.nat(90).map((m) => START + m * 60_000),
    minDuration: fc.nat(100),
    maxDuration: fc.nat(100),
    hangupCause: someOf(fc.constantFrom('normal_clearing', 'no_answer', 'busy')),
  },
  { requiredKeys: [] },
);

describe('listCalls in columns', () => {
  it('the same calls in the same order as the row-by-row filter, after changes and deletes too', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 40 }), fc.array(query, { minLength: 1, maxLength: 4 }), fc.array(fc.nat(39), { maxLength: 3 }), fc.boolean(), fc.array(spec, { maxLength: 5 }), (specs, queries, deletes, inOrder, later) => {
        // Calls made in clock order (since/until become a span of positions) or in any order.
        if (inOrder) specs.sort((x, y) => x.minute - y.minute);
        const made = (s: (typeof specs)[number], i: number) => {
          const row = endedCall({ id: `CA${i.toString(16).padStart(32, '0')}`, accountId: s.account, direction: s.inbound ? 'inbound' : 'outbound', from: s.from, to: s.to, createdAt: START + s.minute * 60_000, answerAfter: s.answerAfter, talk: s.talk });
          return s.live ? { ...row, status: 'in-progress' as const, duration: null, hangupCause: null, dateUpdated: null } : row;
        };
        const rows = specs.map(made);
        let table = callTable(rows);
        const index = new CallListIndex<CallRow>(() => table);
        const check = (q: ListQuery, key: string) => {
          for (const account of ['AC1', 'AC2', 'AC9']) {
            const got = index.query(`${account}${key}`, account, q);
            const want = reference(table.all(), account, q);
            expect(got.length).toBe(want.length);
            expect(got.slice(0, got.length).map((r) => r.id)).toEqual(want);
            expect(got.slice(1, 3).map((r) => r.id)).toEqual(want.slice(1, 3));
          }
        };
        queries.forEach((q, k) => check(q, String(k)));
        // Calls end after the first queries (the index catches up; one also changes its caller, so
        // the calls by number are linked again), more are made, some are deleted (it starts over).
        for (let i = 0; i < table.size; i++) {
          const r = table.at(i);
          if (r.status === 'in-progress') table.replace({ ...r, status: 'completed', duration: 7, hangupCause: 'normal_clearing', dateUpdated: r.dateCreated, from: i % 2 === 0 ? NUMBERS[(NUMBERS.indexOf(r.from) + 1) % NUMBERS.length]! : r.from });
        }
        queries.forEach((q, k) => check(q, String(k)));
        later.forEach((s, i) => table.insert(made(s, specs.length + i)));
        queries.forEach((q, k) => check(q, String(k)));
        for (const d of deletes) if (d < table.size) table.delete(table.at(d).id);
        queries.forEach((q, k) => check(q, String(k)));
        table = callTable(table.all()); // a restore: another table
        queries.forEach((q, k) => check(q, String(k)));
        // A snapshot with ended calls packed, through JSON, restored (core/packed-transfer.ts).
        const { rows: kept, packed } = packedState(table);
        table = restoredCallTable(JSON.parse(JSON.stringify(packed === undefined ? { calls: kept } : { calls: kept, packed })));
        queries.forEach((q, k) => check(q, String(k)));
      }),
    );
  });

  it('calls made in clock order: every since and until on and between their instants answers as the row-by-row filter', () => {
    const minutes = [0, 1, 1, 1, 2, 5, 5, 9];
    const rows = minutes.map((m, i) => endedCall({ id: `CA${i.toString(16).padStart(32, '0')}`, accountId: 'AC1', direction: 'outbound', from: NUMBERS[i % 2]!, to: NUMBERS[2]!, createdAt: START + m * 60_000, answerAfter: 3, talk: 10 }));
    const table = callTable(rows);
    const index = new CallListIndex<CallRow>(() => table);
    for (let a = -1; a <= 10; a++) {
      for (let b = -1; b <= 10; b++) {
        const q: ListQuery = { since: START + a * 60_000, until: START + b * 60_000 };
        expect(index.query(`${a},${b}`, 'AC1', q).slice(0, 99).map((r) => r.id)).toEqual(reference(table.all(), 'AC1', q));
      }
    }
  });

  it('a call whose number changed is found under its new number only', () => {
    const rows = [0, 1, 2].map((i) => endedCall({ id: `CA${i.toString(16).padStart(32, '0')}`, accountId: 'AC1', direction: 'outbound', from: NUMBERS[0]!, to: NUMBERS[2]!, createdAt: START + i * 60_000, answerAfter: 3, talk: 10 }));
    const table = callTable(rows);
    const index = new CallListIndex<CallRow>(() => table);
    const ids = (key: string, q: ListQuery) => index.query(key, 'AC1', q).slice(0, 9).map((r) => r.id);
    expect(ids('a', { from: new Set([NUMBERS[0]!]) })).toHaveLength(3);
    table.replace({ ...table.at(1), from: NUMBERS[1]! });
    expect(ids('b', { from: new Set([NUMBERS[1]!]) })).toEqual([rows[1]!.id]);
    expect(ids('c', { number: new Set([NUMBERS[0]!]) })).toEqual([rows[2]!.id, rows[0]!.id]);
  });
});
