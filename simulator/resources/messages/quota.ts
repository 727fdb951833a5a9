// Monthly caps per message type (guides: separate monthly caps for each type, reset each
// calendar month, not each billing cycle; queued counts, failed does not; an overage add-on
// lifts the cap; a cap of 0 means the plan does not offer the type). Months are UTC, like the
// usage aggregation's days. Counts are derived from the message rows and kept up to date.
import type { ApiError } from '../../core/errors.ts';
import { messageErrors as E } from './errors.ts';
import type { MessagesModelScope } from './ports.ts';
import { MESSAGE_TYPES, type MessageRow, type MessageType } from './schema.ts';

/** What the counts are checked against: the clock (the month) and the account's plan, add-ons and operations cap. */
export type QuotaPorts = Pick<MessagesModelScope, 'clock' | 'accounts'>;

/** Whether a message counts toward quota and usage: outbound and not (yet) failed. */
export function countsTowardUsage(r: MessageRow): boolean {
  return r.direction === 'outbound' && r.status !== 'failed';
}

/** The UTC calendar month (YYYY-MM) of an ISO instant. */
export function monthOf(isoTime: string): string {
  return isoTime.slice(0, 7);
}

/** The counter of all types together (not a message type, so it never collides). */
const ALL = '*';

function key(accountId: string, type: string, month: string): string {
  return `${accountId}|${type}|${month}`;
}

export class MessageQuota {
  private counts = new Map<string, number>(); // maps account|type|month to messages that count (derived)

  constructor(private readonly rt: QuotaPorts) {}

  rebuild(rows: readonly MessageRow[]): void {
    this.counts = new Map();
    for (const r of rows) if (countsTowardUsage(r)) this.add(r);
  }

  add(r: MessageRow): void {
    this.bump(r, 1);
  }

  /** A counted message that failed stops counting. */
  remove(r: MessageRow): void {
    this.bump(r, -1);
  }

  /** Counts per type and, under the type ALL, per account (the operations cap). */
  private bump(r: MessageRow, by: 1 | -1): void {
    for (const type of [r.type, ALL]) {
      const k = key(r.accountId, type, monthOf(r.dateCreated));
      this.counts.set(k, Math.max(0, (this.counts.get(k) ?? 0) + by));
    }
  }

  /**
   * Why one more message of `type` may not be sent now, or undefined when it may: the plan does
   * not offer the type, its monthly cap is used up (unless an overage add-on lifts it), or the
   * operations cap on all types together is reached (no add-on lifts that one).
   */
  refusal(accountId: string, type: MessageType): ApiError | undefined {
    const limit = this.limit(accountId, type);
    if (limit === 0) return E.TYPE_NOT_SUPPORTED(`the account's plan does not offer ${type} messages`);
    const month = monthOf(this.rt.clock.nowIso());
    const used = this.counts.get(key(accountId, type, month)) ?? 0;
    if (!this.overage(accountId, type) && used >= limit) {
      const lift = type === 'ata' || type === 'bms' ? '' : `, or add the ${type}_overage add-on`;
      return E.QUOTA_EXCEEDED(`the monthly ${type} quota is used up (${used}/${limit} in ${month}); sending works again on the first of next month (UTC)${lift}`);
    }
    const cap = this.rt.accounts.get(accountId)?.messagingOps.monthlyCap ?? null;
    const total = this.counts.get(key(accountId, ALL, month)) ?? 0;
    if (cap !== null && total >= cap) {
      return E.OVERRIDE_QUOTA_EXCEEDED(`the account's operations cap of ${cap} messages a month (all types) is reached in ${month}; it works again on the first of next month (UTC)`);
    }
    return undefined;
  }

  view(accountId: string) {
    const month = monthOf(this.rt.clock.nowIso());
    const line = (type: MessageType) => ({
      used: this.counts.get(key(accountId, type, month)) ?? 0,
      limit: this.limit(accountId, type),
      overage: this.overage(accountId, type),
    });
    return {
      month,
      types: Object.fromEntries(MESSAGE_TYPES.map((t) => [t, line(t)])) as Record<MessageType, ReturnType<typeof line>>,
      operationsCap: { used: this.counts.get(key(accountId, ALL, month)) ?? 0, limit: this.rt.accounts.get(accountId)?.messagingOps.monthlyCap ?? null },
    };
  }

  /** A plan without a bms cap gives brand messages its ata cap: both go out over the messenger (docs/decisions.md). */
  private limit(accountId: string, type: MessageType): number {
    const quota = this.rt.accounts.plan(accountId).monthlyMessageQuota;
    return type === 'bms' ? (quota.bms ?? quota.ata) : quota[type];
  }

  /** sms_overage, lms_overage and mms_overage exist (guides); ata and bms have no overage add-on. */
  private overage(accountId: string, type: MessageType): boolean {
    return type !== 'ata' && type !== 'bms' && this.rt.accounts.hasAddon(accountId, `${type}_overage`);
  }
}
