// Ways to break a valid value, read off its schema: each mutation changes one spot so that a
// keyword of the document no longer holds (a required field dropped, an unknown field added,
// another type, a value outside an enum, a pattern, a length or a range). The caller keeps a
// mutated value only when the document's validator rejects it, so a mutation that happens to
// stay valid is never counted as invalid.
import { resolve, type Document, type Schema } from './values.ts';

export interface Mutation {
  /** Where and what, for the report: `events[0]: not in the enum`. */
  what: string;
  apply: (value: unknown) => unknown;
}

type Json = Record<string, unknown>;

function setAt(root: unknown, path: (string | number)[], change: (v: unknown) => unknown): unknown {
  if (path.length === 0) return change(root);
  const [head, ...rest] = path;
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? setAt(v, rest, change) : v));
  const obj = root as Json;
  return { ...obj, [head!]: setAt(obj[head as string], rest, change) };
}

function show(path: (string | number)[]): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('') || '(body)';
}

/** Values of another JSON type than `type`. */
function otherTypes(type: string | undefined): unknown[] {
  const all: Record<string, unknown> = { string: 'x', integer: 7, number: 1.5, boolean: true, array: [], object: {}, null: null };
  return Object.entries(all)
    .filter(([t]) => t !== type && !(type === 'number' && t === 'integer'))
    .map(([, v]) => v);
}

function leafMutations(s: Schema, path: (string | number)[], value: unknown, out: Mutation[]) {
  const at = show(path);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const to = (what: string, v: unknown) => out.push({ what: `${at}: ${what}`, apply: (root) => setAt(root, path, () => v) });
  if (type) for (const v of otherTypes(type)) to(`a ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v} instead of ${type}`, v);
  if (Array.isArray(s.enum)) to('not in the enum', `${String(s.enum[0])}_not_listed`);
  if ('const' in s) to('not the constant', typeof s.const === 'string' ? `${s.const}x` : 'x');
  if (typeof value === 'string') {
    if (s.maxLength !== undefined) to(`longer than ${s.maxLength}`, value.padEnd(s.maxLength + 1, 'x'));
    if (s.minLength) to(`shorter than ${s.minLength}`, [...value].slice(0, s.minLength - 1).join(''));
    if (s.pattern) to(`breaks the pattern ${s.pattern}`, `${value} \u0000`);
    if (s.format === 'date-time' || s.format === 'date' || s.format === 'uri') to(`not a ${s.format}`, 'not a value');
  }
  if (typeof value === 'number') {
    if (s.maximum !== undefined) to(`above ${s.maximum}`, s.maximum + 1);
    if (s.minimum !== undefined) to(`below ${s.minimum}`, s.minimum - 1);
    if (s.exclusiveMinimum !== undefined) to(`at the exclusive minimum ${s.exclusiveMinimum}`, s.exclusiveMinimum);
    if (type === 'integer') to('a fraction', value + 0.5);
  }
}

/** Every single-spot mutation of `value`, which `schema` accepts. */
export function mutationsOf(schema: Schema, value: unknown, doc: Document, path: (string | number)[] = [], out: Mutation[] = []): Mutation[] {
  const s = resolve(schema, doc);
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches && !s.type && !s.properties) {
    // Break the value as the first branch of its own JSON type would see it; what stays valid
    // through another branch is dropped by the caller's validator.
    const kind = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
    const own = branches.map((b) => resolve(b, doc)).find((b) => b.type === kind || (kind === 'integer' && b.type === 'number')) ?? branches[0]!;
    return mutationsOf(own, value, doc, path, out);
  }
  leafMutations(s, path, value, out);
  if (Array.isArray(value)) {
    const at = show(path);
    if (s.maxItems !== undefined) out.push({ what: `${at}: more than ${s.maxItems} items`, apply: (root) => setAt(root, path, (v) => [...(v as unknown[]), ...Array(s.maxItems + 1).fill((v as unknown[])[0] ?? 'x')]) });
    if (s.minItems) out.push({ what: `${at}: fewer than ${s.minItems} items`, apply: (root) => setAt(root, path, (v) => (v as unknown[]).slice(0, s.minItems - 1)) });
    if (s.items) value.forEach((v, i) => mutationsOf(s.items, v, doc, [...path, i], out));
  } else if (value && typeof value === 'object') {
    const at = show(path);
    const obj = value as Json;
    for (const k of (s.required ?? []) as string[]) {
      out.push({ what: `${at}: required ${k} missing`, apply: (root) => setAt(root, path, (v) => Object.fromEntries(Object.entries(v as Json).filter(([key]) => key !== k))) });
    }
    if (s.additionalProperties === false) out.push({ what: `${at}: an unknown field`, apply: (root) => setAt(root, path, (v) => ({ ...(v as Json), unknownField: 1 })) });
    if (s.minProperties) out.push({ what: `${at}: fewer than ${s.minProperties} fields`, apply: (root) => setAt(root, path, () => ({})) });
    for (const [k, v] of Object.entries(obj)) {
      const sub = s.properties?.[k] ?? (typeof s.additionalProperties === 'object' ? s.additionalProperties : (Object.values(s.patternProperties ?? {})[0] as Schema | undefined));
      if (sub) mutationsOf(sub, v, doc, [...path, k], out);
    }
  }
  return out;
}
