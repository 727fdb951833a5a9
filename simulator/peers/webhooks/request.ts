// The HTTP request of one delivery attempt, built from the event's form fields: a form-encoded
// POST (spec "Events": `application/x-www-form-urlencoded`), or for a number whose
// webhookMethod is GET the same fields in the query string; always signed (core/signing.ts).
// Pure: the same fields, URL and key give byte-identical requests.
import { SIGNATURE_HEADER, computeSignature } from '../../core/signing.ts';
import type { DeliveryMethod } from './schema.ts';

export const USER_AGENT = 'platform-simulator-webhooks/0.1';
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface OutgoingRequest {
  method: DeliveryMethod;
  /** Exactly the URL requested and signed, query string included. */
  url: string;
  /** In the order sent. */
  headers: Record<string, string>;
  /** The form body; "" for GET. */
  body: string;
}

/**
 * An event payload as form fields: strings as they are, numbers and booleans as text, objects
 * and arrays as JSON text (so `Variables` travels as a JSON string), null and undefined left out.
 */
export function toFormFields(payload: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(payload)) {
    if (v === undefined || v === null) continue;
    out.push([k, typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v)]);
  }
  return out;
}

export function buildRequest(args: {
  url: string;
  method: DeliveryMethod;
  fields: readonly (readonly [string, string])[];
  /** The receiver's own extra headers (a number's webhookHeaders). */
  headers: Readonly<Record<string, string>>;
  signingKey: string;
}): OutgoingRequest {
  const u = new URL(args.url);
  if (args.method === 'GET') {
    for (const [k, v] of args.fields) u.searchParams.append(k, v);
    // The fields are in the URL now; the signature covers the URL alone.
    return {
      method: 'GET',
      url: u.href,
      headers: { 'User-Agent': USER_AGENT, ...args.headers, [SIGNATURE_HEADER]: computeSignature(args.signingKey, u.href) },
      body: '',
    };
  }
  return {
    method: 'POST',
    url: u.href,
    headers: {
      'Content-Type': FORM_CONTENT_TYPE,
      'User-Agent': USER_AGENT,
      ...args.headers,
      [SIGNATURE_HEADER]: computeSignature(args.signingKey, u.href, args.fields),
    },
    body: new URLSearchParams(args.fields.map(([k, v]): [string, string] => [k, v])).toString(),
  };
}
