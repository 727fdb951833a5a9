// Webhook signatures (spec Authentication 8; scheme after the official SDK's verifier, see
// docs/decisions.md "Webhooks"). The X-Signature header is the standard Base64 of
// HMAC-SHA256(signing key, string to sign), where the string to sign is the request URL exactly
// as sent (with its query string) followed by every form field of the body, sorted by key in
// code-point order, each written as key then value with no separator. A GET delivery carries
// its fields in the query string, which is part of the URL, so it signs the URL alone.
//
// Customers import these functions in their receivers and the simulator signs with them. The
// conformance kit checks with its own implementation (conformance/checks/signature.ts), so a bug
// here shows there.
import { createHmac, timingSafeEqual } from './node-crypto.ts';

export const SIGNATURE_HEADER = 'X-Signature';

/** Form fields as a map, or as ordered pairs when a key may repeat. */
export type FormFields = Readonly<Record<string, string>> | Iterable<readonly [string, string]>;

function pairsOf(fields: FormFields | undefined): [string, string][] {
  if (fields === undefined) return [];
  if (Symbol.iterator in fields) return [...(fields as Iterable<readonly [string, string]>)].map(([k, v]) => [k, v]);
  return Object.entries(fields as Record<string, string>);
}

/** Compares by Unicode code point (what "plain code-point order" means), not UTF-16 unit. */
function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/**
 * The string the signature covers. Repeated keys (never sent by the simulator) are all
 * included, in key order and, for equal keys, in the order they appear (a stable sort).
 */
export function signatureBase(url: string, fields?: FormFields): string {
  const pairs = pairsOf(fields).sort((a, b) => compareCodePoints(a[0], b[0]));
  let out = url;
  for (const [k, v] of pairs) out += k + v;
  return out;
}

/** The X-Signature value for a request to `url` with these form fields. */
export function computeSignature(signingKey: string, url: string, fields?: FormFields): string {
  return createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(signatureBase(url, fields), 'utf8').digest('base64');
}

/** True when `signature` is the X-Signature of this URL and these fields; constant-time compare. */
export function verifySignature(signingKey: string, url: string, fields: FormFields | undefined, signature: string | undefined | null): boolean {
  if (typeof signature !== 'string' || signature === '') return false;
  const expected = Buffer.from(computeSignature(signingKey, url, fields), 'utf8');
  const given = Buffer.from(signature.trim(), 'utf8');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** Decodes an application/x-www-form-urlencoded body into ordered pairs (repeated keys kept). */
export function parseFormBody(body: string | Uint8Array): [string, string][] {
  const text = typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
  return [...new URLSearchParams(text)];
}

export interface WebhookRequestToVerify {
  signingKey: string;
  /**
   * The full public URL the request was sent to, with its query string: for a receiver behind
   * a proxy, the URL registered with the platform, not the one the proxy forwards to.
   */
  url: string;
  /** HTTP method; GET requests are verified on the URL alone. Default POST. */
  method?: string;
  /** The raw body, unparsed (form encoded for POST). */
  body?: string | Uint8Array;
  /** The X-Signature header value. */
  signature: string | undefined | null;
}

/** Verifies a received webhook from its raw parts: what a receiver calls first. */
export function verifyWebhookRequest(req: WebhookRequestToVerify): boolean {
  const method = (req.method ?? 'POST').toUpperCase();
  const fields = method === 'GET' || method === 'HEAD' || req.body === undefined ? [] : parseFormBody(req.body);
  return verifySignature(req.signingKey, req.url, fields, req.signature);
}
