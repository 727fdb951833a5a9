// The kit's own X-Signature verifier, written from the reference facts (the official SDK's
// verifier, public-sdk-facts.md section 5) and docs/decisions.md "Signing scheme", and on
// purpose not shared with the simulator: a signing bug there must show here as a failure.
//
// Signature = standard Base64 (padded) of HMAC-SHA256(signing key as UTF-8, S), where S is the
// URL exactly as requested, then every form field as key followed by value, no separators,
// ordered by key in Unicode code-point order (equal keys keep their order of arrival). A GET
// delivery carries its fields in the URL, so S is the URL alone.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Signature';

/** The fields of an application/x-www-form-urlencoded body, in order, repeated keys kept. */
export function formFields(body: string): [string, string][] {
  return [...new URLSearchParams(body)];
}

/** Orders two keys by code point. JavaScript's `<` compares UTF-16 units, which differs above U+FFFF. */
function byCodePoint(a: string, b: string): number {
  const x = Array.from(a, (ch) => ch.codePointAt(0)!);
  const y = Array.from(b, (ch) => ch.codePointAt(0)!);
  for (let i = 0; i < x.length && i < y.length; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** The text the HMAC covers. Array.prototype.sort is stable, so equal keys keep their order. */
export function stringToSign(url: string, fields: readonly (readonly [string, string])[]): string {
  const sorted = [...fields].sort((p, q) => byCodePoint(p[0], q[0]));
  return url + sorted.map(([k, v]) => k + v).join('');
}

/** The signature a correct sender puts in X-Signature. */
export function expectedSignature(signingKey: string, url: string, fields: readonly (readonly [string, string])[]): string {
  const mac = createHmac('sha256', Buffer.from(signingKey, 'utf8'));
  mac.update(Buffer.from(stringToSign(url, fields), 'utf8'));
  return mac.digest('base64');
}

export interface SignedRequest {
  /** The public URL the request was sent to, query string included. */
  url: string;
  method: string;
  /** The raw body, unparsed. */
  body: string;
  /** The X-Signature header as received. */
  signature: string | undefined;
}

/** Whether the request's X-Signature is the one the signing key gives; compared in constant time. */
export function signatureMatches(signingKey: string, req: SignedRequest): boolean {
  if (!req.signature) return false;
  const method = req.method.toUpperCase();
  const fields = method === 'GET' || method === 'HEAD' ? [] : formFields(req.body);
  const want = Buffer.from(expectedSignature(signingKey, req.url, fields), 'utf8');
  const got = Buffer.from(req.signature.trim(), 'utf8');
  return want.length === got.length && timingSafeEqual(want, got);
}
