// application/x-www-form-urlencoded request bodies for the operations that accept them (the
// public API document lists form encoding for createCall). Form fields are strings; they are
// converted to the body schema's types here, then the body goes through the same schema
// validation as a JSON body, so both encodings give the same resource and the same 400s.
//   integer/number: a decimal numeral; boolean: "true"/"false"; array: every repetition of the
//   key; object: a JSON object string (the reference's encoding of Variables and CallContext);
//   string: one value, or for `spaceLists` fields the repetitions joined by spaces
//   (StatusCallbackEvent=initiated&StatusCallbackEvent=completed is "initiated completed");
//   a field of any type (no `type` in its schema): one value as it is, repetitions as a list.
// A value that cannot be converted is left as the string it is, so validation names the field.
import type { TSchema } from '@sinclair/typebox';
import { ApiError } from './errors.ts';

export function isFormType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

interface SchemaShape {
  type?: string | string[];
  properties?: Record<string, SchemaShape>;
  anyOf?: SchemaShape[];
}

/** The JSON type a property is converted to: the first non-null type of the schema. */
function targetType(schema: SchemaShape | undefined): string | undefined {
  if (!schema) return undefined;
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  for (const branch of schema.anyOf ?? []) {
    const t = targetType(branch);
    if (t && t !== 'null') return t;
  }
  return undefined;
}

function convertOne(type: string | undefined, value: string): unknown {
  switch (type) {
    case 'integer':
    case 'number':
      return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
    case 'boolean':
      return value === 'true' ? true : value === 'false' ? false : value;
    case 'object': {
      try {
        const parsed: unknown = JSON.parse(value);
        return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : value;
      } catch {
        return value; // validation reports "must be object" at the field
      }
    }
    default:
      return value;
  }
}

/** The form body as an object shaped for the schema; keys unknown to it are kept for validation to refuse. */
export function formToBody(text: string, schema: TSchema, spaceLists: readonly string[] = []): Record<string, unknown> {
  const props = (schema as SchemaShape).properties ?? {};
  const params = new URLSearchParams(text);
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    const type = targetType(props[key]);
    if (type === 'array') {
      const items = (props[key] as { items?: SchemaShape }).items;
      out[key] = values.map((v) => convertOne(targetType(items), v));
    } else if (values.length > 1 && type === undefined && key in props) {
      out[key] = values; // a field of any type: its repetitions are the list a form can say
    } else if (values.length > 1 && spaceLists.includes(key)) {
      out[key] = values.join(' ');
    } else if (values.length > 1) {
      throw ApiError.validation(`request body is invalid: ${key} is given ${values.length} times`, [{ path: key, message: 'must be given once' }]);
    } else {
      out[key] = convertOne(type, values[0]!);
    }
  }
  return out;
}
