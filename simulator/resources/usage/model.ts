// Usage aggregation (spec "Usage aggregation"): recomputed at every query from the entries the
// resources leave (rule 3), so nothing here is stored but what the control plane records.
// Families register a source with `register` (messages: sms, lms, mms, ata, bms counts; calls,
// recordings); entries injected through the control plane stand in for slices not run yet.
// The sums are grouping.ts's, over scans of the sources (scan.ts): no object per entry.
import { ApiError } from '../../core/errors.ts';
import { defineError } from '../../core/errors.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { normalizePhone } from '../../core/phone.ts';
import { parsePaging, type PagingRules } from '../../core/paging.ts';
import { cycleAt, RANGE_DAY_MS, startOfUtcDay, utcDate } from './cycle.ts';
import type { UsageModelScope } from './ports.ts';
import { GroupingBuffers, groupScans } from './grouping.ts';
import { InjectedUsage } from './injected.ts';
import { entriesOf, scanOf } from './scan.ts';
import {
  DEFAULT_USAGE_PAGE_SIZE,
  MAX_RANGE_DAYS,
  MAX_USAGE_PAGE_SIZE,
  METERS,
  unitOf,
  type Meter,
  type InjectedEntry,
  type UsageEntry,
  type UsageQueryInput,
  type UsageSource,
  type UsageState,
  type UsageResponseWire,
} from './schema.ts';

export type { UsageQueryInput, UsageSource } from './schema.ts';

export const USAGE_PAGING: PagingRules = { firstPage: 1, defaultPageSize: DEFAULT_USAGE_PAGE_SIZE, maxPageSize: MAX_USAGE_PAGE_SIZE };

export const usageErrors = {
  USAGE_PERIOD_REQUIRED: defineError({
    code: 'usage_period_required', status: 403, origin: 'reference',
    description: 'Without from and to the range is the current billing cycle, which an account without an active subscription does not have; give from and to.',
  }),
};

export class UsageModel {
  private readonly sources: UsageSource[] = [];
  private injected = new InjectedUsage(); // control plane: usage of slices the simulator does not run yet
  /** What aggregations work in, kept between them (tests give it a small dense limit to run the table store). */
  buffers = new GroupingBuffers();

  constructor(private readonly rt: UsageModelScope) {
    this.register({ entries: (accountId) => this.injected.of(accountId), scan: (accountId) => this.injected.scan(accountId) });
  }

  clear(): void {
    this.injected = new InjectedUsage();
  }

  snapshot(): UsageState {
    return { injected: this.injected.all() };
  }

  /** A state the runtime validated against UsageStateSchema. */
  restore(state: UsageState): void {
    this.injected = new InjectedUsage(state.injected);
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
    return this.injected.of(accountId);
  }

  clearInjected(accountId: string): void {
    this.rt.accounts.require(accountId);
    this.injected = this.injected.without(accountId);
  }

  register(source: UsageSource): void {
    this.sources.push(source);
  }

  /** Every entry of the account the sources hold, as objects, in the order they are summed (what the aggregation first read; tests compare with it). */
  entriesOf(accountId: string): UsageEntry[] {
    return this.sources.flatMap((s) => entriesOf(s, accountId));
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
    const axes = { day: false, linkId: false, number: false };
    for (const axis of q.groupBy ?? []) if (axis !== 'meter') axes[axis] = true;
    const wanted = q.meter && q.meter.length > 0 ? METERS.map((m) => q.meter!.includes(m)) : null;
    const scans = this.sources.map((s) => scanOf(s, accountId));
    const grouped = groupScans(scans, range.from, end, axes, wanted, this.buffers);
    return {
      period: {
        from: iso(range.from),
        to: iso(range.to),
        timezone: 'UTC',
        confirmedThrough: utcDate(startOfUtcDay(now) - RANGE_DAY_MS),
        includesToday: includeToday,
      },
      records: grouped.records((paging.page - 1) * paging.pageSize, paging.pageSize),
      meta: { page: paging.page, pageSize: paging.pageSize, total: grouped.total },
      totals: grouped.totals,
      amount: null,
    };
  }

  /** The range asked for, or the current billing cycle when neither from nor to is given (tests' reference path reads it too). */
  range(accountId: string, q: UsageQueryInput): { from: number; to: number } {
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
