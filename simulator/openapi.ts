// Builds the OpenAPI 3.1 document from the operation declarations: the schemas that validate
// requests are the schemas documented here. Each operation carries `x-origin` (spec, reference,
// simulator) so a reader knows whether the interface spec shows it or the simulator chose it.
import type { TSchema } from '@sinclair/typebox';
import { errorCatalogue, errorCodes, type ErrorCodeInfo } from './core/errors.ts';
import type { Operation, OperationExample } from './core/operation.ts';
import { ErrorBodySchema } from './core/error-schema.ts';
import { ruleEntries } from './core/schema-rules.ts';

type Json = Record<string, unknown>;

export const API_TITLE = 'Voice, Messaging, SIP and Email-Domain Platform (simulator)';
export const API_VERSION = '0.1.0';

/** Copies a schema to plain JSON, hoisting every `$id` schema into components. */
function hoist(schema: unknown, components: Record<string, Json>): unknown {
  if (Array.isArray(schema)) return schema.map((s) => hoist(s, components));
  if (!schema || typeof schema !== 'object') return schema;
  const src = schema as Json;
  const out: Json = {};
  for (const k of Object.keys(src)) {
    if (k === '$id') continue;
    out[k] = hoist(src[k], components);
  }
  // Rules across fields (core/schema-rules.ts) are stated as allOf entries beside the schema's own.
  const rules = ruleEntries(src);
  if (rules.length > 0) out.allOf = [...((out.allOf as unknown[]) ?? []), ...rules];
  const id = src.$id;
  if (typeof id === 'string') {
    const existing = components[id];
    const text = JSON.stringify(out);
    if (existing && JSON.stringify(existing) !== text) throw new Error(`two different schemas share $id ${id}`);
    components[id] = out;
    return { $ref: `#/components/schemas/${id}` };
  }
  return out;
}

function paramDoc(name: string, where: 'path' | 'query' | 'header', schema: TSchema, components: Record<string, Json>, examples: readonly OperationExample[]): Json {
  const s = hoist(schema, components) as Json;
  // `required` of a query parameter is carried on its schema as `x-required` (core/schema.ts RequiredParam).
  const { description, deprecated, 'x-required': required, ...rest } = s;
  // An empty path segment routes elsewhere (`/numbers/` is not `/numbers/{number}`), so a path parameter is never empty.
  const schemaDoc = where === 'path' && rest.type === 'string' && rest.minLength === undefined && rest.enum === undefined && rest.pattern === undefined ? { ...rest, minLength: 1 } : rest;
  const doc: Json = { name, in: where, required: where === 'path' || required === true, schema: schemaDoc };
  if (description) doc.description = description;
  if (deprecated) doc.deprecated = true;
  if (rest.type === 'array') Object.assign(doc, { style: 'form', explode: true });
  const given = (e: OperationExample) => (where === 'path' ? e.params : where === 'query' ? e.query : e.headers)?.[name];
  const shown = examples.filter((e) => given(e) !== undefined);
  if (shown.length > 0) doc.examples = Object.fromEntries(shown.map((e) => [e.name, { summary: e.summary, value: given(e) }]));
  return doc;
}

/** Form fields whose schema is an object travel as JSON text (core/form-body.ts parses them). */
function formEncoding(body: TSchema): Json | undefined {
  const props = (body as { properties?: Record<string, { type?: unknown; anyOf?: { type?: unknown }[] }> }).properties ?? {};
  const json = Object.entries(props).filter(([, p]) => p.type === 'object' || p.anyOf?.some((b) => b.type === 'object'));
  return json.length > 0 ? Object.fromEntries(json.map(([k]) => [k, { contentType: 'application/json' }])) : undefined;
}

/** The request body of `op`, its examples under the media type they are sent in. */
function requestBodyDoc(op: Operation, components: Record<string, Json>): Json | undefined {
  const content: Record<string, Json> = {};
  if (op.body) {
    const schema = hoist(op.body, components);
    content['application/json'] = { schema };
    // Form bodies are the same schema: form-body.ts converts the fields before validation.
    if (op.bodyEncodings?.includes('form')) {
      const encoding = formEncoding(op.body);
      content['application/x-www-form-urlencoded'] = { schema, ...(encoding ? { encoding } : {}) };
    }
  }
  for (const [type, part] of Object.entries(op.bodyDoc?.content ?? {})) {
    content[type] = { schema: hoist(part.schema, components), ...(part.encoding ? { encoding: part.encoding } : {}) };
  }
  const types = Object.keys(content);
  if (types.length === 0) {
    if (op.examples?.some((e) => e.body !== undefined)) throw new Error(`${op.operationId}: an example has a body, but the operation declares none`);
    return undefined;
  }
  for (const e of op.examples ?? []) {
    if (e.body === undefined) continue;
    const media = content[e.contentType ?? types[0]!];
    if (!media) throw new Error(`${op.operationId}: example ${e.name} is sent as ${e.contentType}, which the operation does not take`);
    media.examples = { ...(media.examples as Json), [e.name]: { summary: e.summary, value: e.body } };
  }
  return { required: Boolean(op.bodyRequired ?? op.bodyDoc?.required), content };
}

/** Error statuses an operation can answer, with the codes behind each. */
export function errorStatuses(op: Operation): Map<number, ErrorCodeInfo[]> {
  const out = new Map<number, ErrorCodeInfo[]>();
  const add = (info: ErrorCodeInfo) => {
    const list = out.get(info.status) ?? [];
    if (!list.some((i) => i.code === info.code)) list.push(info);
    out.set(info.status, list);
  };
  if (op.auth === 'account' || op.auth === 'key') {
    add(errorCodes.UNAUTHORIZED.info);
    add(errorCodes.OVERSEAS_IP_BLOCKED.info);
  }
  if (op.auth === 'account') add(errorCodes.FORBIDDEN.info);
  if (op.auth === 'control') add(errorCodes.UNAUTHORIZED.info);
  // A path parameter with a pattern or an enum is checked by its handler, with 400 VALIDATION.
  const checkedPath = Object.values(op.params ?? {}).some((s) => 'pattern' in (s as object) || 'enum' in (s as object));
  if (op.query || op.body || checkedPath) add(errorCodes.VALIDATION.info);
  if (op.body) {
    add(errorCodes.INVALID_JSON.info);
    add(errorCodes.PAYLOAD_TOO_LARGE.info);
    add(errorCodes.UNSUPPORTED_MEDIA_TYPE.info);
  }
  if (op.immutable) add(errorCodes.IMMUTABLE_FIELD.info);
  for (const e of op.errors ?? []) add(e.info);
  return out;
}

/** The document of `ops`; `tagDescriptions` describes every tag they use (the families declare them). */
export function buildOpenApi(ops: readonly Operation[], tagDescriptions: Readonly<Record<string, string>>, serverUrl = '/'): Json {
  const components: Record<string, Json> = {};
  const paths: Record<string, Json> = {};
  const tags = new Set<string>();
  hoist(ErrorBodySchema, components); // registers components.schemas.ErrorBody

  for (const op of ops) {
    tags.add(op.tag);
    const parameters: Json[] = [];
    const examples = op.examples ?? [];
    for (const [name, schema] of Object.entries(op.params ?? {})) parameters.push(paramDoc(name, 'path', schema as TSchema, components, examples));
    for (const [name, schema] of Object.entries(op.query ?? {})) parameters.push(paramDoc(name, 'query', schema as TSchema, components, examples));
    for (const [name, schema] of Object.entries(op.headerParams ?? {})) parameters.push(paramDoc(name, 'header', schema, components, examples));

    const responses: Json = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const doc: Json = { description: r.description };
      if (r.schema) doc.content = { [r.contentType ?? 'application/json']: { schema: hoist(r.schema, components) } };
      // A binary body (images) is documented by its media type alone, as OpenAPI 3.1 suggests.
      else if (r.contentType) doc.content = { [r.contentType]: {} };
      responses[status] = doc;
    }
    for (const [status, infos] of [...errorStatuses(op)].sort((a, b) => a[0] - b[0])) {
      responses[String(status)] = {
        description: infos.map((i) => `\`${i.code}\`: ${i.description}`).join(' '),
        'x-error-codes': infos.map((i) => i.code),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
      };
    }

    const doc: Json = {
      operationId: op.operationId,
      summary: op.summary,
      description: op.description ?? op.summary,
      tags: [op.tag],
      'x-origin': op.origin,
      ...(op.basis ? { 'x-basis': op.basis } : {}),
      ...(parameters.length ? { parameters } : {}),
    };
    const requestBody = requestBodyDoc(op, components);
    if (requestBody) doc.requestBody = requestBody;
    doc.responses = responses;
    if (op.auth === 'none') doc.security = [];
    if (op.auth === 'control') doc.security = [{}, { controlToken: [] }];

    const oapiPath = op.path;
    const item = (paths[oapiPath] ??= {});
    item[op.method.toLowerCase()] = doc;
  }

  const errorCodesDoc = errorCatalogue().map((e) => ({ code: e.code, status: e.status, origin: e.origin, description: e.description }));
  return {
    openapi: '3.1.0',
    info: {
      title: API_TITLE,
      version: API_VERSION,
      description:
        'The platform interface as served by the deterministic simulator. `x-origin` on each operation says whether the interface specification shows it (`spec`), it is shaped after the public API reference (`reference`), or the simulator chose it (`simulator`). `x-error-codes` lists every wire error code. Every GET operation also answers HEAD: the same status and headers, no body. Request bodies are limited to 1 MiB (413 `PAYLOAD_TOO_LARGE`), snapshots for PUT /_sim/state to 256 MiB, and nest at most 32 levels of arrays and objects (400 `VALIDATION` naming where). `x-error-code` on a schema names the code its handler answers when a value breaks it (instead of 400 `VALIDATION`); requests the HTTP parser refuses get the same error body with 400, 414, 431 or 501.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: 'This simulator' }],
    security: [{ bearerAuth: [] }],
    tags: [...tags].sort().map((name) => ({ name, description: tagDescriptions[name] ?? name })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'The account\'s API key: `Authorization: Bearer <API key>`.' },
        controlToken: { type: 'http', scheme: 'bearer', description: 'Only when the simulator runs with --control-token.' },
      },
      schemas: components,
    },
    'x-error-codes': errorCodesDoc,
  };
}
