// One-time-code verifications (spec "Verification", "States and transitions / Verification").
// The code comes from the seeded random, is kept only as a hash, and leaves the simulator only
// inside the delivery the fake carrier hands to the phone. Transitions:
//   pending -> verified      correct code, before expiry, attempts left (single use)
//   pending -> expired       ttlSeconds elapsed (a clock job)
//   pending -> max_attempts  the 5th code comparison fails
//   pending -> canceled      cancel, or another verification of the same number verified first
//   pending -> failed        the carrier reports the text failed or the call not answered
// Every other state is final.
import { createHash, timingSafeEqual } from '../../core/node-crypto.ts';
import { Table } from '../../core/store.ts';
import { defineError, ApiError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { normalizePhone } from '../../core/phone.ts';
import { WireCache } from '../../core/wire.ts';
import type { DeliveryRow } from '../../peers/carrier/schema.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import type { VerificationsModelScope } from './ports.ts';
import {
  CODE_LENGTH,
  MAX_ATTEMPTS,
  TTL_SECONDS,
  type CreateVerificationInput,
  type VerificationChannel,
  type VerificationRow,
  type VerificationStatus,
  VERIFICATION_IDS,
} from './schema.ts';

export const verificationErrors = {
  VERIFICATION_NOT_FOUND: defineError({
    code: 'verification_not_found', status: 404, origin: 'simulator',
    description: 'No verification with this id for the API key\'s account.',
  }),
  VERIFICATION_NOT_PENDING: defineError({
    code: 'verification_not_pending', status: 409, origin: 'simulator',
    description: 'The verification is no longer pending (verified, expired, max_attempts, canceled or failed); the body carries its `status`. Nothing changes.',
  }),
  INVALID_CODE_FORMAT: defineError({
    code: 'invalid_code_format', status: 400, origin: 'simulator',
    description: 'The submitted code is not exactly codeLength digits; no attempt is used.',
  }),
  NO_SENDER_NUMBER: defineError({
    code: 'no_sender_number', status: 422, origin: 'simulator',
    description: '`from` was omitted and the account owns no number to send from.',
  }),
};

export function verificationWire(r: VerificationRow) {
  return {
    verificationId: r.id,
    status: r.status,
    channel: r.channel,
    to: r.to,
    from: r.from,
    codeLength: r.codeLength,
    remainingAttempts: r.remainingAttempts,
    expiresAt: r.expiresAt,
    createdAt: r.createdAt,
    verifiedAt: r.verifiedAt,
    instruction: null,
  };
}

function codeHash(verificationId: string, code: string): string {
  return createHash('sha256').update(`${verificationId}:${code}`).digest('hex');
}

/** What the phone receives: the text of the SMS, or what the call says (digits spoken one by one). */
export function deliveryText(channel: VerificationChannel, code: string): string {
  if (channel === 'sms') return `Your verification code is ${code}.`;
  const spoken = code.split('').join(' ');
  return `Your verification code is ${spoken}. Once more: ${spoken}.`;
}

export interface VerificationFilter {
  channel?: VerificationChannel;
  status?: VerificationStatus;
  to?: string;
  createdAfter?: string;
  createdBefore?: string;
}

export class VerificationsModel {
  readonly rows = new Table<VerificationRow>(); // maps a verificationId to the verification (the runtime snapshots it)
  readonly wire = new WireCache<VerificationRow>(verificationWire);
  private readonly outbound: OutboundRules;

  constructor(private readonly rt: VerificationsModelScope) {
    this.outbound = new OutboundRules(rt);
    rt.jobs.on('verifications.expire', (p) => this.finishIfPending(p.verificationId, 'expired'));
    // The carrier's outcomes reach carrierOutcome through the family's `wire` (index.ts).
  }

  /** A code the carrier could not deliver fails its verification. */
  carrierOutcome(d: DeliveryRow): void {
    if (d.status !== 'delivered') this.finishIfPending(d.ownerId, 'failed');
  }

  /** createVerification: every check first, then the code is drawn, hashed and handed to the carrier. */
  create(accountId: string, input: CreateVerificationInput): VerificationRow {
    const channel = input.channel ?? 'sms';
    const to = normalizePhone(input.to, 'to');
    const from = input.from ? this.outbound.ownedSender(accountId, input.from, 'from') : this.defaultSender(accountId);
    this.outbound.requireSubscription(accountId);
    this.outbound.refuseOptedOut(accountId, to, channel === 'sms' ? 'message' : 'call');

    const codeLength = input.codeLength ?? CODE_LENGTH.default;
    const ttlSeconds = input.ttlSeconds ?? TTL_SECONDS.default;
    const id = freshId(this.rt.random, VERIFICATION_IDS.verification, (id) => this.rows.has(id));
    const code = this.rt.random.digits(codeLength);
    const now = this.rt.clock.now();
    const row: VerificationRow = {
      id,
      accountId,
      status: 'pending',
      channel,
      to,
      from,
      codeLength,
      codeHash: codeHash(id, code),
      remainingAttempts: MAX_ATTEMPTS,
      expiresAt: iso(now + ttlSeconds * 1000),
      createdAt: iso(now),
      verifiedAt: null,
    };
    this.rows.insert(row);
    // Scheduled before the delivery: when both fall due at the same instant, expiry wins.
    this.rt.jobs.schedule('verifications.expire', now + ttlSeconds * 1000, { verificationId: id });
    this.rt.carrier.submit({
      accountId,
      owner: 'verification',
      ownerId: id,
      type: channel,
      from,
      to,
      content: deliveryText(channel, '*'.repeat(codeLength)),
      secret: { content: deliveryText(channel, code), code },
    });
    return row;
  }

  get(accountId: string, verificationId: string): VerificationRow {
    const row = this.rows.get(verificationId);
    if (!row || row.accountId !== accountId) throw verificationErrors.VERIFICATION_NOT_FOUND(`no verification ${verificationId} for this account`);
    return row;
  }

  /** checkVerification: a wrong code uses an attempt (200, still pending or max_attempts); a refusal uses none. */
  check(accountId: string, verificationId: string, code: string): VerificationRow {
    const row = this.requirePending(accountId, verificationId);
    if (!new RegExp(`^\\d{${row.codeLength}}$`).test(code)) {
      const message = `the code is ${row.codeLength} digits`;
      throw verificationErrors.INVALID_CODE_FORMAT(message, { errors: [{ path: 'code', message }] });
    }
    const remainingAttempts = row.remainingAttempts - 1;
    const expected = Buffer.from(row.codeHash, 'hex');
    const given = Buffer.from(codeHash(row.id, code), 'hex');
    if (timingSafeEqual(expected, given)) {
      const verified = this.rows.replace({ ...row, status: 'verified', remainingAttempts, verifiedAt: this.rt.clock.nowIso() });
      // The number is proven: its other pending verifications of this account are moot.
      for (const other of this.rows.all()) {
        if (other.accountId === accountId && other.to === row.to && other.status === 'pending') this.rows.replace({ ...other, status: 'canceled' });
      }
      return verified;
    }
    return this.rows.replace({ ...row, remainingAttempts, status: remainingAttempts === 0 ? 'max_attempts' : 'pending' });
  }

  cancel(accountId: string, verificationId: string): VerificationRow {
    const row = this.requirePending(accountId, verificationId);
    return this.rows.replace({ ...row, status: 'canceled' });
  }

  /** The account's verifications, newest first. createdAfter is inclusive, createdBefore exclusive. */
  list(accountId: string, filter: VerificationFilter): readonly VerificationRow[] {
    const to = filter.to === undefined ? undefined : normalizePhone(filter.to, 'to');
    const after = filter.createdAfter === undefined ? undefined : parseInstant(filter.createdAfter)!;
    const before = filter.createdBefore === undefined ? undefined : parseInstant(filter.createdBefore)!;
    if (after !== undefined && before !== undefined && after > before) {
      throw ApiError.validation('createdAfter is later than createdBefore', [{ path: 'createdAfter', message: 'after createdBefore' }]);
    }
    const { channel, status } = filter;
    return this.rows.newestFirstCached(`${accountId}|${channel ?? ''}|${status ?? ''}|${to ?? ''}|${after ?? ''}|${before ?? ''}`, (r) => {
      if (r.accountId !== accountId) return false;
      if ((channel !== undefined && r.channel !== channel) || (status !== undefined && r.status !== status) || (to !== undefined && r.to !== to)) return false;
      const created = parseInstant(r.createdAt)!;
      return (after === undefined || created >= after) && (before === undefined || created < before);
    });
  }

  // --- internals ---

  private requirePending(accountId: string, verificationId: string): VerificationRow {
    const row = this.get(accountId, verificationId);
    if (row.status !== 'pending') {
      throw verificationErrors.VERIFICATION_NOT_PENDING(`verification ${verificationId} is ${row.status}; start a new one`, { status: row.status });
    }
    return row;
  }

  private finishIfPending(verificationId: string, status: 'expired' | 'failed'): void {
    const row = this.rows.get(verificationId);
    if (row && row.status === 'pending') this.rows.replace({ ...row, status });
  }

  /** The account's oldest number (newest-first list, last entry). */
  private defaultSender(accountId: string): string {
    const owned = this.rt.numbers.listFor(accountId);
    const oldest = owned[owned.length - 1];
    if (!oldest) throw verificationErrors.NO_SENDER_NUMBER(`account ${accountId} owns no number to send the code from`);
    return oldest.id;
  }
}
