// Values a JSON Schema (2020-12, as /openapi.json states it) calls valid, as fast-check
// arbitraries. Built from the document alone: `$ref`s resolve against its components. What the
// keywords cannot pin down (oneOf exclusivity, `not`, rules in allOf) is left to the caller's
// validator, which keeps a generated value only when the document accepts it.
//   URLs (format uri, or a pattern that starts with a scheme) point at 127.0.0.1 port 9, where
//   nothing listens: a request that makes the simulator call out fails fast and stays local.
import fc from 'fast-check';

export type Schema = Record<string, any>;

export interface Document {
  components?: { schemas?: Record<string, Schema> };
}

/** The schema a `$ref` names (only `#/components/schemas/...` refs occur). */
export function resolve(schema: Schema, doc: Document): Schema {
  let s = schema;
  while (s && typeof s.$ref === 'string') {
    const name = s.$ref.replace('#/components/schemas/', '');
    const target = doc.components?.schemas?.[name];
    if (!target) throw new Error(`unresolved $ref ${s.$ref}`);
    s = target;
  }
  return s;
}

const LOCAL = 'http://127.0.0.1:9';

const urlPath = fc.stringMatching(/^[a-z0-9]{0,8}(\/[a-z0-9]{1,8}){0,2}$/);

function urlArb(https: boolean): fc.Arbitrary<string> {
  return urlPath.map((p) => `${https ? 'https' : 'http'}://127.0.0.1:9/${p}`);
}

/** Text that is not only ASCII: Korean, accents and now and then a character beyond the BMP. */
const text = (min: number, max: number) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: fc.constantFrom('가', '나', 'é', ' ', 'a', '1', '-') }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
  );

const instant = fc
  .integer({ min: Date.UTC(2025, 0, 1), max: Date.UTC(2028, 0, 1) })
  .chain((ms) => fc.constantFrom(new Date(ms).toISOString(), new Date(ms).toISOString().replace('.000Z', 'Z'), new Date(ms + 9 * 3600_000).toISOString().replace('Z', '+09:00').replace(/\.\d{3}/, '')));

const compiled = new Map<string, RegExp>();
function regex(pattern: string): RegExp {
  let r = compiled.get(pattern);
  if (!r) compiled.set(pattern, (r = new RegExp(pattern, 'u')));
  return r;
}

/**
 * String arbitraries by the keywords they are built from: many operations share a field's schema
 * (ids, phone numbers, URLs), and choosing a pattern's size samples it up to 120 times. An
 * arbitrary holds no state, so one built earlier draws the same values.
 */
const strings = new Map<string, fc.Arbitrary<string>>();
function stringArb(s: Schema): fc.Arbitrary<string> {
  const key = JSON.stringify([s.minLength, s.maxLength, s.pattern, s.format]);
  let found = strings.get(key);
  if (!found) strings.set(key, (found = newStringArb(s)));
  return found;
}

function newStringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Math.max(min, 24);
  const fits = (v: string) => [...v].length >= min && [...v].length <= max && (!s.pattern || regex(s.pattern).test(v));
  const pattern: string | undefined = s.pattern;
  // URLs point at the local port 9 when they can (see the header); a pattern they cannot meet
  // (an image URL must end in .png) is generated from the pattern itself.
  if (s.format === 'uri' || pattern?.includes('[Hh][Tt][Tt][Pp]') || pattern?.includes('https?://') || pattern?.startsWith('^https://')) {
    const local = urlArb(pattern?.startsWith('^https://') ?? false);
    if (fc.sample(local, { numRuns: 20, seed: 1 }).some(fits)) return local.filter(fits);
  }
  if (s.format === 'date-time') return instant.filter(fits);
  if (s.format === 'ipv4') return fc.ipV4();
  if (s.format === 'ipv6') return fc.ipV6();
  if (s.format === 'date') return instant.map((v) => v.slice(0, 10)).filter(fits);
  if (pattern) {
    // The smallest size whose strings often fit the lengths: a long pattern (phone numbers with
    // separators anywhere) at a large size mostly overshoots, a `+` with minLength 8 at the
    // smallest mostly falls short, and a filter that rarely passes would spin.
    const sizes = ['xsmall', 'small', 'medium', 'large'] as const;
    const fitting = (size: (typeof sizes)[number]) => fc.sample(fc.stringMatching(new RegExp(pattern), { size }), { numRuns: 30, seed: 1 }).filter(fits).length;
    const size = sizes.find((z) => fitting(z) >= 6) ?? sizes.reduce((a, b) => (fitting(b) > fitting(a) ? b : a));
    return fc.stringMatching(new RegExp(pattern), { size }).filter(fits);
  }
  return text(min, Math.min(max, min + 40)).filter(fits);
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : (s.minimum ?? -1000);
  const hi = s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : (s.maximum ?? Math.max(lo, 0) + 1000);
  if (integer) return fc.oneof(fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }), fc.constantFrom(Math.ceil(lo), Math.floor(hi)));
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

interface Options {
  /** Levels left before optional properties and extra items stop being generated. */
  depth: number;
}

/** An arbitrary of values `schema` accepts (most of the time: see the header). */
export function valueArb(schema: Schema, doc: Document, opts: Options = { depth: 6 }): fc.Arbitrary<unknown> {
  const s = resolve(schema, doc);
  const deeper = { depth: opts.depth - 1 };
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches && !s.type && !s.properties) return fc.oneof(...branches.map((b) => valueArb(b, doc, opts)));
  // A typed schema whose anyOf only narrows it (formats or patterns of a string): one branch at a time.
  if (branches && s.type && !s.properties) {
    const { anyOf: _a, oneOf: _o, ...base } = s;
    return fc.oneof(...branches.map((b) => valueArb({ ...base, ...b }, doc, opts)));
  }
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'string':
      return stringArb(s);
    case 'array': {
      const min = s.minItems ?? 0;
      const max = Math.max(min, Math.min(s.maxItems ?? min + 3, opts.depth > 0 ? min + 3 : min));
      const items = s.items ? valueArb(s.items, doc, deeper) : fc.jsonValue({ maxDepth: 1 });
      return s.uniqueItems ? fc.uniqueArray(items, { minLength: min, maxLength: max, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength: min, maxLength: max });
    }
    case 'object':
      return objectArb(s, doc, opts);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectArb(s: Schema, doc: Document, opts: Options): fc.Arbitrary<Record<string, unknown>> {
  const deeper = { depth: opts.depth - 1 };
  const props: Record<string, Schema> = s.properties ?? {};
  const required = new Set<string>(s.required ?? []);
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) fields[k] = valueArb(v, doc, deeper);
  const optional = Object.keys(props).filter((k) => !required.has(k));
  const known = fc.record(fields, { requiredKeys: opts.depth > 0 ? [...required] : [...required] }).chain((all) => {
    if (opts.depth <= 0) return fc.constant(Object.fromEntries([...required].map((k) => [k, all[k]])));
    return fc.subarray(optional).map((kept) => Object.fromEntries(Object.entries(all).filter(([k]) => required.has(k) || kept.includes(k))));
  });
  const extraSchema = s.additionalProperties && typeof s.additionalProperties === 'object' ? s.additionalProperties : (Object.values(s.patternProperties ?? {})[0] as Schema | undefined);
  const min = s.minProperties ?? 0;
  const max = s.maxProperties;
  const extra =
    extraSchema && opts.depth > 0
      ? fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,11}$/), valueArb(extraSchema, doc, deeper), { minKeys: Math.max(0, min - Object.keys(props).length), maxKeys: Math.min(max ?? 3, 3) })
      : fc.constant({});
  return fc.tuple(known, extra).map(([k, e]) => ({ ...e, ...k }));
}

export { LOCAL as LOCAL_RECEIVER };
