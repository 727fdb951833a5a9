// Packed rows checked against a row schema without reading them back (docs/decisions.md "Scale",
// the snapshot's packed form): a snapshot's shapes are few, so each shape is walked along the
// schema once, which settles its structure (keys, required members, array lengths, nulls and
// booleans) and leaves a short list of tests on single leaves (a text's id, looked up once per
// distinct text; a number; an instant or digit string only where the schema asks more of it than
// being one). A record passing its shape's tests is a row the schema accepts. The tests are a
// sufficient condition, never the judge of a refusal: a record that fails them, or whose shape
// holds something not planned here (rules across fields, a union of two objects, a pattern on
// an instant), is read back and checked whole by the caller, which also words the error.
import { Kind, type TSchema } from '@sinclair/typebox';
import type { Op } from './packed-rows.ts';
import { rulesOf } from './schema-rules.ts';
import { compile } from './schema.ts';
import { formattedCanonical, iso } from './clock.ts';

/** One test on the leaf at `at` (a word or a double offset within the record). */
interface LeafTest {
  at: number;
  test: (value: number) => boolean;
}

/** A shape's tests (undefined: the shape is not planned, its records are checked whole). */
interface ShapePlan {
  words: LeafTest[];
  doubles: LeafTest[];
}

/** A schema read keyword by keyword (TypeBox's Kind is a symbol key). */
type Keywords = Record<string | symbol, unknown>;

/** Keywords that say nothing about a value. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', '$id', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
const isAnnotation = (key: string) => ANNOTATIONS.has(key) || key.startsWith('x-');
/** A digits leaf is '1' followed by 1 to 15 digits (packed-rows.ts). */
const canonicalDigits = (v: number) => v >= 10 && v < 2e15 && Number.isInteger(v);

class Abort extends Error {}
const abort = (): never => {
  throw new Abort();
};

export class PackedRowCheck {
  private readonly plans: (ShapePlan | null | undefined)[]; // undefined: not planned yet; null: checked whole
  private readonly verdicts = new Map<TSchema, Int8Array>(); // per leaf schema, per text id: 1 fits, -1 not

  constructor(
    private readonly shapes: readonly Op[],
    private readonly texts: readonly string[],
    private readonly schema: TSchema,
  ) {
    this.plans = new Array(shapes.length);
  }

  /** Whether the record of `shape` whose leaves start at `w` and `d` certainly fits the schema. */
  fits(shape: number, words: Uint32Array, w: number, doubles: Float64Array, d: number): boolean {
    let plan = this.plans[shape];
    if (plan === undefined) plan = this.plans[shape] = this.plan(this.shapes[shape]!);
    if (plan === null) return false;
    for (const t of plan.words) if (!t.test(words[w + t.at]!)) return false;
    for (const t of plan.doubles) if (!t.test(doubles[d + t.at]!)) return false;
    return true;
  }

  /** Whether every record of `shape` gets a plan (for the tests: the rows a simulator makes must). */
  planned(shape: number): boolean {
    return (this.plans[shape] ??= this.plan(this.shapes[shape]!)) !== null;
  }

  private plan(op: Op): ShapePlan | null {
    const out: ShapePlan = { words: [], doubles: [] };
    try {
      this.walk(op, this.schema, { words: 0, doubles: 0 }, out);
      return out;
    } catch (e) {
      if (e instanceof Abort) return null;
      throw e;
    }
  }

  /** Plans `op` against `schema` into `out`, `at` counting the leaves passed; aborts where not sure. */
  private walk(op: Op, schema: TSchema, at: { words: number; doubles: number }, out: ShapePlan): void {
    const s = schema as unknown as Keywords;
    if (rulesOf(schema).length > 0) abort();
    const kind = s[Kind];
    if (op.k === 'obj' || op.k === 'arr') {
      if (kind === 'Union') return this.branch(op, s.anyOf as TSchema[], at, out);
      if (kind === 'Unknown' || kind === 'Any') return this.unchecked(op, at, out);
      if (op.k === 'arr') return this.array(op, s, at, out);
      return this.object(op, s, at, out);
    }
    switch (op.k) {
      case 'const':
        if (op.value === undefined || !compile(schema).Check(op.value)) abort();
        return;
      case 'text':
        out.words.push({ at: at.words++, test: this.textTest(schema) });
        return;
      case 'u32':
        if (!everyWholeNumber(schema)) out.words.push({ at: at.words, test: numberTest(schema) });
        at.words++;
        return;
      case 'f64':
        out.doubles.push({ at: at.doubles++, test: numberTest(schema) });
        return;
      case 'time': {
        const check = compile(schema);
        const test = anyString(schema, 24, 24, 'date-time') ? formattedCanonical : (ms: number) => formattedCanonical(ms) && check.Check(iso(ms));
        out.doubles.push({ at: at.doubles++, test });
        return;
      }
      case 'digits': {
        const check = compile(schema);
        const prefix = op.prefix;
        const n = prefix.length;
        const test = anyString(schema, n + 1, n + 15) ? canonicalDigits : (v: number) => canonicalDigits(v) && check.Check(prefix + String(v).slice(1));
        out.doubles.push({ at: at.doubles++, test });
        return;
      }
      case 'hex':
        // A hex leaf under a schema asking more than a string of its length (ids are plain strings): its records are checked whole.
        if (!anyString(schema, op.prefix.length + op.words * 8, op.prefix.length + op.words * 8)) abort();
        at.words += op.words;
        return;
    }
  }

  private object(op: Extract<Op, { k: 'obj' }>, s: Keywords, at: { words: number; doubles: number }, out: ShapePlan): void {
    const kind = s[Kind];
    if (kind !== 'Object' && kind !== 'Record') abort();
    const known = new Set(['type', 'properties', 'required', 'additionalProperties', 'patternProperties']);
    for (const key of Object.keys(s)) if (!known.has(key) && !isAnnotation(key)) abort();
    const props = (s.properties ?? {}) as Record<string, TSchema>;
    let anyKey: TSchema | undefined;
    if (s.patternProperties !== undefined) {
      const patterns = Object.entries(s.patternProperties as Record<string, TSchema>);
      if (patterns.length !== 1 || (patterns[0]![0] !== '^(.*)$' && patterns[0]![0] !== '^.*$')) abort();
      anyKey = patterns[0]![1];
    }
    const extra = s.additionalProperties;
    if (extra !== undefined && extra !== false && extra !== true) abort();
    for (const key of (s.required ?? []) as string[]) if (!op.keys.includes(key)) abort();
    op.keys.forEach((key, i) => {
      const kid = op.kids[i]!;
      const own = Object.prototype.hasOwnProperty.call(props, key) ? props[key] : anyKey;
      if (own !== undefined) this.walk(kid, own, at, out);
      else if (extra === false) abort();
      else this.unchecked(kid, at, out);
    });
  }

  private array(op: Extract<Op, { k: 'arr' }>, s: Keywords, at: { words: number; doubles: number }, out: ShapePlan): void {
    if (s[Kind] !== 'Array') abort();
    for (const key of Object.keys(s)) if (!['type', 'items', 'minItems', 'maxItems'].includes(key) && !isAnnotation(key)) abort();
    const items = s.items as TSchema;
    if (typeof items !== 'object' || Array.isArray(items)) abort();
    if (op.kids.length < ((s.minItems as number | undefined) ?? 0) || op.kids.length > ((s.maxItems as number | undefined) ?? Infinity)) abort();
    for (const kid of op.kids) this.walk(kid, items, at, out);
  }

  /** A union over an object or array: the first branch that plans (passing its tests is passing the union). */
  private branch(op: Op, branches: TSchema[], at: { words: number; doubles: number }, out: ShapePlan): void {
    for (const b of branches) {
      const mine: ShapePlan = { words: [], doubles: [] };
      const from = { ...at };
      try {
        this.walk(op, b, from, mine);
      } catch (e) {
        if (e instanceof Abort) continue;
        throw e;
      }
      out.words.push(...mine.words);
      out.doubles.push(...mine.doubles);
      at.words = from.words;
      at.doubles = from.doubles;
      return;
    }
    abort();
  }

  /** A value the schema accepts whatever it is: only its texts must read back. */
  private unchecked(op: Op, at: { words: number; doubles: number }, out: ShapePlan): void {
    switch (op.k) {
      case 'obj':
      case 'arr':
        for (const kid of op.kids) this.unchecked(kid, at, out);
        return;
      case 'const':
        if (op.value === undefined) abort();
        return;
      case 'text': {
        const count = this.texts.length;
        out.words.push({ at: at.words++, test: (id) => id < count });
        return;
      }
      case 'u32':
        at.words++;
        return;
      case 'hex':
        at.words += op.words;
        return;
      case 'f64':
        out.doubles.push({ at: at.doubles++, test: (v) => Number.isFinite(v) }); // JSON has no NaN: a snapshot of objects could not hold one
        return;
      case 'time':
        out.doubles.push({ at: at.doubles++, test: formattedCanonical }); // instants iso() writes as YYYY-MM-DDTHH:MM:SS.sssZ
        return;
      case 'digits':
        out.doubles.push({ at: at.doubles++, test: canonicalDigits });
        return;
    }
  }

  /** A text leaf: its id in range and its text accepted, judged once per distinct text. */
  private textTest(schema: TSchema): (id: number) => boolean {
    let verdicts = this.verdicts.get(schema);
    if (verdicts === undefined) this.verdicts.set(schema, (verdicts = new Int8Array(this.texts.length)));
    const seen = verdicts;
    const texts = this.texts;
    const check = compile(schema);
    return (id) => {
      if (id >= texts.length) return false;
      return (seen[id] ||= check.Check(texts[id]) ? 1 : -1) === 1;
    };
  }
}

function numberTest(schema: TSchema): (v: number) => boolean {
  const check = compile(schema);
  return (v) => check.Check(v);
}

/** Whether `schema` accepts every whole number from 0 to 2^32 - 1 (what a u32 leaf holds). */
function everyWholeNumber(schema: TSchema): boolean {
  const s = schema as unknown as Keywords;
  if (s[Kind] === 'Union') return (s.anyOf as TSchema[]).some(everyWholeNumber);
  if (s[Kind] === 'Unknown' || s[Kind] === 'Any') return Object.keys(s).every(isAnnotation);
  if (s[Kind] !== 'Integer' && s[Kind] !== 'Number') return false;
  for (const key of Object.keys(s)) {
    if (key === 'type' || isAnnotation(key)) continue;
    if (key === 'minimum' && (s.minimum as number) <= 0) continue;
    return false;
  }
  return true;
}

/** Whether `schema` accepts every string of `min` to `max` characters (with `format` allowed when the strings are of it). */
function anyString(schema: TSchema, min: number, max: number, format?: string): boolean {
  const s = schema as unknown as Keywords;
  if (s[Kind] === 'Union') return (s.anyOf as TSchema[]).some((b) => anyString(b, min, max, format));
  if (s[Kind] === 'Unknown' || s[Kind] === 'Any') return Object.keys(s).every(isAnnotation);
  if (s[Kind] !== 'String') return false;
  for (const key of Object.keys(s)) {
    if (key === 'type' || isAnnotation(key)) continue;
    if (key === 'minLength' && (s.minLength as number) <= min) continue;
    if (key === 'maxLength' && (s.maxLength as number) >= max) continue;
    if (key === 'format' && format !== undefined && s.format === format) continue;
    return false;
  }
  return true;
}
