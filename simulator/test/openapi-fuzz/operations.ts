// The operations of an OpenAPI document as the request generator needs them: method, path,
// parameters with their schemas and example values, the request body's media types, and the
// document's own validator (ajv, JSON Schema 2020-12 with formats) that judges generated
// requests. Everything comes from the document; nothing here knows the simulator.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { textHash } from '../../../conformance/cache-file.ts';
import { keptValidator } from '../../../conformance/contract/kept-validators.ts';
import type { Document, Schema } from './values.ts';

export interface Param {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  /** Example values by example name. */
  examples: Record<string, unknown>;
}

export interface Media {
  type: string;
  schema: Schema;
  encoding: Record<string, { contentType?: string }>;
  examples: Record<string, { summary?: string; value: unknown }>;
}

export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  description: string;
  control: boolean;
  params: Param[];
  body?: { required: boolean; media: Media[] };
  /** Statuses the document lists, with the error codes of each. */
  responses: Map<number, { codes: string[]; schema?: Schema; contentType?: string }>;
}

export interface FullDocument extends Document {
  paths: Record<string, Record<string, any>>;
}

/** Every description inside a schema, following its $refs once each. */
function descriptionsIn(schema: unknown, doc: FullDocument, seen = new Set<string>()): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s) => descriptionsIn(s, doc, seen));
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    if (seen.has(s.$ref)) return [];
    seen.add(s.$ref);
    return descriptionsIn(doc.components?.schemas?.[s.$ref.replace('#/components/schemas/', '')], doc, seen);
  }
  return Object.entries(s).flatMap(([k, v]) => (k === 'description' && typeof v === 'string' ? [v] : descriptionsIn(v, doc, seen)));
}

export function operationsOf(doc: FullDocument): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const params: Param[] = (op.parameters ?? []).map((p: any) => ({
        name: p.name,
        in: p.in,
        required: Boolean(p.required),
        schema: p.schema,
        examples: Object.fromEntries(Object.entries(p.examples ?? {}).map(([k, e]: [string, any]) => [k, e.value])),
      }));
      const content = op.requestBody?.content ?? {};
      const media: Media[] = Object.entries(content).map(([type, m]: [string, any]) => ({ type, schema: m.schema ?? {}, encoding: m.encoding ?? {}, examples: m.examples ?? {} }));
      const responses = new Map<number, { codes: string[]; schema?: Schema; contentType?: string }>();
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
        const [contentType, body] = Object.entries<any>(r.content ?? {})[0] ?? [];
        responses.set(Number(status), { codes: r['x-error-codes'] ?? [], schema: body?.schema, contentType });
      }
      out.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        description: [op.summary, op.description, ...(op.parameters ?? []).map((p: any) => p.description), ...media.flatMap((m) => descriptionsIn(m.schema, doc))].filter(Boolean).join(' '),
        control: path.startsWith('/_sim'),
        params,
        body: media.length > 0 ? { required: Boolean(op.requestBody.required), media } : undefined,
        responses,
      });
    }
  }
  return out;
}

// ajv-formats is published as CommonJS with a default export.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/**
 * Validators by the text of the components they resolve `$ref`s against: the examples and fuzz
 * tests read the same document (and openapi-examples.test.ts reads it twice), and compiling its
 * schemas was most of their CPU; one worker compiles each schema once.
 */
const validators = new Map<string, (schema: Schema, value: unknown) => boolean>();

/** The document's validator: `check(schema, value)` with `$ref`s resolved against its components. */
export function documentValidator(doc: FullDocument) {
  const key = JSON.stringify(doc.components ?? {});
  let found = validators.get(key);
  if (!found) validators.set(key, (found = newDocumentValidator(doc, key)));
  return found;
}

function newDocumentValidator(doc: FullDocument, componentsText: string) {
  // Made at the first schema whose validator is not kept between runs (kept-validators.ts).
  let ajv: Ajv2020 | undefined;
  const made = () => {
    // No optimising passes over the generated code (as the kit's validator, conformance/contract/validator.ts): they were about half the compile CPU, and the checks stay the same.
    ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, code: { optimize: false, source: true } });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components ?? {} });
    return ajv;
  };
  const componentsKey = textHash(componentsText);
  // By the schema object, then by its text: another reading of the same document brings equal schemas that are other objects.
  const cache = new WeakMap<object, ValidateFunction>();
  const byText = new Map<string, ValidateFunction>();
  const rewrite = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(rewrite);
    if (!s || typeof s !== 'object') return s;
    return Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? v.replace(/^#/, 'doc#') : rewrite(v)]));
  };
  const compile = (text: string, schema: Schema) =>
    keptValidator(`openapi-fuzz\0${componentsKey}\0${text}`, () => {
      const a = ajv ?? made();
      return { ajv: a, validate: a.compile(rewrite(schema) as Schema) };
    });
  return (schema: Schema, value: unknown): boolean => {
    let fn = cache.get(schema as object);
    if (!fn) {
      const text = JSON.stringify(schema);
      fn = byText.get(text);
      if (!fn) byText.set(text, (fn = compile(text, schema)));
      cache.set(schema as object, fn);
    }
    return fn(value) as boolean;
  };
}
