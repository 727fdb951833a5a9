// Phone-number normalisation (spec Conventions 4): numbers may arrive with hyphens, spaces or
// the +82 prefix and are stored, returned and compared in domestic notation. The domestic
// number plan below is the simulator's reading of the Korean plan (docs/decisions.md).
import { errorCodes } from './errors.ts';

/** Separators people type inside numbers; the guides list spaces, hyphens, parentheses and dots. */
const SEPARATORS = /[\s\-().]/g;

/** Domestic numbers the simulator accepts, after separators are removed. */
const DOMESTIC_PLAN: { pattern: RegExp; kind: string }[] = [
  { pattern: /^010\d{8}$/, kind: 'mobile' },
  { pattern: /^01[1679]\d{7,8}$/, kind: 'mobile (legacy prefix; 015 and 018 are retired)' },
  { pattern: /^02\d{7,8}$/, kind: 'Seoul' },
  { pattern: /^0(3[1-3]|4[1-4]|5[1-5]|6[1-4])\d{7,8}$/, kind: 'regional' },
  { pattern: /^070\d{8}$/, kind: 'internet telephony' },
  { pattern: /^050\d{8,9}$/, kind: 'personal (050x)' },
  { pattern: /^1[5-9]\d{6}$/, kind: 'representative (15xx to 19xx)' },
];

/**
 * The numbers tryNormalizePhone accepts, as one regular expression (for OpenAPI's `pattern`):
 * each digit of the plan may be followed by separators, and the international spellings
 * (`+82` or `0082`, then the number without its trunk 0, which may still be written) are
 * spelled out. phone.test.ts checks that it accepts exactly what tryNormalizePhone does.
 */
export const PHONE_PATTERN = phonePattern();

function phonePattern(): string {
  const sep = '[\\s().-]*';
  // Each atom of a plan pattern (a digit, a class, \d) gets the separators after it; quantifiers stay.
  const spaced = (source: string) => source.replace(/\{\d+(?:,\d+)?\}|\\d|\[[^\]]*\]|[0-9]/g, (atom) => (atom.startsWith('{') ? atom : `(?:${atom}${sep})`));
  const bodies = DOMESTIC_PLAN.map((p) => p.pattern.source.replace(/^\^|\$$/g, ''));
  const domestic = bodies.map(spaced).join('|');
  const withoutTrunk = bodies.map((b) => spaced(b.startsWith('0') ? b.slice(1) : b)).join('|');
  const country = `(?:\\+${sep}|0${sep}0${sep})8${sep}2${sep}(?:0${sep})?`;
  return `^${sep}(?:${country}(?:${withoutTrunk})|(?:${domestic}))$`;
}

export type PhoneResult = { ok: true; number: string } | { ok: false; code: 'INVALID_PHONE_NUMBER' | 'UNSUPPORTED_COUNTRY'; message: string };

/** Normalises without throwing; `field` names the input in messages. */
export function tryNormalizePhone(input: unknown, field = 'number'): PhoneResult {
  // Already domestic mobile notation (what the simulator stores and batches dial): the plan's first line, without the work.
  if (typeof input === 'string' && plainMobile(input)) return { ok: true, number: input };
  // The last text accepted, and its number: a batch's every dial passes its one From (not
  // mobile) through here (docs/decisions.md "Scale", "The batch's CPU per call, seventh round").
  if (typeof input === 'string' && input === lastAccepted) return { ok: true, number: lastAcceptedNumber };
  const result = normalizeText(input, field);
  if (result.ok) {
    lastAccepted = input as string;
    lastAcceptedNumber = result.number;
  }
  return result;
}

let lastAccepted: string | undefined;
let lastAcceptedNumber = '';

function normalizeText(input: unknown, field: string): PhoneResult {
  if (typeof input !== 'string') {
    return { ok: false, code: 'INVALID_PHONE_NUMBER', message: `${field} must be a string` };
  }
  const raw = input.trim();
  let digits = raw.replace(SEPARATORS, '');
  if (digits === '') return { ok: false, code: 'INVALID_PHONE_NUMBER', message: `${field} is empty` };

  let international = false;
  if (digits.startsWith('+')) {
    digits = digits.slice(1);
    international = true;
  } else if (digits.startsWith('00')) {
    // "00" is the international call prefix.
    digits = digits.slice(2);
    international = true;
  }
  if (!/^\d+$/.test(digits)) {
    return { ok: false, code: 'INVALID_PHONE_NUMBER', message: `${field} "${input}" contains characters other than digits, separators and a leading +` };
  }
  if (international) {
    if (!digits.startsWith('82')) {
      return { ok: false, code: 'UNSUPPORTED_COUNTRY', message: `${field} "${input}" has a country code other than +82; international sending is not supported` };
    }
    const national = digits.slice(2).replace(/^0/, ''); // "+82 010..." is a common spelling of "+82 10..."
    digits = '0' + national;
  }
  if (DOMESTIC_PLAN.some((p) => p.pattern.test(digits))) return { ok: true, number: digits };
  // Representative numbers have no trunk prefix; "+82 1588..." becomes "01588...", so undo that.
  if (international && /^01[5-9]\d{6}$/.test(digits)) return { ok: true, number: digits.slice(1) };
  return { ok: false, code: 'INVALID_PHONE_NUMBER', message: `${field} "${input}" is not a valid domestic phone number` };
}

/** Whether `s` is 010 and 8 digits, nothing else (DOMESTIC_PLAN's first pattern). */
function plainMobile(s: string): boolean {
  if (s.length !== 11 || s.charCodeAt(0) !== 48 || s.charCodeAt(1) !== 49 || s.charCodeAt(2) !== 48) return false;
  for (let i = 3; i < 11; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** Normalises or throws the spec's INVALID_PHONE_NUMBER / UNSUPPORTED_COUNTRY error. */
export function normalizePhone(input: unknown, field = 'number'): string {
  const r = tryNormalizePhone(input, field);
  if (r.ok) return r.number;
  throw errorCodes[r.code](r.message, { errors: [{ path: field, message: r.message }] });
}

export function isRepresentativeNumber(domestic: string): boolean {
  return /^1[5-9]\d{6}$/.test(domestic);
}
