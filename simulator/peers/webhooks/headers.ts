// The rules for headers a customer adds to the webhooks sent to them: a number's webhookHeaders, an
// assignment link's, and the control plane's trigger to a fixed URL. Names start with "X-";
// X-Signature, X-Forwarded-* and X-Real-IP are the engine's and the proxies' own.
import { ApiError } from '../../core/errors.ts';

const RESERVED_HEADER = /^(x-signature|x-forwarded-.*|x-real-ip)$/i;

/** Refuses headers that break the rules, naming the field (`webhookHeaders.X-Foo`). */
export function checkWebhookHeaders(headers: Record<string, string>, field = 'webhookHeaders'): void {
  const entries = Object.entries(headers);
  const fail = (key: string, message: string): never => {
    throw ApiError.validation(`${field}: ${message}`, [{ path: `${field}.${key}`, message }]);
  };
  if (entries.length > 10) fail('', `at most 10 headers, got ${entries.length}`);
  for (const [k, v] of entries) {
    if (!/^x-/i.test(k)) fail(k, `header "${k}" must start with "X-"`);
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(k)) fail(k, `header name "${k}" has characters not allowed in a header name`);
    if (RESERVED_HEADER.test(k)) fail(k, `header "${k}" is reserved`);
    if (Buffer.byteLength(k) > 64) fail(k, `header name "${k}" is longer than 64 bytes`);
    if (Buffer.byteLength(v) > 2048) fail(k, `value of "${k}" is longer than 2048 bytes`);
    if (!/^[\x20-\x7e]*$/.test(v)) fail(k, `value of "${k}" must be printable ASCII`);
  }
}
