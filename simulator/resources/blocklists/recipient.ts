// What a blocked-recipient entry names: a phone number (call and message channels, stored in
// domestic notation, spec Conventions 4) or, since the real service added the email channel
// (docs/compatibility.md), an email address stored lowercased. One function per direction so the
// create body, the list filter and the control-plane intake agree on the same value.
import { ApiError } from '../../core/errors.ts';
import { normalizePhone } from '../../core/phone.ts';
import { HOST_NAME, parseDomainName } from '../../core/domain.ts';

export type Channel = 'call' | 'message' | 'email';

/** RFC 5321 4.5.3.1: 64 octets of local part, 254 for the whole path. */
const MAX_LOCAL = 64;
const MAX_ADDRESS = 254;
// The dot-atom form of RFC 5322 3.2.3 (no quoted local parts: no sender platform accepts them).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

/** The lowercased address, or a 400 VALIDATION naming `field` and what is wrong. */
export function normalizeEmail(value: string, field: string): string {
  const bad = (why: string) => ApiError.validation(`${field} must be an email address: ${why}`, [{ path: field, message: why }]);
  const text = value.trim();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) throw bad('it needs one local part, "@" and a domain');
  const local = text.slice(0, at);
  if (local.length > MAX_LOCAL) throw bad(`the part before "@" is ${local.length} characters; at most ${MAX_LOCAL}`);
  if (!LOCAL_PART.test(local)) throw bad(`the part before "@" (${JSON.stringify(local)}) holds characters an address cannot`);
  const domain = parseDomainName(text.slice(at + 1), HOST_NAME);
  if (!domain.ok) throw bad(`the domain ${domain.message}`);
  const address = `${local}@${domain.name}`.toLowerCase();
  if (address.length > MAX_ADDRESS) throw bad(`it is ${address.length} characters; at most ${MAX_ADDRESS}`);
  return address;
}

/** The stored form of a recipient on `channel`. */
export function normalizeRecipient(value: string, channel: Channel | null, field: string): string {
  return channel === 'email' ? normalizeEmail(value, field) : normalizePhone(value, field);
}

/**
 * The stored form of a list filter value: an address when it holds "@" (or the filter asks for the
 * email channel), otherwise a phone number.
 */
export function normalizeRecipientFilter(value: string, channel: string | undefined, field: string): string {
  return channel === 'email' || value.includes('@') ? normalizeEmail(value, field) : normalizePhone(value, field);
}

/**
 * `number` (the spec's name) and `recipient` (the real service's later name) are aliases: at least
 * one is required, and when both are sent they must name the same recipient once normalised.
 */
export function recipientFromAliases(
  body: { number?: string; recipient?: string },
  normalize: (value: string, field: string) => string,
): string {
  const { number, recipient } = body;
  if (number === undefined && recipient === undefined) {
    throw ApiError.validation('number (or its alias recipient) is required', [{ path: 'number', message: 'is required' }]);
  }
  if (number !== undefined && recipient !== undefined && normalize(number, 'number') !== normalize(recipient, 'recipient')) {
    throw ApiError.validation('number and recipient name different recipients; send one, or the same value in both', [
      { path: 'recipient', message: 'differs from number' },
    ]);
  }
  return (number ?? recipient)!;
}
