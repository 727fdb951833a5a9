// Requests for one operation of the document: valid ones (every parameter and the body accepted
// by the document's validator) and invalid ones (one mutation the validator rejects), and their
// wire form. Parameters, form fields and multipart parts travel as text, so each is judged the
// way a server reads it: the text read back by its schema's type (an integer parameter "7" is 7,
// a form field whose encoding is JSON is its parsed text).
import fc from 'fast-check';
import { mutationsOf } from './mutations.ts';
import { valueArb, type Document, type Schema } from './values.ts';
import type { DocOperation, Media } from './operations.ts';

export interface GeneratedRequest {
  params: Record<string, string>;
  query: Record<string, unknown>;
  headers?: Record<string, string>;
  body?: { media: string; value: unknown };
  /** For an invalid request: the mutation that broke it. */
  broken?: string;
}

export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

type Check = (schema: Schema, value: unknown) => boolean;

const querySchemas = new WeakMap<DocOperation, Schema>();

/** The object schema of an operation's query parameters together (one object per operation, so the validator compiles it once). */
function querySchema(op: DocOperation): Schema {
  let schema = querySchemas.get(op);
  if (!schema) {
    const qs = op.params.filter((p) => p.in === 'query');
    schema = { type: 'object', properties: Object.fromEntries(qs.map((p) => [p.name, p.schema])), required: qs.filter((p) => p.required).map((p) => p.name) };
    querySchemas.set(op, schema);
  }
  return schema;
}

function typeOf(schema: Schema | undefined, doc: Document): string | undefined {
  if (!schema) return undefined;
  const s = schema.$ref ? doc.components!.schemas![schema.$ref.replace('#/components/schemas/', '')]! : schema;
  if (typeof s.type === 'string') return s.type;
  for (const b of (s.anyOf ?? s.oneOf ?? []) as Schema[]) {
    const t = typeOf(b, doc);
    if (t && t !== 'null') return t;
  }
  return undefined;
}

/** A scalar as text on the wire. */
function text(v: unknown): string {
  return typeof v === 'string' ? v : v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** Text read back as a value of `type`, the way a server reads parameters and form fields. */
function readBack(raw: string, type: string | undefined): unknown {
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (type === 'boolean' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (type === 'object') {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

/** A flat object (query, form, multipart fields) as the server reads its text back. */
export function asRead(schema: Schema, value: Record<string, unknown>, doc: Document): Record<string, unknown> {
  const props: Record<string, Schema> = schema.properties ?? {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const type = typeOf(props[k], doc);
    // An exploded list field is one occurrence per item, so a single value reads as a list of one.
    if (type === 'array') out[k] = (Array.isArray(v) ? v : [v]).map((item) => readBack(text(item), typeOf(props[k]!.items, doc)));
    // A list given to a single-valued field travels as repeated occurrences: none is no field, one
    // is that value, more cannot be read as one value (kept as a list, which the schema refuses).
    else if (Array.isArray(v) && v.length === 0) continue;
    else if (Array.isArray(v) && v.length === 1) out[k] = readBack(text(v[0]), type);
    else out[k] = Array.isArray(v) ? v : readBack(text(v), type);
  }
  return out;
}

function flat(media: Media | undefined): boolean {
  return Boolean(media && media.type !== 'application/json');
}

/** Whether the document accepts the request as it reaches the server. */
export function documentAccepts(op: DocOperation, req: GeneratedRequest, check: Check, doc: Document): boolean {
  for (const p of op.params.filter((x) => x.in === 'path')) {
    if (!check(p.schema, readBack(req.params[p.name] ?? '', typeOf(p.schema, doc)))) return false;
  }
  if (!check(querySchema(op), asRead(querySchema(op), req.query, doc))) return false;
  for (const p of op.params.filter((x) => x.in === 'header')) {
    const v = req.headers?.[p.name];
    if (v === undefined ? p.required : !check(p.schema, v)) return false;
  }
  if (!req.body) return !op.body?.required;
  const media = op.body?.media.find((m) => m.type === req.body!.media);
  if (!media) return false;
  const value = flat(media) && req.body.value && typeof req.body.value === 'object' ? asRead(media.schema, req.body.value as Record<string, unknown>, doc) : req.body.value;
  return check(media.schema, value);
}

/** Path parameter values: the document's examples for the name (any operation's), else generated. */
export function pathValues(ops: DocOperation[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const op of ops) {
    for (const p of op.params.filter((x) => x.in === 'path')) {
      const list = out.get(p.name) ?? [];
      for (const v of Object.values(p.examples)) if (!list.includes(String(v))) list.push(String(v));
      out.set(p.name, list);
    }
  }
  return out;
}

/** Candidate requests for `op` (checked by the caller with documentAccepts). */
export function requestArb(op: DocOperation, doc: Document, known: Map<string, string[]>): fc.Arbitrary<GeneratedRequest> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.params.filter((x) => x.in === 'path')) {
    const own = Object.values(p.examples).map(String);
    const seen = own.length > 0 ? own : (known.get(p.name) ?? []);
    const generated = valueArb(p.schema, doc).map(text);
    params[p.name] = seen.length > 0 ? fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...seen) }, { weight: 1, arbitrary: generated }) : generated;
  }
  const exampleQueries = collectExamples(op.params.filter((p) => p.in === 'query'));
  const query = fc.oneof(
    { weight: 3, arbitrary: valueArb(querySchema(op), doc) as fc.Arbitrary<Record<string, unknown>> },
    ...(exampleQueries.length > 0 ? [{ weight: 1, arbitrary: fc.constantFrom(...exampleQueries) }] : []),
  );
  const bodies = (op.body?.media ?? []).map((m) => {
    const examples = Object.values(m.examples).map((e) => e.value);
    const generated = valueArb(m.schema, doc);
    const value = examples.length > 0 ? fc.oneof({ weight: 3, arbitrary: generated }, { weight: 1, arbitrary: fc.constantFrom(...examples) }) : generated;
    return value.map((v) => ({ media: m.type, value: v }));
  });
  const body = bodies.length === 0 ? fc.constant(undefined) : op.body!.required ? fc.oneof(...bodies) : fc.option(fc.oneof(...bodies), { nil: undefined, freq: 4 });
  const headers: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.params.filter((x) => x.in === 'header')) {
    const own = Object.values(p.examples).map(String);
    headers[p.name] = own.length > 0 ? fc.constantFrom(...own) : valueArb(p.schema, doc).map(text);
  }
  return fc.record({ params: fc.record(params), query, headers: fc.record(headers), body }).map((r) => (r.body === undefined ? { params: r.params, query: r.query, headers: r.headers } : r));
}

function collectExamples(qs: { name: string; examples: Record<string, unknown> }[]): Record<string, unknown>[] {
  const names = new Set(qs.flatMap((p) => Object.keys(p.examples)));
  return [...names].map((n) => Object.fromEntries(qs.filter((p) => p.examples[n] !== undefined).map((p) => [p.name, p.examples[n]])));
}

/** One-spot mutations of a valid request: its query, its JSON or flat body, a missing required body. */
export function invalidCandidates(op: DocOperation, req: GeneratedRequest, doc: Document): { what: string; request: GeneratedRequest }[] {
  const out: { what: string; request: GeneratedRequest }[] = [];
  const plain = (v: unknown): v is Record<string, unknown> => Boolean(v) && typeof v === 'object' && !Array.isArray(v);
  // A query string and a form are always a set of named fields: only their fields can break.
  for (const m of mutationsOf(querySchema(op), req.query, doc)) {
    const query = m.apply(req.query);
    if (plain(query)) out.push({ what: `query ${m.what}`, request: { ...req, query } });
  }
  for (const p of op.params.filter((x) => x.in === 'path')) {
    for (const m of mutationsOf(p.schema, req.params[p.name], doc)) {
      const v = m.apply(req.params[p.name]);
      if (typeof v === 'string' && v !== '') out.push({ what: `path ${p.name} ${m.what}`, request: { ...req, params: { ...req.params, [p.name]: v } } });
    }
  }
  if (req.body) {
    const media = op.body!.media.find((m) => m.type === req.body!.media)!;
    for (const m of mutationsOf(media.schema, req.body.value, doc)) {
      const value = m.apply(req.body.value);
      if (media.type === 'application/json' || plain(value)) out.push({ what: `body ${m.what}`, request: { ...req, body: { media: media.type, value } } });
    }
  }
  if (op.body?.required) out.push({ what: 'the required body missing', request: { params: req.params, query: req.query, headers: req.headers } });
  return out;
}

function encodeQuery(query: Record<string, unknown>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) qs.append(k, text(item));
    else qs.append(k, text(v));
  }
  const s = qs.toString();
  return s ? `?${s}` : '';
}

/** Bytes of a 1x1 PNG: what an image part of a multipart body carries. */
const PNG = Uint8Array.from(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
/** Bytes of a WAV file (8 kHz mono PCM, 8 silent samples): what an audio part carries. */
const WAV = Uint8Array.from(Buffer.from('UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA', 'base64'));

const startsWith = (b: Uint8Array, ...sig: number[]) => sig.every((x, i) => b[i] === x);

/**
 * A file part, by the part's declared encoding: an image or audio part carries the value's
 * base64 bytes when they are of that kind (the examples' files), else the sample above; a text
 * part carries the value itself as a UTF-8 .txt file.
 */
function filePart(declared: string, v: string): File {
  const bytes = Uint8Array.from(Buffer.from(v, 'base64'));
  if (declared.startsWith('image/')) {
    const image = startsWith(bytes, 0x89, 0x50) || startsWith(bytes, 0xff, 0xd8);
    return new File([image ? bytes : PNG], 'image.png', { type: 'image/png' });
  }
  if (declared.startsWith('audio/')) return new File([startsWith(bytes, 0x52, 0x49, 0x46, 0x46) ? bytes : WAV], 'clip.wav', { type: 'audio/wav' });
  return new File([v], 'document.txt', { type: 'text/plain' });
}

async function multipart(value: Record<string, unknown>, media: Media): Promise<{ body: Uint8Array; type: string }> {
  const form = new FormData();
  for (const [k, v] of Object.entries(value)) {
    const declared = media.encoding[k]?.contentType;
    // A file part holds bytes; a value that is not a string cannot be one, so it travels as a plain field.
    if (declared && typeof v === 'string') form.append(k, filePart(declared, v));
    // A list travels as repeated fields, as in a query (asRead reads it back the same way).
    else for (const item of Array.isArray(v) ? v : [v]) form.append(k, text(item));
  }
  const res = new Response(form);
  return { body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type')! };
}

/** The request on the wire; `auth` is the Authorization header to send, if any. */
export async function toWire(op: DocOperation, req: GeneratedRequest, auth: string | undefined): Promise<WireRequest> {
  let path = op.path;
  for (const [k, v] of Object.entries(req.params)) path = path.replace(`{${k}}`, encodeURIComponent(v));
  const headers: Record<string, string> = { ...req.headers, ...(auth ? { authorization: auth } : {}) };
  const wire: WireRequest = { method: op.method, url: path + encodeQuery(req.query), headers };
  if (!req.body) return wire;
  const media = op.body!.media.find((m) => m.type === req.body!.media)!;
  const value = req.body.value;
  if (media.type === 'application/json') {
    headers['content-type'] = 'application/json';
    wire.body = JSON.stringify(value);
  } else if (media.type === 'application/x-www-form-urlencoded') {
    headers['content-type'] = media.type;
    wire.body = encodeQuery(value as Record<string, unknown>).slice(1);
  } else if (media.type === 'multipart/form-data') {
    const m = await multipart(value as Record<string, unknown>, media);
    headers['content-type'] = m.type;
    wire.body = m.body;
  } else {
    throw new Error(`${op.operationId}: no encoder for ${media.type}`);
  }
  return wire;
}
