// Schema helpers. Every request and response shape is a TypeBox schema, i.e. plain JSON Schema:
// the same object gives the TypeScript type (Static), the request validation (compiled once
// per process), the conformance kit's response check and the OpenAPI 3.1 document.
import { FormatRegistry, Kind, Type, TypeRegistry, type SchemaOptions, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import { ApiError, type FieldError } from './errors.ts';
import { parseInstant } from './clock.ts';
import { ruleErrors } from './schema-rules.ts';
import { PHONE_PATTERN } from './phone.ts';

FormatRegistry.Set('date-time', (v) => parseInstant(v) !== undefined);
FormatRegistry.Set('date', (v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)));
FormatRegistry.Set('uri', (v) => {
  try {
    return new URL(v).protocol.length > 1;
  } catch {
    return false;
  }
});

// The dotted quad without leading zeros: what JSON Schema's ipv4 format and the SIP ACLs accept.
FormatRegistry.Set('ipv4', (v) => /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/.test(v));

TypeRegistry.Set<{ enum: string[] }>('StringEnum', (schema, value) => typeof value === 'string' && schema.enum.includes(value));

/** A string restricted to `values`, emitted as `{type: string, enum: [...]}` (clean OpenAPI). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, [Kind]: 'StringEnum', type: 'string', enum: [...values] });
}

/**
 * A closed set the schema documents but leaves to the handler, which refuses other values with
 * its own `code` (shown as `x-error-code`) instead of 400 VALIDATION. TypeBox does not check
 * `enum` on a string schema, which is exactly what this wants; everywhere else use StringEnum.
 */
export function StringEnumRefusedBy<const T extends readonly string[]>(code: string, values: T, options: SchemaOptions = {}) {
  return Type.String({ ...options, enum: [...values], 'x-error-code': code });
}

TypeRegistry.Set<{ minLength?: number; maxLength?: number }>(
  'StringRefusedBy',
  (schema, value) => typeof value === 'string' && value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity),
);

/**
 * A string whose `pattern` (or `format`) the document states while the handler checks it and
 * refuses others with its own `code` (shown as `x-error-code`) instead of 400 VALIDATION; the
 * schema itself checks only the type and the length.
 */
export function StringRefusedBy(code: string, options: SchemaOptions): TUnsafe<string> {
  return Type.Unsafe<string>({ ...options, [Kind]: 'StringRefusedBy', type: 'string', 'x-error-code': code });
}

/**
 * A phone number as people type it (spec Conventions 4): the document states the exact pattern
 * core/phone.ts accepts; the handler normalises it and refuses others with the spec's codes
 * (INVALID_PHONE_NUMBER, or UNSUPPORTED_COUNTRY for another country code).
 */
export function PhoneNumber(options: SchemaOptions = {}): TUnsafe<string> {
  return StringRefusedBy('INVALID_PHONE_NUMBER', { maxLength: 40, ...options, pattern: PHONE_PATTERN });
}

/** An IPv4 or IPv6 address (the handler parses it with ipaddr.js and answers 400 VALIDATION otherwise). */
export function IpAddress(options: SchemaOptions = {}): TUnsafe<string> {
  return StringRefusedBy('VALIDATION', { maxLength: 64, ...options, anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] });
}

/** Words from `words` separated by white space, possibly none (status-callback event lists). */
export function wordListPattern(words: readonly string[]): string {
  return `^\\s*(?:(?:${words.join('|')})(?:\\s+|$))*$`;
}

/**
 * An http or https URL: the scheme, a host without user info, no white space and no #fragment
 * (the pattern, which the pipeline checks); the handler then parses it as a WHATWG URL, which
 * must succeed with a host (said in the description, since a pattern cannot say it exactly).
 */
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+(?:[/?][^\\s#]*)?$';

export function HttpUrl(options: SchemaOptions & { emptyClears?: boolean } = {}) {
  const { emptyClears, ...rest } = options;
  const said = `An http or https URL (a WHATWG URL parser must accept it; no user info, no #fragment)${emptyClears ? '; "" clears it' : ''}.`;
  const pattern = emptyClears ? `^$|${HTTP_URL_PATTERN}` : HTTP_URL_PATTERN;
  return Type.String({ maxLength: 2048, ...rest, pattern, description: rest.description ? `${rest.description} ${said}` : said });
}

/**
 * A query parameter that must be given (shown as `required: true` in the document). A query
 * parameter's schema cannot say so by itself; core/query.ts reads the mark.
 */
export function RequiredParam<T extends TSchema>(schema: T): T {
  return { ...schema, 'x-required': true };
}

/** Whether a query parameter's schema was marked with RequiredParam. */
export function isRequiredParam(schema: TSchema): boolean {
  return (schema as { 'x-required'?: unknown })['x-required'] === true;
}

/**
 * The schema with its own description. Typed as the original: a spread (`{ ...schema }`) would
 * carry TypeBox's symbol keys into the inferred type, which declaration files cannot name.
 */
export function withDescription<T extends TSchema>(schema: T, description: string): T {
  return { ...schema, description };
}

/** `T` or null; emitted as `anyOf: [T, {type: null}]` (OpenAPI 3.1 has no `nullable`). */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}) {
  return Type.Union([schema, Type.Null()], options);
}

/** An ISO 8601 datetime string. */
export function DateTime(options: SchemaOptions = {}) {
  return Type.String({ format: 'date-time', ...options });
}

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

export function compile<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** Field errors for `value` against `schema` (empty when valid). `root` prefixes paths. */
export function schemaErrors(schema: TSchema, value: unknown, root = ''): FieldError[] {
  const check = compile(schema);
  return judged(schema, value, root, (s, v) => compile(s).Check(v), check.Check(value) ? undefined : () => check.Errors(value));
}

/**
 * The same for a schema checked once per process (a fixture's): interpreted, not compiled, since
 * compiling the fixture's whole schema costs several times one check of a small file.
 */
export function schemaErrorsOnce(schema: TSchema, value: unknown, root = ''): FieldError[] {
  return judged(schema, value, root, (s, v) => Value.Check(s, v), Value.Check(schema, value) ? undefined : () => Value.Errors(schema, value));
}

/** The field errors (`errors` undefined: the value fits the fields), or else the rules' across fields. */
function judged(schema: TSchema, value: unknown, root: string, fits: (s: TSchema, v: unknown) => boolean, errors: (() => Iterable<ValueError>) | undefined): FieldError[] {
  const rules = () => ruleErrors(schema, value, root, fits);
  // Rules across fields (schema-rules.ts) are judged once the fields themselves are right.
  if (errors === undefined) return rules();
  const found = [...errors()].filter((e) => !lengthFitsInCharacters(e));
  if (found.length === 0) return rules();
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of found) {
    const path = joinPath(root, e.path);
    const message = describe(unionBranchError(e) ?? e, e.value);
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ path, message });
    if (out.length >= 20) break;
  }
  return out;
}

/** Validates or throws 400 VALIDATION naming every offending field. */
export function validate<T extends TSchema>(schema: T, value: unknown, what: string, root = ''): void {
  const errors = schemaErrors(schema, value, root);
  if (errors.length === 0) return;
  const first = errors[0]!;
  const summary = first.path ? `${first.path}: ${first.message}` : first.message;
  throw ApiError.validation(`${what} is invalid: ${summary}${errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''}`, errors);
}

/**
 * JSON Schema counts a string's length in characters (code points); TypeBox counts UTF-16 units,
 * so a character beyond the BMP (an emoji) counts twice there. A length error that does not hold
 * in characters is dropped, so the document's `maxLength` is the limit a client meets.
 */
function lengthFitsInCharacters(e: ValueError): boolean {
  if (typeof e.value !== 'string') return false;
  const s = e.schema as { minLength?: number; maxLength?: number };
  const n = [...e.value].length;
  if (e.type === ValueErrorType.StringMaxLength) return n <= s.maxLength!;
  if (e.type === ValueErrorType.StringMinLength) return n >= s.minLength!;
  return false;
}

function joinPath(root: string, pointer: string): string {
  const parts = pointer.split('/').slice(1).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const rel = parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  if (!root) return rel;
  if (!rel) return root;
  return rel.startsWith('[') ? root + rel : `${root}.${rel}`;
}

/** For `T | null` and similar unions, the error of the first non-null branch reads better. */
function unionBranchError(e: ValueError): ValueError | undefined {
  for (const branch of e.errors ?? []) {
    for (const inner of branch) {
      if ((inner.schema as { type?: unknown }).type !== 'null') return unionBranchError(inner) ?? inner;
      break;
    }
  }
  return undefined;
}

function describe(e: ValueError, value: unknown): string {
  const s = e.schema as Record<string, unknown>;
  const fallback = e.message;
  if (Array.isArray(s.enum)) return `must be one of ${(s.enum as unknown[]).map(String).join(', ')}`;
  if (fallback === 'Unexpected property') return 'is not a known field';
  if (value === undefined && /^Expected (required property|.+)$/.test(fallback)) return 'is required';
  return fallback.charAt(0).toLowerCase() + fallback.slice(1);
}
