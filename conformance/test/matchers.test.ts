// Matchers: each operator both passes and fails (a matcher that cannot fail is a defect), and
// their syntax is checked when a scenario loads.
import { describe, expect, it } from 'vitest';
import { match, matcherProblems, OPERATORS } from '../scenario/matchers.ts';

const cases: { name: string; expected: unknown; pass: unknown; fail: unknown; message?: RegExp }[] = [
  { name: 'plain equality', expected: 'a', pass: 'a', fail: 'b', message: /expected "a", got "b"/ },
  { name: 'number is not string', expected: 1, pass: 1, fail: '1' },
  { name: 'partial object', expected: { a: 1 }, pass: { a: 1, b: 2 }, fail: { b: 2 }, message: /a: is absent/ },
  { name: 'arrays by element, same length', expected: [{ id: 1 }], pass: [{ id: 1, x: 0 }], fail: [{ id: 1 }, { id: 2 }], message: /expected 1 element/ },
  { name: '$type', expected: { $type: 'integer' }, pass: 3, fail: 3.5 },
  { name: '$type list', expected: { $type: ['string', 'null'] }, pass: null, fail: 0 },
  { name: '$type datetime', expected: { $type: 'datetime' }, pass: '2026-03-02T00:00:00.000Z', fail: '2026-03-02' },
  { name: '$type date', expected: { $type: 'date' }, pass: '2026-03-02', fail: '2026-13-02' },
  { name: '$regex', expected: { $regex: '^0\\d+$' }, pass: '0101', fail: '+82' },
  { name: '$oneOf', expected: { $oneOf: ['a', { $type: 'number' }] }, pass: 4, fail: 'b' },
  { name: '$length', expected: { $length: 2 }, pass: [1, 2], fail: 'abc' },
  { name: '$length with a matcher', expected: { $length: { $lte: 2 } }, pass: 'ab', fail: [1, 2, 3] },
  { name: '$gt numbers', expected: { $gt: 1 }, pass: 2, fail: 1 },
  { name: '$gte', expected: { $gte: 1 }, pass: 1, fail: 0 },
  { name: '$lt', expected: { $lt: 500 }, pass: 499, fail: 500 },
  { name: '$lte datetimes', expected: { $lte: '2026-03-02T00:00:00Z' }, pass: '2026-03-01T23:59:59.999Z', fail: '2026-03-02T09:00:01+09:00' },
  { name: '$gt not comparable', expected: { $gt: 1 }, pass: 5, fail: 'x', message: /cannot compare/ },
  { name: '$eq is not partial', expected: { $eq: { a: 1 } }, pass: { a: 1 }, fail: { a: 1, b: 2 } },
  { name: '$ne', expected: { $ne: 'x' }, pass: 'y', fail: 'x' },
  { name: '$exact', expected: { $exact: { a: { $type: 'number' } } }, pass: { a: 1 }, fail: { a: 1, b: 2 }, message: /not expected: b/ },
  { name: '$contains array', expected: { $contains: { id: 2 } }, pass: [{ id: 1 }, { id: 2 }], fail: [{ id: 1 }] },
  { name: '$contains string', expected: { $contains: 'ell' }, pass: 'hello', fail: 'help' },
  { name: '$each', expected: { $each: { active: true } }, pass: [{ active: true }], fail: [{ active: true }, { active: false }], message: /\[1\]\.active/ },
  {
    name: '$filter',
    expected: { $filter: { where: { kind: 'a' }, then: { $length: 2, $each: { ok: true } } } },
    pass: [{ kind: 'b', ok: false }, { kind: 'a', ok: true }, { kind: 'a', ok: true }],
    fail: [{ kind: 'a', ok: true }, { kind: 'b', ok: true }],
    message: /body\[where \{"kind":"a"\}\]\.length: expected 2, got 1/,
  },
  { name: '$filter then element check', expected: { $filter: { where: { kind: 'a' }, then: { $each: { ok: true } } } }, pass: [{ kind: 'b', ok: false }], fail: [{ kind: 'a', ok: false }] },
  { name: '$sorted desc', expected: { $sorted: { by: 'at', order: 'desc' } }, pass: [{ at: '2026-03-02T00:00:01Z' }, { at: '2026-03-02T00:00:00Z' }], fail: [{ at: '2026-03-02T00:00:00Z' }, { at: '2026-03-02T00:00:01Z' }] },
  { name: '$sorted asc numbers', expected: { $sorted: { order: 'asc' } }, pass: [1, 1, 2], fail: [2, 1] },
  { name: '$not', expected: { $not: { $oneOf: [200, 201] } }, pass: 404, fail: 201 },
  { name: '$literal', expected: { $literal: { $ref: 'x' } }, pass: { $ref: 'x' }, fail: { $ref: 'y' } },
];

describe('matchers', () => {
  for (const c of cases) {
    it(c.name, () => {
      expect(match(c.expected, c.pass)).toEqual([]);
      const mismatches = match(c.expected, c.fail, 'body');
      expect(mismatches.length).toBeGreaterThan(0);
      if (c.message) expect(mismatches.map((m) => `${m.path}: ${m.message}`).join('; ')).toMatch(c.message);
    });
  }

  it('every operator has a passing and a failing case above', () => {
    const tested = new Set(cases.flatMap((c) => JSON.stringify(c.expected).match(/"\$[a-zA-Z]+"/g) ?? []).map((s) => s.slice(1, -1)));
    for (const op of Object.keys(OPERATORS)) if (!['$absent', '$present'].includes(op)) expect(tested.has(op), op).toBe(true);
  });

  it('$absent and $present look at presence, not value', () => {
    expect(match({ x: { $absent: true } }, { y: 1 })).toEqual([]);
    expect(match({ x: { $absent: true } }, { x: null })).toHaveLength(1);
    expect(match({ x: { $present: true } }, { x: null })).toEqual([]);
    expect(match({ x: { $present: true } }, {})).toHaveLength(1);
    expect(match({ x: null }, {})[0]!.message).toMatch(/absent/);
  });

  it('paths in messages name the field', () => {
    const [m] = match({ data: [{ number: '010' }] }, { data: [{ number: '011' }] }, 'body');
    expect(m!.path).toBe('body.data[0].number');
  });

  it('reports syntax problems with their place', () => {
    expect(matcherProblems({ a: { $tpye: 'string' } }, '/expect/body')).toEqual([{ pointer: '/expect/body/a/$tpye', message: expect.stringMatching(/unknown matcher \$tpye/) }]);
    expect(matcherProblems({ $type: 'text' }, '')[0]!.message).toMatch(/\$type takes one of/);
    expect(matcherProblems({ $regex: '(' }, '')[0]!.message).toMatch(/not a valid regular expression/);
    expect(matcherProblems({ $sorted: { order: 'up' } }, '')[0]!.message).toMatch(/asc \| desc/);
    expect(matcherProblems({ $type: 'string', name: 'x' }, '')[0]!.message).toMatch(/mixes matchers/);
    expect(matcherProblems({ $filter: { where: { a: 1 } } }, '')[0]!.message).toMatch(/\$filter takes \{ where: matcher, then: matcher \}/);
    expect(matcherProblems({ $filter: { where: { a: { $tpye: 'x' } }, then: { $length: 1 } } }, '/b')[0]!.pointer).toBe('/b/$filter/where/a/$tpye');
    expect(matcherProblems({ data: { $each: { id: { $oneOf: ['a'] } } } }, '')).toEqual([]);
  });
});
