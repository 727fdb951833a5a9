// Small builders for the kit's file formats (scenarios, target files, the clause catalogue),
// written with TypeBox as the simulator's schemas are. Each format is described once, in
// conformance/schema/: the TypeScript types are its `Static`, the published JSON Schema files
// and the reference tables in docs/ are generated from it (conformance/schema/generate.ts).
import { Type, type SchemaOptions, type Static, type TProperties, type TSchema } from '@sinclair/typebox';

/** An object that takes only the keys it lists. */
export function Strict<T extends TProperties>(properties: T, options: SchemaOptions = {}) {
  return Type.Object(properties, { additionalProperties: false, ...options });
}

/** An optional key. */
export const Opt = Type.Optional;

/** A map from any key to values of one shape (`operations: { <operationId>: { ... } }`). */
export function MapOf<T extends TSchema>(values: T, options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, Static<T>>>({ type: 'object', additionalProperties: values, ...options });
}

/** One of fixed strings (JSON Schema `enum`, whose errors list the allowed values). */
export function Enum<const V extends readonly string[]>(values: V, options: SchemaOptions = {}) {
  return Type.Unsafe<V[number]>({ type: 'string', enum: [...values], ...options });
}

/** Any JSON object (matchers, bodies, free maps). */
export function AnyObject(options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, unknown>>({ type: 'object', ...options });
}

/** An object of string values. */
export function StringMap(options: SchemaOptions = {}) {
  return Type.Unsafe<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' }, ...options });
}

/**
 * Exactly one of several shapes, told apart by the key each requires (`request`, `control`...).
 * Written as `oneOf` on the key plus `if`/`then` per shape, so that a validator reports the
 * problems of the shape a value chose rather than of every shape.
 */
export function Tagged<const T extends readonly { key: string; schema: TSchema }[]>(variants: T, options: SchemaOptions = {}) {
  return Type.Unsafe<Static<T[number]['schema']>>({
    type: 'object',
    ...options,
    oneOf: variants.map((v) => ({ required: [v.key] })),
    allOf: variants.map((v) => ({ if: { required: [v.key] }, then: v.schema })),
  });
}

/** The schema as plain JSON (TypeBox's own markers are symbols, which JSON leaves out). */
export function plainJson(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}
