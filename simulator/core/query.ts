// Query strings: parsed into a multi-map, then coerced parameter by parameter according to the
// operation's declared schemas (integer, boolean, string, or an array for repeatable keys),
// then validated against those same schemas. Undeclared parameters are ignored.
import type { TSchema } from '@sinclair/typebox';
import { ApiError, type FieldError } from './errors.ts';
import { isRequiredParam, schemaErrors } from './schema.ts';

export type RawQuery = Map<string, string[]>;

export function parseQueryString(qs: string): RawQuery {
  const out: RawQuery = new Map();
  if (!qs) return out;
  for (const [k, v] of new URLSearchParams(qs)) {
    const list = out.get(k);
    if (list) list.push(v);
    else out.set(k, [v]);
  }
  return out;
}

function scalarType(schema: TSchema): string | undefined {
  const s = schema as { type?: unknown; anyOf?: TSchema[] };
  if (typeof s.type === 'string') return s.type;
  if (s.anyOf) return s.anyOf.map(scalarType).find((t) => t && t !== 'null');
  return undefined;
}

function coerceScalar(name: string, text: string, type: string | undefined, errors: FieldError[]): unknown {
  switch (type) {
    case 'integer':
      if (!/^[+-]?\d+$/.test(text.trim())) {
        errors.push({ path: name, message: `must be an integer, got "${text}"` });
        return undefined;
      }
      return Number(text.trim());
    case 'number':
      if (text.trim() === '' || !Number.isFinite(Number(text))) {
        errors.push({ path: name, message: `must be a number, got "${text}"` });
        return undefined;
      }
      return Number(text);
    case 'boolean':
      if (text === 'true') return true;
      if (text === 'false') return false;
      errors.push({ path: name, message: `must be true or false, got "${text}"` });
      return undefined;
    default:
      return text;
  }
}

/** Coerces and validates the declared parameters; throws 400 VALIDATION naming each bad one. */
export function coerceQuery(raw: RawQuery, declared: Record<string, TSchema>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const [name, schema] of Object.entries(declared)) {
    const values = raw.get(name);
    if (!values) {
      if (isRequiredParam(schema)) errors.push({ path: name, message: 'is required' });
      continue;
    }
    if ((schema as { type?: unknown }).type === 'array') {
      const items = (schema as unknown as { items: TSchema & { enum?: unknown[] } }).items;
      const itemType = scalarType(items);
      const listed = values.find((v) => v.includes(',') && !(items.enum ?? []).includes(v));
      if (listed !== undefined && items.enum) {
        // A repeatable parameter takes one value per occurrence; a typo must not pass silently.
        errors.push({ path: name, message: `takes one value per occurrence; repeat it (${name}=a&${name}=b) instead of "${listed}"` });
        continue;
      }
      out[name] = values.map((v) => coerceScalar(name, v, itemType, errors));
    } else {
      if (values.length > 1) {
        errors.push({ path: name, message: `was given ${values.length} times; give it once` });
        continue;
      }
      out[name] = coerceScalar(name, values[0]!, scalarType(schema), errors);
    }
  }
  if (errors.length === 0) {
    for (const [name, schema] of Object.entries(declared)) {
      if (out[name] === undefined) continue;
      errors.push(...schemaErrors(schema, out[name], name));
    }
  }
  if (errors.length > 0) {
    const first = errors[0]!;
    throw ApiError.validation(`query parameter ${first.path} ${first.message}`, errors);
  }
  return out;
}
