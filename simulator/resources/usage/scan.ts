// How a source hands its entries to the aggregation without an object per entry: a scan visits
// each entry as numbers (meter index, quantity, instant, UTC day, number and link as indexes into
// the scan's names). Over a million calls this is what keeps getUsage within its budget (the
// entry objects, their ISO instants and JSON group keys were most of the time). Sources that
// still give entry objects are scanned through `scanEntries`, in their order.
import { instantOf } from '../../core/clock.ts';
import { Interner } from '../../core/interner.ts';
import { METERS, type Meter, type UsageEntry, type UsageSource } from './schema.ts';

export const DAY_MS = 86_400_000;

/** A meter's index in METERS (the spec's order, which is also the rows' order). */
export const METER_INDEX: ReadonlyMap<Meter, number> = new Map(METERS.map((m, i) => [m, i]));

/**
 * One entry: `meter` indexes METERS; `at` is epoch ms; `day` is its UTC day as days since the
 * epoch (the `day` axis); `number` and `link` index the scan's `numbers` and `links`, -1 for null.
 */
export type UsageVisit = (meter: number, quantity: number, at: number, day: number, number: number, link: number) => void;

export interface UsageScan {
  /** Names of the number indexes; read when an index is first visited, so it may grow while `each` runs. */
  readonly numbers: readonly string[];
  readonly links: readonly string[];
  /** Visits every entry of the account, in the order the aggregation sums them. */
  each(visit: UsageVisit): void;
}

/** A source that can be scanned; `entries` gives the same entries as objects, in the same order. */
export interface ScannedUsageSource {
  entries(accountId: string): readonly UsageEntry[];
  scan(accountId: string): UsageScan;
}

export function entriesOf(source: UsageSource, accountId: string): readonly UsageEntry[] {
  return typeof source === 'function' ? source(accountId) : source.entries(accountId);
}

export function scanOf(source: UsageSource, accountId: string): UsageScan {
  return typeof source === 'function' ? scanEntries(source(accountId)) : source.scan(accountId);
}

/**
 * The UTC day of an instant as the aggregation has always read it: the date its ISO text starts
 * with. For the canonical form every family writes (`…Z`) that is the instant's UTC day.
 */
export function dayOfText(text: string, at: number): number {
  if (text.length === 24 && text.charCodeAt(23) === 90 /* Z */) return Math.floor(at / DAY_MS);
  return Math.floor(Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10))) / DAY_MS);
}

/** Entry objects as a scan (sources not yet kept in columns: messages, recordings). */
export function scanEntries(entries: readonly UsageEntry[]): UsageScan {
  const numbers = new Interner();
  const links = new Interner();
  return {
    numbers: numbers.names,
    links: links.names,
    each(visit) {
      for (const e of entries) {
        const at = instantOf(e.at)!;
        const number = e.phoneNumber === null ? -1 : numbers.id(e.phoneNumber);
        const link = e.linkId === null ? -1 : links.id(e.linkId);
        visit(METER_INDEX.get(e.meter)!, e.quantity, at, dayOfText(e.at, at), number, link);
      }
    },
  };
}
