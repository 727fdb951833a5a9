// Rules across the fields of one object that TypeBox cannot express (JSON Schema 2020-12's
// `dependentRequired`, `oneOf`, `not`, `if`/`then`), attached to a schema once and used twice:
// the OpenAPI document states them (an `allOf` entry per rule, see openapi.ts) and request
// validation enforces them (after TypeBox's own check, through ajv). A rule whose operation
// answers a code of its own (`code`) is stated in the document with `x-error-code` and left to
// the handler, which raises that code; the rest are 400 VALIDATION naming the rule.
import { Kind, type TSchema } from '@sinclair/typebox';
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type { FieldError } from './errors.ts';

export interface SchemaRule {
  /** The rule in words: the OpenAPI entry's description and the validation message. */
  description: string;
  /** A JSON Schema the value must also satisfy (no `$ref`). */
  schema: Record<string, unknown>;
  /** The wire code the handler answers when the rule is broken; absent: 400 VALIDATION here. */
  code?: string;
}

const RULES = Symbol.for('simulator.schemaRules');

type WithRules = { [RULES]?: readonly SchemaRule[] };

/** `schema` with `rules` attached (added to any it already has); typed as the original. */
export function withRules<T extends TSchema>(schema: T, rules: readonly SchemaRule[]): T {
  const before = (schema as WithRules)[RULES] ?? [];
  return { ...schema, [RULES]: [...before, ...rules] };
}

/** A rule's schema for "the object has `field`, not null" (a field given, in the rules' words). */
export const present = (field: string): Record<string, unknown> => ({ required: [field], properties: { [field]: { not: { type: 'null' } } } });

/** The rules attached to `schema` itself (not to its properties). */
export function rulesOf(schema: unknown): readonly SchemaRule[] {
  return (schema as WithRules | undefined)?.[RULES] ?? [];
}

/** The `allOf` entries that state `schema`'s rules in a JSON Schema document. */
export function ruleEntries(schema: unknown): Record<string, unknown>[] {
  return rulesOf(schema).map((r) => ({ description: r.description, ...r.schema, ...(r.code ? { 'x-error-code': r.code } : {}) }));
}

// ajv is required with the first rule checked, not at start: loading it and building its
// instance was a sizeable part of start-up (bench/README.md "Start-up"), and most requests
// break no rule across fields. Required, not bundled (bin/start.cjs), like the other lazy packages.
let ajv: Ajv2020 | undefined;
const compiled = new WeakMap<SchemaRule, ValidateFunction>();

function check(rule: SchemaRule, value: unknown): boolean {
  let fn = compiled.get(rule);
  if (!fn) {
    ajv ??= new (createRequire(import.meta.url)('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020({ strict: false, allErrors: false });
    fn = ajv.compile(rule.schema);
    compiled.set(rule, fn);
  }
  return fn(value) as boolean;
}

interface Shape {
  properties?: Record<string, TSchema>;
  items?: TSchema;
  anyOf?: TSchema[];
  patternProperties?: Record<string, TSchema>;
}

/**
 * The broken rules (without a `code`) of `value`, already valid against `schema` by TypeBox,
 * and of every nested value. `fits` tells which branch of an `anyOf` a value takes.
 */
export function ruleErrors(schema: TSchema, value: unknown, path: string, fits: (s: TSchema, v: unknown) => boolean): FieldError[] {
  if (!holdsRules(schema)) return []; // most schemas have none: a million snapshot rows are not walked for nothing
  const out: FieldError[] = [];
  for (const rule of rulesOf(schema)) {
    if (!rule.code && !check(rule, value)) out.push({ path, message: `breaks a rule: ${rule.description}` });
  }
  const s = schema as Shape;
  const join = (key: string) => (path ? `${path}.${key}` : key);
  if (Array.isArray(value) && s.items) {
    value.forEach((v, i) => out.push(...ruleErrors(s.items!, v, `${path}[${i}]`, fits)));
  } else if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const [key, sub] of Object.entries(s.properties ?? {})) {
      if (record[key] !== undefined) out.push(...ruleErrors(sub, record[key], join(key), fits));
    }
    for (const sub of Object.values(s.patternProperties ?? {})) {
      for (const [key, v] of Object.entries(record)) out.push(...ruleErrors(sub, v, join(key), fits));
    }
  }
  // Only TypeBox unions are walked: a plain `anyOf` (formats a string may take) holds no rules.
  for (const branch of (s.anyOf ?? []).filter((b) => Kind in b)) {
    if (fits(branch, value)) {
      out.push(...ruleErrors(branch, value, path, fits));
      break;
    }
  }
  return out;
}

const holding = new WeakMap<object, boolean>();

/** Whether `schema` or anything nested in it (as ruleErrors walks it) has a rule judged here (no `code`). */
function holdsRules(schema: TSchema): boolean {
  const known = holding.get(schema);
  if (known !== undefined) return known;
  holding.set(schema, false); // a schema met again while walking itself adds nothing
  const s = schema as Shape;
  const nested = [...Object.values(s.properties ?? {}), ...(s.items ? [s.items] : []), ...Object.values(s.patternProperties ?? {}), ...(s.anyOf ?? []).filter((b) => Kind in b)];
  const holds = rulesOf(schema).some((r) => !r.code) || nested.some(holdsRules);
  holding.set(schema, holds);
  return holds;
}

/** An update body that must name at least one field; the handler answers `code` for `{}`. */
export function atLeastOneField<T extends TSchema>(schema: T, code: string): T {
  return withRules(schema, [{ description: 'An update names at least one field.', schema: { minProperties: 1 }, code }]);
}
