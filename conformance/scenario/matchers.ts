// Expectation matching: a partial deep match of a response value, where any object whose keys
// all start with "$" is a matcher. Objects match when every expected key matches (extra keys
// are fine); arrays match element by element and must have the same length; other values must
// be equal. Matchers in one object all have to hold.
import type { StatusExpectation } from './types.ts';

export interface Mismatch {
  /** Where in the value, e.g. "body.data[0].number". */
  path: string;
  message: string;
}

const TYPES = ['string', 'number', 'integer', 'boolean', 'null', 'array', 'object', 'datetime', 'date'] as const;

/** Matcher operators and a one-line description (used by the loader and the docs test). */
export const OPERATORS: Record<string, string> = {
  $type: 'JSON type, or datetime/date: one name or a list',
  $regex: 'the string matches this regular expression',
  $oneOf: 'equals (or matches) one of the listed values',
  $absent: 'true: the field is not present at all',
  $present: 'true: the field is present (any value, null included)',
  $length: 'length of a string or array: a number or a matcher',
  $gt: 'greater than (numbers, or ISO datetimes)',
  $gte: 'greater than or equal',
  $lt: 'less than',
  $lte: 'less than or equal',
  $eq: 'deep equality, not partial',
  $ne: 'not deeply equal',
  $exact: 'an object with exactly these keys, values matched',
  $contains: 'an array with an element matching, or a string containing this text',
  $each: 'every element of the array matches',
  $filter: '{ where: m, then: m2 }: the elements matching `where`, as an array, match `then` (count or check a subset regardless of order)',
  $sorted: 'array order: { by: field path, order: asc|desc }',
  $not: 'the value does not match',
  $literal: 'match this value as data, even if its keys start with $',
};

export function isMatcher(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export function isDatetime(v: unknown): v is string {
  return typeof v === 'string' && ISO_DATETIME.test(v) && !Number.isNaN(Date.parse(v));
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'integer':
      return Number.isInteger(v);
    case 'datetime':
      return isDatetime(v);
    case 'date':
      return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
    default:
      return typeOf(v) === t;
  }
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Values are shown whole in reports (the console shortens lines); only a huge one is cut. */
const SHOW_LIMIT = 4000;

export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > SHOW_LIMIT ? `${s.slice(0, SHOW_LIMIT)}... (${s.length} characters)` : s;
}

/** Where two values first differ (depth first), so a message can name the faulty part first. */
export function firstDifference(expected: unknown, actual: unknown, path: string): { path: string; expected: unknown; actual: unknown } | undefined {
  if (deepEqual(expected, actual)) return undefined;
  if (expected && actual && typeof expected === 'object' && typeof actual === 'object' && Array.isArray(expected) === Array.isArray(actual)) {
    if (Array.isArray(expected)) {
      const a = actual as unknown[];
      for (let i = 0; i < Math.max(expected.length, a.length); i++) {
        const d = firstDifference(expected[i], a[i], child(path, i));
        if (d) return d;
      }
    } else {
      const e = expected as Record<string, unknown>;
      const a = actual as Record<string, unknown>;
      for (const k of new Set([...Object.keys(e), ...Object.keys(a)])) {
        const d = firstDifference(e[k], a[k], child(path, k));
        if (d) return d;
      }
    }
  }
  return { path, expected, actual };
}

/** "differs at body.meta.page: expected 0, got -36730516", then the whole values. */
function differs(expected: unknown, actual: unknown, path: string, what: string): string {
  const d = firstDifference(expected, actual, path);
  const where = d && d.path !== path ? `differs at ${d.path}: expected ${show(d.expected)}, got ${show(d.actual)}; ` : '';
  return `${where}expected ${what}${show(expected)}, got ${show(actual)}`;
}

/** Compares numbers, or two ISO datetimes by instant. Undefined when not comparable. */
function compare(actual: unknown, operand: unknown): number | undefined {
  if (typeof actual === 'number' && typeof operand === 'number') return actual - operand;
  if (isDatetime(actual) && isDatetime(operand)) return Date.parse(actual) - Date.parse(operand);
  return undefined;
}

function child(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return /^[A-Za-z_$][\w$-]*$/.test(key) ? (path ? `${path}.${key}` : key) : `${path}[${JSON.stringify(key)}]`;
}

/** Reads a dotted field path ("a.b", "createdAt") of a value. */
export function fieldAt(v: unknown, dotted: string): unknown {
  let cur = v;
  for (const part of dotted.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function matchOperators(m: Record<string, unknown>, actual: unknown, present: boolean, path: string): Mismatch[] {
  const out: Mismatch[] = [];
  const fail = (message: string) => out.push({ path, message });
  for (const [op, arg] of Object.entries(m)) {
    switch (op) {
      case '$absent':
        if (arg === true && present) fail(`must be absent, got ${show(actual)}`);
        if (arg === false && !present) fail('must be present');
        break;
      case '$present':
        if (arg === true && !present) fail('must be present');
        if (arg === false && present) fail(`must be absent, got ${show(actual)}`);
        break;
      case '$literal':
        if (!deepEqual(actual, arg)) fail(differs(arg, actual, path, ''));
        break;
      default:
        if (!present) {
          fail(`is absent (expected ${op} ${show(arg)})`);
          return out;
        }
        out.push(...matchOne(op, arg, actual, path));
    }
  }
  return out;
}

function matchOne(op: string, arg: unknown, actual: unknown, path: string): Mismatch[] {
  const fail = (message: string): Mismatch[] => [{ path, message }];
  switch (op) {
    case '$type': {
      const types = Array.isArray(arg) ? (arg as string[]) : [arg as string];
      return types.some((t) => hasType(actual, t)) ? [] : fail(`expected type ${types.join(' or ')}, got ${typeOf(actual)} ${show(actual)}`);
    }
    case '$regex':
      return typeof actual === 'string' && new RegExp(arg as string).test(actual) ? [] : fail(`expected to match /${arg}/, got ${show(actual)}`);
    case '$oneOf':
      return (arg as unknown[]).some((option) => match(option, actual, path).length === 0) ? [] : fail(`expected one of ${show(arg)}, got ${show(actual)}`);
    case '$length': {
      if (typeof actual !== 'string' && !Array.isArray(actual)) return fail(`expected a string or array for $length, got ${typeOf(actual)}`);
      const inner = match(arg, actual.length, `${path}.length`);
      return inner;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const c = compare(actual, arg);
      if (c === undefined) return fail(`cannot compare ${show(actual)} with ${show(arg)} (${op} needs two numbers or two ISO datetimes)`);
      const ok = op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
      const words = { $gt: 'greater than', $gte: 'at least', $lt: 'less than', $lte: 'at most' }[op];
      return ok ? [] : fail(`expected ${words} ${show(arg)}, got ${show(actual)}`);
    }
    case '$eq':
      return deepEqual(actual, arg) ? [] : fail(differs(arg, actual, path, 'exactly '));
    case '$ne':
      return deepEqual(actual, arg) ? fail(`expected anything but ${show(arg)}`) : [];
    case '$exact': {
      if (typeOf(actual) !== 'object') return fail(`expected an object, got ${show(actual)}`);
      const expected = arg as Record<string, unknown>;
      const extra = Object.keys(actual as object).filter((k) => !(k in expected));
      const out = match(expected, actual, path);
      if (extra.length) out.push({ path, message: `has fields not expected: ${extra.join(', ')}` });
      return out;
    }
    case '$contains':
      if (typeof actual === 'string') return typeof arg === 'string' && actual.includes(arg) ? [] : fail(`expected to contain ${show(arg)}, got ${show(actual)}`);
      if (!Array.isArray(actual)) return fail(`expected an array (or string) for $contains, got ${typeOf(actual)}`);
      return actual.some((el, i) => match(arg, el, child(path, i)).length === 0) ? [] : fail(`no element matches ${show(arg)} (${actual.length} elements)`);
    case '$each': {
      if (!Array.isArray(actual)) return fail(`expected an array for $each, got ${typeOf(actual)}`);
      return actual.flatMap((el, i) => match(arg, el, child(path, i)));
    }
    case '$filter': {
      if (!Array.isArray(actual)) return fail(`expected an array for $filter, got ${typeOf(actual)}`);
      const { where, then } = arg as { where: unknown; then: unknown };
      const kept = actual.filter((el, i) => match(where, el, child(path, i)).length === 0);
      const inner = match(then, kept, `${path}[where ${show(where)}]`);
      return inner;
    }
    case '$sorted': {
      if (!Array.isArray(actual)) return fail(`expected an array for $sorted, got ${typeOf(actual)}`);
      const { by, order } = arg as { by?: string; order?: 'asc' | 'desc' };
      const keys = actual.map((el) => (by ? fieldAt(el, by) : el));
      for (let i = 1; i < keys.length; i++) {
        const c = compare(keys[i], keys[i - 1]) ?? (typeof keys[i] === 'string' && typeof keys[i - 1] === 'string' ? String(keys[i]).localeCompare(String(keys[i - 1])) : undefined);
        if (c === undefined) return fail(`cannot order ${show(keys[i - 1])} and ${show(keys[i])}`);
        if (order === 'desc' ? c > 0 : c < 0) return fail(`not in ${order === 'desc' ? 'descending' : 'ascending'} order${by ? ` of ${by}` : ''} at [${i - 1}]..[${i}]: ${show(keys[i - 1])} then ${show(keys[i])}`);
      }
      return [];
    }
    case '$not':
      return match(arg, actual, path).length === 0 ? fail(`expected not to match ${show(arg)}, got ${show(actual)}`) : [];
    default:
      return fail(`unknown matcher ${op}`);
  }
}

/** Every way `actual` fails to match `expected` (empty when it matches). */
export function match(expected: unknown, actual: unknown, path = '', present = actual !== undefined): Mismatch[] {
  if (isMatcher(expected)) return matchOperators(expected, actual, present, path);
  if (!present) return [{ path, message: `is absent (expected ${show(expected)})` }];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, message: `expected an array, got ${show(actual)}` }];
    if (actual.length !== expected.length) {
      return [{ path, message: `expected ${expected.length} element(s), got ${actual.length}: ${show(actual)}` }];
    }
    return expected.flatMap((e, i) => match(e, actual[i], child(path, i)));
  }
  if (expected !== null && typeof expected === 'object') {
    if (typeOf(actual) !== 'object') return [{ path, message: `expected an object, got ${show(actual)}` }];
    const obj = actual as Record<string, unknown>;
    return Object.entries(expected).flatMap(([k, e]) => match(e, obj[k], child(path, k), Object.prototype.hasOwnProperty.call(obj, k)));
  }
  return deepEqual(expected, actual) ? [] : [{ path, message: differs(expected, actual, path, '') }];
}

/** Syntax problems of an expectation tree (unknown operators, bad operands), with JSON pointers. */
export function matcherProblems(expected: unknown, pointer: string): { pointer: string; message: string }[] {
  const out: { pointer: string; message: string }[] = [];
  const walk = (v: unknown, at: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
    if (!v || typeof v !== 'object') return;
    const keys = Object.keys(v);
    const dollar = keys.filter((k) => k.startsWith('$'));
    if (dollar.length > 0 && dollar.length < keys.length) {
      out.push({ pointer: at, message: `mixes matchers (${dollar.join(', ')}) with plain fields; put a literal "$" key under $literal` });
      return;
    }
    for (const [k, arg] of Object.entries(v as Record<string, unknown>)) {
      const here = `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!k.startsWith('$')) {
        walk(arg, here);
        continue;
      }
      if (!(k in OPERATORS)) {
        out.push({ pointer: here, message: `unknown matcher ${k} (known: ${Object.keys(OPERATORS).join(', ')})` });
        continue;
      }
      const bad = (message: string) => out.push({ pointer: here, message: `${k} ${message}` });
      switch (k) {
        case '$type': {
          const list = Array.isArray(arg) ? arg : [arg];
          if (!list.every((t) => (TYPES as readonly unknown[]).includes(t))) bad(`takes one of ${TYPES.join(', ')} (or a list)`);
          break;
        }
        case '$regex':
          if (typeof arg !== 'string') bad('takes a string');
          else {
            try {
              new RegExp(arg);
            } catch (e) {
              bad(`is not a valid regular expression: ${(e as Error).message}`);
            }
          }
          break;
        case '$absent':
        case '$present':
          if (typeof arg !== 'boolean') bad('takes true or false');
          break;
        case '$oneOf':
          if (!Array.isArray(arg) || arg.length === 0) bad('takes a non-empty list');
          else walk(arg, here);
          break;
        case '$sorted': {
          const s = arg as { by?: unknown; order?: unknown } | null;
          if (!s || typeof s !== 'object' || !['asc', 'desc'].includes(String(s.order)) || (s.by !== undefined && typeof s.by !== 'string')) {
            bad('takes { by: "field.path" (optional), order: asc | desc }');
          }
          break;
        }
        case '$exact':
          if (!arg || typeof arg !== 'object' || Array.isArray(arg)) bad('takes an object');
          else walk(arg, here);
          break;
        case '$filter': {
          const f = arg as Record<string, unknown> | null;
          if (!f || typeof f !== 'object' || Array.isArray(f) || !('where' in f) || !('then' in f) || Object.keys(f).length !== 2) bad('takes { where: matcher, then: matcher }');
          else {
            walk(f.where, `${here}/where`);
            walk(f.then, `${here}/then`);
          }
          break;
        }
        case '$literal':
          break;
        default:
          walk(arg, here);
      }
    }
  };
  walk(expected, pointer);
  return out;
}

/** A response status (or the receiver's answer) against a code, a list, a class ("2xx") or a matcher. */
export function statusMatches(expected: StatusExpectation, status: number): Mismatch[] {
  const one = (e: number | string) => (typeof e === 'number' ? e === status : Math.floor(status / 100) === Number(e[0]));
  if (typeof expected === 'number' || typeof expected === 'string') {
    return one(expected) ? [] : [{ path: 'status', message: `expected ${expected}, got ${status}` }];
  }
  if (Array.isArray(expected)) return expected.some(one) ? [] : [{ path: 'status', message: `expected one of ${expected.join(', ')}, got ${status}` }];
  return match(expected, status, 'status');
}
