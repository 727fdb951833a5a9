// {{ interpolation }} in scenario values. A string that is exactly one "{{ expr }}" becomes the
// value itself (numbers stay numbers, objects stay objects); inside longer text the value is
// written out. expr = name(.field | [index])* ( | filter )*. Names are saved values, vars,
// accounts (main, alt, or created ones), `seed`, and generators under `fresh.`.

/** A name that cannot be resolved on this target or in this run, with the reason. */
export class Unavailable {
  constructor(readonly reason: string) {}
}

export class UnresolvedError extends Error {
  constructor(
    readonly expression: string,
    readonly reason: string,
  ) {
    super(`{{ ${expression} }}: ${reason}`);
  }
}

/** A small seeded generator (mulberry32) for fresh values: same seed, same values. */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 0x9e3779b9;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  digits(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += String(this.int(0, 9));
    return s;
  }
}

export function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** Generators: each use gives a new value. */
const GENERATORS: Record<string, (r: SeededRandom) => unknown> = {
  // A mobile number in domestic notation, from a block unlikely to hold real subscribers' data.
  mobile: (r) => `0109${r.digits(7)}`,
  // A Seoul landline (02 + 8 digits).
  seoul: (r) => `02${r.int(2, 9)}${r.digits(7)}`,
  hex: (r) => Array.from({ length: 16 }, () => r.int(0, 15).toString(16)).join(''),
  int: (r) => r.int(1, 1_000_000),
};

export const GENERATOR_NAMES = Object.keys(GENERATORS);

/** Ways to respell a value; phone filters take a domestic number. */
const FILTERS: Record<string, (v: unknown, arg?: string) => unknown> = {
  // 01012345678 -> +82 10-1234-5678 ; 0212345678 -> +82 2-1234-5678
  intl: (v) => {
    const d = String(v);
    const national = d.replace(/^0/, '');
    return `+82 ${hyphenate(national, true)}`;
  },
  // 01012345678 -> 010-1234-5678
  hyphens: (v) => hyphenate(String(v), false),
  // 01012345678 -> 010 1234 5678
  spaced: (v) => hyphenate(String(v), false).replace(/-/g, ' '),
  // 01012345678 -> +821012345678
  e164: (v) => `+82${String(v).replace(/^0/, '')}`,
  json: (v) => JSON.stringify(v),
  string: (v) => String(v),
  number: (v) => Number(v),
  urlencode: (v) => encodeURIComponent(String(v)),
  upper: (v) => String(v).toUpperCase(),
  lower: (v) => String(v).toLowerCase(),
  length: (v) => (Array.isArray(v) || typeof v === 'string' ? v.length : undefined),
  // pluck(id): [{id: a}, {id: b}] -> [a, b]
  pluck: (v, field) => (Array.isArray(v) ? v.map((x) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[field ?? 'id'] : undefined)) : undefined),
  // addSeconds(86400): "2026-03-02T00:00:00.000Z" -> "2026-03-03T00:00:00.000Z" (ranges around a saved instant)
  addSeconds: (v, arg) => {
    const problem = filterArgProblem('addSeconds', arg);
    if (problem) throw new Error(problem);
    const ms = Date.parse(String(v));
    if (Number.isNaN(ms)) throw new Error(`addSeconds needs a datetime, got "${String(v)}"`);
    return new Date(ms + Number(arg) * 1000).toISOString();
  },
  // addMonths(1): "2026-01-31T03:00:00.000Z" -> "2026-02-28T03:00:00.000Z" (calendar months in UTC,
  // a day the month lacks clamped to its last: a billing cycle's end whatever month the clock is in)
  addMonths: (v, arg) => {
    const problem = filterArgProblem('addMonths', arg);
    if (problem) throw new Error(problem);
    const d = new Date(Date.parse(String(v)));
    if (Number.isNaN(d.getTime())) throw new Error(`addMonths needs a datetime, got "${String(v)}"`);
    const month = d.getUTCMonth() + Number(arg);
    const lastDay = new Date(Date.UTC(d.getUTCFullYear(), month + 1, 0)).getUTCDate();
    return new Date(Date.UTC(d.getUTCFullYear(), month, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds())).toISOString();
  },
  // day: "2026-03-02T15:00:00Z" -> "2026-03-02" (the UTC date of an instant)
  day: (v) => {
    const ms = Date.parse(String(v));
    if (Number.isNaN(ms)) throw new Error(`day needs a datetime, got "${String(v)}"`);
    return new Date(ms).toISOString().slice(0, 10);
  },
  // field(memo): '{"memo":"/v1/..."}' -> "/v1/..." (a field of a JSON object, or of its text: callflow.ended Variables)
  field: (v, name) => {
    let obj = v;
    if (typeof v === 'string') {
      try {
        obj = JSON.parse(v);
      } catch {
        throw new Error(`field(${name}) needs a JSON object or its text, got "${v.slice(0, 40)}"`);
      }
    }
    return obj && typeof obj === 'object' && !Array.isArray(obj) ? (obj as Record<string, unknown>)[name ?? ''] : undefined;
  },
  // urlPath: "https://api.example/v1/x?y=1" -> "/v1/x?y=1"; a path stays as it is (download links)
  urlPath: (v) => {
    const text = String(v);
    if (text.startsWith('/')) return text;
    const u = new URL(text);
    return u.pathname + u.search;
  },
  // repeat(3): "ab" -> "ababab" (bodies at and beyond a length limit, large payloads)
  repeat: (v, arg) => {
    const problem = filterArgProblem('repeat', arg);
    if (problem) throw new Error(problem);
    return String(v).repeat(Number(arg));
  },
};

/** Longest text `repeat` writes: far beyond any length limit of the interface, short of a runaway. */
export const MAX_REPEAT = 100_000;

/** Why a filter's argument is unusable (checked when a scenario loads), or undefined. */
export function filterArgProblem(name: string, arg: string | undefined): string | undefined {
  if (name === 'addMonths') {
    return arg !== undefined && /^-?\d{1,4}$/.test(arg) ? undefined : 'addMonths needs a whole number of months, as in addMonths(1) or addMonths(-1)';
  }
  if (name === 'addSeconds') {
    return arg !== undefined && /^-?\d{1,10}$/.test(arg) ? undefined : 'addSeconds needs a whole number of seconds, as in addSeconds(86400) or addSeconds(-1)';
  }
  if (name !== 'repeat') return undefined;
  if (arg === undefined || !/^\d+$/.test(arg) || Number(arg) > MAX_REPEAT) return `repeat needs a count from 0 to ${MAX_REPEAT}, as in repeat(91)`;
  return undefined;
}

/** "name" or "name(arg)". */
export function parseFilter(text: string): { name: string; arg?: string } | undefined {
  const m = /^([a-z][A-Za-z0-9]*)(?:\(\s*([^()]*?)\s*\))?$/.exec(text.trim());
  return m ? { name: m[1]!, arg: m[2] } : undefined;
}

export const FILTER_NAMES = Object.keys(FILTERS);

function hyphenate(digits: string, international: boolean): string {
  // Area code: 02 (Seoul) is two digits; mobile/regional prefixes are three; without the trunk 0 one shorter.
  const areaLen = digits.startsWith(international ? '2' : '02') ? (international ? 1 : 2) : international ? 2 : 3;
  const area = digits.slice(0, areaLen);
  const rest = digits.slice(areaLen);
  const split = rest.length - 4;
  return `${area}-${rest.slice(0, split)}-${rest.slice(split)}`;
}

const EXPR = /\{\{\s*([^}]*?)\s*\}\}/g;
const PATH_PART = /^([A-Za-z_$][\w$-]*)|\.([A-Za-z_$][\w$-]*)|\[(\d+)\]/y;

/** An expression taken apart once: its path (or generator) and its filters. What it reads is looked up at each use. */
interface ParsedExpression {
  pathText: string;
  /** `fresh.<name>`: the generator's name. */
  generator?: string;
  /** The path's name and fields, or undefined when the path is not a name. */
  parts?: (string | number)[];
  filters: { text: string; fn?: (v: unknown, arg?: string) => unknown; arg?: string }[];
}

const parsedExpressions = new Map<string, ParsedExpression>();

/** `expression` taken apart, kept by its text (a step repeated 10,000 times evaluates the same few). */
function parsedExpression(expression: string): ParsedExpression {
  let parsed = parsedExpressions.get(expression);
  if (parsed) return parsed;
  const [pathText, ...filterTexts] = expression.split('|').map((s) => s.trim()) as [string, ...string[]];
  const filters = filterTexts.map((text) => {
    const call = parseFilter(text);
    return { text, fn: call && FILTERS[call.name], arg: call?.arg };
  });
  parsed = pathText.startsWith('fresh.') ? { pathText, generator: pathText.slice(6), filters } : { pathText, parts: pathParts(pathText), filters };
  if (parsedExpressions.size >= 10_000) parsedExpressions.clear();
  parsedExpressions.set(expression, parsed);
  return parsed;
}

/** "a.b[2].c" as ["a", "b", 2, "c"], or undefined when it is not a name with fields and indexes. */
function pathParts(pathText: string): (string | number)[] | undefined {
  const parts: (string | number)[] = [];
  let pos = 0;
  while (pos < pathText.length) {
    PATH_PART.lastIndex = pos;
    const m = PATH_PART.exec(pathText);
    if (!m || (pos === 0) !== (m[1] !== undefined)) return undefined;
    parts.push(m[1] ?? m[2] ?? Number(m[3]));
    pos = PATH_PART.lastIndex;
  }
  return parts;
}

export class Scope {
  private readonly values = new Map<string, unknown>();

  constructor(private readonly random: SeededRandom) {}

  set(name: string, value: unknown): void {
    this.values.set(name, value);
  }

  has(name: string): boolean {
    return this.values.has(name) && !(this.values.get(name) instanceof Unavailable);
  }

  get(name: string): unknown {
    return this.values.get(name);
  }

  /** The value of one expression (without braces). */
  evaluate(expression: string): unknown {
    const parsed = parsedExpression(expression);
    let value = this.lookup(parsed, expression);
    for (const f of parsed.filters) {
      if (!f.fn) throw new UnresolvedError(expression, `unknown filter "${f.text}" (known: ${FILTER_NAMES.join(', ')})`);
      value = f.fn(value, f.arg);
    }
    return value;
  }

  /** Interpolates every string inside a value (objects and arrays are copied). */
  resolve<T>(value: T): T {
    if (typeof value === 'string') return this.resolveString(value) as T;
    if (Array.isArray(value)) return value.map((v) => this.resolve(v)) as T;
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[this.resolveString(k) as string] = this.resolve(v);
      return out as T;
    }
    return value;
  }

  resolveString(text: string): unknown {
    // Most strings of a step hold no expression: nothing to match (a 10,000-times step resolves its request each time).
    if (!text.includes('{{')) return text;
    const whole = /^\{\{\s*([^}]*?)\s*\}\}$/.exec(text);
    if (whole) return this.evaluate(whole[1]!);
    return text.replace(EXPR, (_, expr: string) => {
      const v = this.evaluate(expr);
      return typeof v === 'string' ? v : JSON.stringify(v);
    });
  }

  private lookup(parsed: ParsedExpression, expression: string): unknown {
    const { pathText, parts } = parsed;
    if (parsed.generator !== undefined) {
      const gen = GENERATORS[parsed.generator];
      if (!gen) throw new UnresolvedError(expression, `unknown generator (known: ${GENERATOR_NAMES.map((g) => `fresh.${g}`).join(', ')})`);
      return gen(this.random);
    }
    if (!parts) throw new UnresolvedError(expression, `cannot read "${pathText}" as a name`);
    const [head, ...rest] = parts as [string, ...(string | number)[]];
    if (!this.values.has(head)) throw new UnresolvedError(expression, `"${head}" is not set (no saved value, var or account of that name)`);
    let cur = this.values.get(head);
    if (cur instanceof Unavailable) throw new UnresolvedError(expression, cur.reason);
    for (const p of rest) {
      if (cur === null || typeof cur !== 'object' || !(p in (cur as object))) {
        throw new UnresolvedError(expression, `"${pathText}" does not exist`);
      }
      cur = (cur as Record<string | number, unknown>)[p];
    }
    return cur;
  }
}

/** Reads a response path: status, body(.x|[n])*, headers.name. */
export function selectFromResponse(res: { status: number; headers: Record<string, string>; json: unknown }, path: string): { found: boolean; value?: unknown } {
  if (path === 'status') return { found: true, value: res.status };
  if (path.startsWith('headers.')) {
    const name = path.slice(8).toLowerCase();
    return name in res.headers ? { found: true, value: res.headers[name] } : { found: false };
  }
  let cur: unknown = res.json;
  const rest = path.slice(4);
  const re = /\.([^.[\]]+)|\[(\d+)\]/y;
  let pos = 0;
  while (pos < rest.length) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) return { found: false };
    const key = m[1] ?? Number(m[2]);
    if (cur === null || typeof cur !== 'object' || !(key in (cur as object))) return { found: false };
    cur = (cur as Record<string | number, unknown>)[key];
    pos = re.lastIndex;
  }
  return cur === undefined ? { found: false } : { found: true, value: cur };
}
