// The usage aggregation as it was first written: every source's entries as objects, the range cut
// by parsing each ISO instant, groups keyed by JSON text, every row sorted. It is the reference
// the column path (resources/usage/grouping.ts) must answer exactly like (usage.property.test.ts),
// and the "before" figure of bench/usage-scale.ts.
import { iso, parseInstant } from '../core/clock.ts';
import { parsePaging } from '../core/paging.ts';
import { RANGE_DAY_MS, startOfUtcDay, utcDate } from '../resources/usage/cycle.ts';
import { USAGE_PAGING, type UsageModel } from '../resources/usage/model.ts';
import { METERS, unitOf, type Axis, type Meter, type UsageEntry, type UsageQueryInput, type UsageRecordWire, type UsageResponseWire, type UsageTotalWire } from '../resources/usage/schema.ts';

const METER_ORDER = new Map<string, number>(METERS.map((m, i) => [m, i]));

export function referenceUsage(model: UsageModel, now: number, accountId: string, q: UsageQueryInput): UsageResponseWire {
  const paging = parsePaging(q, USAGE_PAGING);
  const range = model.range(accountId, q);
  const includeToday = q.includeToday ?? false;
  const end = includeToday ? range.to : Math.min(range.to, startOfUtcDay(now));
  const axes = new Set<Axis>(['meter', ...(q.groupBy ?? [])]);
  const wanted = q.meter && q.meter.length > 0 ? new Set<Meter>(q.meter) : undefined;
  const inRange: UsageEntry[] = [];
  for (const e of model.entriesOf(accountId)) {
    const at = parseInstant(e.at)!;
    if (at >= range.from && at < end) inRange.push(e);
  }
  const selected = wanted ? inRange.filter((e) => wanted.has(e.meter)) : inRange;
  const records = group(selected, axes);
  const start = (paging.page - 1) * paging.pageSize;
  return {
    period: { from: iso(range.from), to: iso(range.to), timezone: 'UTC', confirmedThrough: utcDate(startOfUtcDay(now) - RANGE_DAY_MS), includesToday: includeToday },
    records: records.slice(start, start + paging.pageSize),
    meta: { page: paging.page, pageSize: paging.pageSize, total: records.length },
    totals: totalsOf(selected, inRange),
    amount: null,
  };
}

function group(entries: readonly UsageEntry[], axes: Set<Axis>): UsageRecordWire[] {
  const rows = new Map<string, UsageRecordWire>();
  for (const e of entries) {
    const row: UsageRecordWire = { meter: e.meter, unit: unitOf(e.meter), quantity: 0 };
    if (axes.has('day')) row.day = e.at.slice(0, 10);
    if (axes.has('linkId')) row.linkId = e.linkId;
    if (axes.has('number')) row.phoneNumber = e.phoneNumber ?? '';
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
      return null;
  }
}
