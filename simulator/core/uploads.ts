// Request bodies that may be JSON or a multipart form (knowledge documents, voice clones): which
// one came, parsed. Multipart goes through undici's WHATWG form parser (no hand-written MIME
// code); JSON is checked against its schema with errors naming the field.
import type { TSchema } from '@sinclair/typebox';
import { ApiError } from './errors.ts';
import { header, type SimRequest } from './operation.ts';
import { validate } from './schema.ts';

export type Upload = { kind: 'json'; value: unknown } | { kind: 'form'; form: FormData };

/** The body as JSON (validated against `schema`) or as a multipart form. */
export async function readUpload(req: SimRequest, schema: TSchema, what: string): Promise<Upload> {
  const contentType = header(req, 'content-type') ?? '';
  const raw = req.body ?? '';
  if (/^multipart\/form-data\s*;/i.test(contentType)) {
    try {
      return { kind: 'form', form: await new Response(raw, { headers: { 'content-type': contentType } }).formData() };
    } catch {
      throw ApiError.validation('the multipart body does not parse', [{ path: '', message: 'malformed multipart/form-data' }]);
    }
  }
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(contentType)) {
    throw ApiError.validation(`send application/json or multipart/form-data, not ${contentType || 'no content type'}`, [{ path: '', message: 'unsupported content type' }]);
  }
  const text = typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw ApiError.validation('the body is not valid JSON', [{ path: '', message: 'invalid JSON' }]);
  }
  validate(schema, value, what);
  return { kind: 'json', value };
}

/** A text field of a form, or null when absent; a file where text belongs is refused. */
export function formText(form: FormData, name: string): string | null {
  const v = form.get(name);
  if (v === null) return null;
  if (typeof v !== 'string') throw ApiError.validation(`${name} must be a text field, not a file`, [{ path: name, message: 'not a text field' }]);
  return v;
}

/** A file part of a form, or null when absent; text where a file belongs is refused. */
export async function formFile(form: FormData, name: string): Promise<{ name: string; bytes: Uint8Array } | null> {
  const v = form.get(name);
  if (v === null) return null;
  if (typeof v === 'string') throw ApiError.validation(`${name} must be a file part`, [{ path: name, message: 'not a file' }]);
  return { name: v.name, bytes: new Uint8Array(await v.arrayBuffer()) };
}

/** Fields a form may carry; any other is refused (the document's schemas allow no extra properties). */
export function onlyFields(form: FormData, allowed: readonly string[]): void {
  for (const key of new Set(form.keys())) {
    if (!allowed.includes(key)) throw ApiError.validation(`${key} is not a known field`, [{ path: key, message: 'is not a known field' }]);
  }
  for (const key of allowed) {
    if (form.getAll(key).length > 1) throw ApiError.validation(`${key} is given more than once`, [{ path: key, message: 'repeated' }]);
  }
}
