// Usage aggregation (spec "Usage aggregation"): recomputed at every query from the entries the
// resources leave (rule 3), so nothing here is stored but what the control plane records.
// Families register a source with `register` (messages: sms, lms, mms, ata, bms counts; calls,
// recordings); entries injected through the control plane stand in for slices not run yet.
import { ApiError } from '../../core/errors.ts';
import { defineError } from '../../core/errors.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { normalizePhone } from '../../core/phone.ts';
import { parsePaging, type PagingRules } from '../../core/paging.ts';
import { cycleAt, RANGE_DAY_MS, startOfUtcDay, utcDate } from './cycle.ts';
import type { UsageModelScope } from './ports.ts';
import {
  DEFAULT_USAGE_PAGE_SIZE,
  MAX_RANGE_DAYS,
  MAX_USAGE_PAGE_SIZE,
  METERS,
  unitOf,
  type Axis,
  type Meter,
  type InjectedEntry,
  type UsageEntry,
  type UsageQueryInput,
  type UsageSource,
  type UsageState,
  type UsageRecordWire,
  type UsageResponseWire,
  type UsageTotalWire,
} from './schema.ts';

export type { UsageQueryInput, UsageSource } from './schema.ts';

export const USAGE_PAGING: PagingRules = { firstPage: 1, defaultPageSize: DEFAULT_USAGE_PAGE_SIZE, maxPageSize: MAX_USAGE_PAGE_SIZE };

export const usageErrors = {
  USAGE_PERIOD_REQUIRED: defineError({
    code: 'usage_period_required', status: 403, origin: 'reference',
    description: 'Without from and to the range is the current billing cycle, which an account without an active subscription does not have; give from and to.',
  }),
};

const METER_ORDER = new Map<string, number>(METERS.map((m, i) => [m, i]));

export class UsageModel {
  private readonly sources: UsageSource[] = [];
  private injected: InjectedEntry[] = []; // control plane: usage of slices the simulator does not run yet

  constructor(private readonly rt: UsageModelScope) {
    this.register((accountId) => this.injected.filter((e) => e.accountId === accountId));
  }

  clear(): void {
    this.injected = [];
  }

  snapshot(): UsageState {
    return { injected: this.injected.map((e) => ({ ...e })) };
  }

  /** A state the runtime validated against UsageStateSchema. */
  restore(state: UsageState): void {
    this.injected = state.injected.map((e) => ({ ...e }));
  }

  /** Control plane: records usage as a resource would (e.g. call seconds before calls exist). */
  inject(accountId: string, input: { meter: Meter; quantity: number; at?: string; phoneNumber?: string | null; linkId?: string | null }): InjectedEntry {
    this.rt.accounts.require(accountId);
    const now = this.rt.clock.now();
    const at = input.at === undefined ? now : parseInstant(input.at)!;
    if (at > now) throw ApiError.validation(`at (${input.at}) is in the future; usage is recorded when it happens (now ${iso(now)})`, [{ path: 'at', message: 'is after now' }]);
    if (unitOf(input.meter) === 'count' && !Number.isInteger(input.quantity)) {
      throw ApiError.validation(`${input.meter} counts; quantity must be a whole number`, [{ path: 'quantity', message: 'must be an integer for a count meter' }]);
    }
    const phoneNumber = input.phoneNumber == null ? null : normalizePhone(input.phoneNumber, 'phoneNumber');
    const entry: InjectedEntry = { accountId, meter: input.meter, quantity: input.quantity, at: iso(at), phoneNumber, linkId: input.linkId ?? null };
    this.injected.push(entry);
    return { ...entry };
  }

  injectedFor(accountId: string): InjectedEntry[] {
    this.rt.accounts.require(accountId);
    return this.injected.filter((e) => e.accountId === accountId).map((e) => ({ ...e }));
  }

  clearInjected(accountId: string): void {
    this.rt.accounts.require(accountId);
    this.injected = this.injected.filter((e) => e.accountId !== accountId);
  }

  register(source: UsageSource): void {
    this.sources.push(source);
  }

  /** getUsage: checks the query, cuts the range, groups, totals and pages. */
  aggregate(accountId: string, q: UsageQueryInput): UsageResponseWire {
    const paging = parsePaging(q, USAGE_PAGING);
    const range = this.range(accountId, q);
    const now = this.rt.clock.now();
    const includeToday = q.includeToday ?? false;
    // Without includeToday the in-progress UTC day is left out (rule: "slower because it is
    // aggregated from raw data"; the simulator has only raw data, so it only cuts).
    const end = includeToday ? range.to : Math.min(range.to, startOfUtcDay(now));
    const axes = new Set<Axis>(['meter', ...(q.groupBy ?? [])]);
    const wanted = q.meter && q.meter.length > 0 ? new Set<Meter>(q.meter) : undefined;

    const inRange: UsageEntry[] = [];
    for (const source of this.sources) {
      for (const e of source(accountId)) {
        const at = parseInstant(e.at)!;
        if (at >= range.from && at < end) inRange.push(e);
      }
    }
    const selected = wanted ? inRange.filter((e) => wanted.has(e.meter)) : inRange;
    const records = group(selected, axes);
    const totals = totalsOf(selected, inRange);
    const start = (paging.page - 1) * paging.pageSize;
    return {
      period: {
        from: iso(range.from),
        to: iso(range.to),
        timezone: 'UTC',
        confirmedThrough: utcDate(startOfUtcDay(now) - RANGE_DAY_MS),
        includesToday: includeToday,
      },
      records: records.slice(start, start + paging.pageSize),
      meta: { page: paging.page, pageSize: paging.pageSize, total: records.length },
      totals,
      amount: null,
    };
  }

  /** The range asked for, or the current billing cycle when neither from nor to is given. */
  private range(accountId: string, q: UsageQueryInput): { from: number; to: number } {
    if ((q.from === undefined) !== (q.to === undefined)) {
      const missing = q.from === undefined ? 'from' : 'to';
      throw ApiError.validation(`give from and to together, or neither for the current billing cycle (${missing} is missing)`, [{ path: missing, message: 'is required with the other' }]);
    }
    if (q.from !== undefined && q.to !== undefined) {
      const from = parseInstant(q.from)!;
      const to = parseInstant(q.to)!;
      if (to <= from) throw ApiError.validation(`to (${q.to}) must be after from (${q.from})`, [{ path: 'to', message: 'must be after from' }]);
      if (to - from > MAX_RANGE_DAYS * RANGE_DAY_MS) {
        throw ApiError.validation(`the range is at most ${MAX_RANGE_DAYS} days; split the query`, [{ path: 'to', message: `at most ${MAX_RANGE_DAYS} days after from` }]);
      }
      return { from, to };
    }
    const account = this.rt.accounts.get(accountId)!;
    const now = this.rt.clock.now();
    const cycle = this.rt.accounts.subscriptionActive(accountId) ? cycleAt(parseInstant(account.subscription.startedAt)!, now) : undefined;
    if (!cycle) throw usageErrors.USAGE_PERIOD_REQUIRED('the account has no active subscription, so no current billing cycle; give from and to');
    return cycle;
  }
}

/** Rows per combination of the axes, ordered by day, meter (spec order), linkId, phoneNumber. */
function group(entries: readonly UsageEntry[], axes: Set<Axis>): UsageRecordWire[] {
  const rows = new Map<string, UsageRecordWire>();
  for (const e of entries) {
    const row: UsageRecordWire = { meter: e.meter, unit: unitOf(e.meter), quantity: 0 };
    if (axes.has('day')) row.day = e.at.slice(0, 10);
    if (axes.has('linkId')) row.linkId = e.linkId;
    if (axes.has('number')) row.phoneNumber = e.phoneNumber ?? '';
    // The number axis is cut at assignment boundaries (rule 6): the same number held through
    // another link is another user, so it is another row even when linkId is not an axis.
    const key = JSON.stringify([row.day, row.meter, row.linkId, row.phoneNumber, axes.has('number') ? e.linkId : null]);
    const found = rows.get(key);
    if (found) found.quantity += e.quantity;
    else rows.set(key, { ...row, quantity: e.quantity });
  }
  return [...rows.values()].sort(
    (a, b) =>
      cmp(a.day ?? '', b.day ?? '') ||
      METER_ORDER.get(a.meter)! - METER_ORDER.get(b.meter)! ||
      cmp(a.linkId ?? '', b.linkId ?? '') ||
      cmp(a.phoneNumber ?? '', b.phoneNumber ?? ''),
  );
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * One row per selected meter that has usage in the range. Billable minutes are one round-up over
 * the account total (rule 2); outbound includes transfer seconds whether or not transfer was
 * selected, so `all` is every meter in range, before the meter filter.
 */
function totalsOf(selected: readonly UsageEntry[], all: readonly UsageEntry[]): UsageTotalWire[] {
  const sums = new Map<Meter, number>();
  for (const e of selected) sums.set(e.meter, (sums.get(e.meter) ?? 0) + e.quantity);
  const transfer = all.filter((e) => e.meter === 'transfer_seconds').reduce((n, e) => n + e.quantity, 0);
  return [...sums.entries()]
    .sort((a, b) => METER_ORDER.get(a[0])! - METER_ORDER.get(b[0])!)
    .map(([meter, quantity]) => ({ meter, unit: unitOf(meter), quantity, billableMinutes: billableMinutes(meter, quantity, transfer), unitPriceHint: null }));
}

function billableMinutes(meter: Meter, quantity: number, transfer: number): number | null {
  switch (meter) {
    case 'outbound_seconds':
      return Math.ceil((quantity + transfer) / 60);
    case 'inbound_seconds':
    case 'transcription_seconds':
    case 'summary_seconds':
      return Math.ceil(quantity / 60);
    default:
      return null; // transfer_seconds (billed within outbound) and count meters
  }
}
