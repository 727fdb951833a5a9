// The carrier's fixed behaviour: magic numbers that behave the same way every time (so every
// outcome is reachable without scripting), its default delays, how a share script picks its
// attempts, and how a script's number prefix is normalised.
import { ApiError } from '../../core/errors.ts';
import type { DeliveryType, Outcome } from './schema.ts';

/** Numbers that behave the same way every time, so every outcome is reachable without scripting. */
export interface MagicNumber {
  number: string;
  description: string;
  outcomes: Record<DeliveryType, Outcome>;
  delaySeconds: number | null;
}

function magic(number: string, description: string, text: Outcome, ata: Outcome, call: Outcome, delaySeconds: number | null = null): MagicNumber {
  // Brand messages (bms) travel the messenger like ata messages, so they share its outcome.
  return { number, description, outcomes: { sms: text, lms: text, mms: text, ata, bms: ata, call }, delaySeconds };
}

export const MAGIC_NUMBERS: readonly MagicNumber[] = [
  magic('01000000400', 'Every delivery fails: messages end failed, calls fail.', 'failed', 'failed', 'failed'),
  magic('01000000408', 'Slow network: every delivery succeeds, one hour late.', 'delivered', 'delivered', 'delivered', 3600),
  magic('01000000410', 'Not a KakaoTalk user: ata messages fail (their fallback text is sent), brand (bms) messages fail; texts and calls succeed.', 'delivered', 'failed', 'delivered'),
  magic('01000000480', 'Never answers: calls end no-answer; messages are delivered.', 'delivered', 'delivered', 'no-answer'),
  magic('01000000486', 'Always busy: calls end busy; messages are delivered.', 'delivered', 'delivered', 'busy'),
];
export const MAGIC_BY_NUMBER = new Map(MAGIC_NUMBERS.map((m) => [m.number, m]));

/** Seconds from hand-over to outcome when neither a script nor a magic number says otherwise. */
export function defaultDelaySeconds(type: DeliveryType, outcome: Outcome): number {
  if (type !== 'call') return 2;
  return outcome === 'no-answer' ? 30 : 5; // a call rings before it is answered or given up
}

/**
 * Whether attempt `attempt` of a script with this salt falls in its share: a 32-bit mix of salt
 * and counter (murmur3's finaliser), so a pick needs no state beyond the script's own counter.
 */
export function picks(salt: number, attempt: number, share: number): boolean {
  if (share >= 1) return true;
  let h = (salt ^ Math.imul(attempt + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296 < share;
}

/**
 * A script prefix in domestic notation: separators removed, +82 / 0082 turned into the trunk 0
 * (as numbers are); anything but digits left is refused.
 */
export function normalizePrefix(input: string, field = 'prefix'): string {
  let digits = input.trim().replace(/[\s\-().]/g, '');
  const international = /^(\+|00)82/.exec(digits);
  if (international) digits = '0' + digits.slice(international[0].length).replace(/^0/, '');
  if (!/^\d+$/.test(digits)) {
    throw ApiError.validation(`${field} "${input}" is not a number prefix: after removing separators only digits (and a leading +82) may remain`, [{ path: field, message: 'digits only' }]);
  }
  return digits;
}

