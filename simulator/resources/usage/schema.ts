// Wire shapes of the usage aggregation (spec "Usage result", "Usage aggregation"; the public API
// document's UsageResponse) and the entries resources leave for it.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { ALIAS_OF_PAGE_SIZE } from '../../core/paging.ts';
import type { PagingQuery } from '../../core/paging.ts';
import type { ScannedUsageSource } from './scan.ts';

/** Every meter: the spec's table, in its order (the API document lists the same but bms). */
export const METERS = [
  'outbound_seconds',
  'inbound_seconds',
  'transfer_seconds',
  'sms',
  'lms',
  'mms',
  'ata',
  'bms',
  'transcription_seconds',
  'summary_seconds',
  'amd_invocations',
] as const;
export type Meter = (typeof METERS)[number];
export const AXES = ['meter', 'day', 'linkId', 'number'] as const;
export type Axis = (typeof AXES)[number];
export type Unit = 'second' | 'count';

export function unitOf(meter: Meter): Unit {
  return meter.endsWith('_seconds') ? 'second' : 'count';
}

/** One measured quantity a resource leaves for the aggregation, at the instant it happened. */
export interface UsageEntry {
  meter: Meter;
  quantity: number;
  at: string; // ISO instant; its UTC day is the `day` axis
  phoneNumber: string | null; // the account's number involved
  linkId: string | null; // the assignment link that number was held through, else null
}

/** An entry as stored for the control plane's injections (usage of slices not simulated yet). */
export const UsageEntrySchema = Type.Object(
  {
    accountId: Type.String(),
    meter: StringEnum(METERS),
    quantity: Type.Number({ minimum: 0 }),
    at: DateTime(),
    phoneNumber: Nullable(Type.String()),
    linkId: Nullable(Type.String()),
  },
  { $id: 'SimUsageEntry', additionalProperties: false },
);
export type InjectedEntry = Static<typeof UsageEntrySchema>;
export const UsageStateSchema = Type.Object({ injected: Type.Array(UsageEntrySchema) }, { additionalProperties: false });
export type UsageState = Static<typeof UsageStateSchema>;

const DateOnly = (description: string) => Type.String({ format: 'date', description });

export const UsageRecordRow = Type.Object(
  {
    meter: StringEnum(METERS),
    unit: StringEnum(['second', 'count']),
    quantity: Type.Number({ description: 'Seconds or a count, never rounded.' }),
    day: Type.Optional(DateOnly('With groupBy=day: the UTC day.')),
    linkId: Type.Optional(Nullable(Type.String({ description: 'With groupBy=linkId: the assignment link the number was issued through; null for numbers not issued through a link.' }))),
    phoneNumber: Type.Optional(Type.String({ description: 'With groupBy=number: the number as stored (domestic notation).' })),
  },
  { $id: 'UsageRecord', additionalProperties: false },
);

export const UsageTotalRow = Type.Object(
  {
    meter: StringEnum(METERS),
    unit: StringEnum(['second', 'count']),
    quantity: Type.Number(),
    billableMinutes: Nullable(Type.Integer({ description: 'One round-up over the account total: outbound ceil((outbound + transfer) / 60); inbound, transcription and summary ceil(seconds / 60); null for transfer_seconds and count meters.' })),
    unitPriceHint: Nullable(Type.Integer({ description: 'Always null at present.' })),
  },
  { $id: 'UsageTotal', additionalProperties: false },
);

export const UsageResponse = Type.Object(
  {
    period: Type.Object(
      {
        from: DateTime({ description: 'Start of the range (inclusive).' }),
        to: DateTime({ description: 'End of the range (exclusive).' }),
        timezone: Type.Literal('UTC'),
        confirmedThrough: DateOnly('Values through this UTC date are final.'),
        includesToday: Type.Boolean({ description: 'True only when includeToday=true was asked.' }),
      },
      { additionalProperties: false },
    ),
    records: Type.Array(UsageRecordRow, { description: 'Quantity rows split by the groupBy axes, paged.' }),
    meta: Type.Object(
      {
        page: Type.Integer({ description: 'From 1.' }),
        pageSize: Type.Integer(),
        total: Type.Integer({ description: 'Record rows before paging.' }),
      },
      { additionalProperties: false },
    ),
    totals: Type.Array(UsageTotalRow, { description: 'Per-meter sums over the whole range, the same on every page.' }),
    amount: Type.Null({ description: 'Always null at present.' }),
  },
  { $id: 'UsageResponse', additionalProperties: false },
);
export type UsageResponseWire = Static<typeof UsageResponse>;
export type UsageRecordWire = Static<typeof UsageRecordRow>;
export type UsageTotalWire = Static<typeof UsageTotalRow>;

const usagePageSize = (description: string, deprecated = false) =>
  Type.Integer({ minimum: 1, maximum: MAX_USAGE_PAGE_SIZE, ...(deprecated ? { deprecated: true } : {}), description });

/** Largest page (spec: not shown; the API document: 1000). */
export const MAX_USAGE_PAGE_SIZE = 1000;
export const DEFAULT_USAGE_PAGE_SIZE = 200;
/** Longest range, in days (spec Limits). */
export const MAX_RANGE_DAYS = 92;

export const UsageQuery = {
  from: DateTime({ description: 'Start (inclusive). Give both from and to, or neither (the current billing cycle).' }),
  to: DateTime({ description: 'End (exclusive): after from, at most 92 days after it.' }),
  groupBy: Type.Array(StringEnum(AXES), { description: 'Axes; repeat the parameter to combine (groupBy=day&groupBy=linkId). Default meter; rows always carry their meter.' }),
  meter: Type.Array(StringEnum(METERS), { description: 'Meters to return; repeat for several. Default all.' }),
  includeToday: Type.Boolean({ description: "Include today's in-progress UTC day. Default false." }),
  page: Type.Integer({ minimum: 1, default: 1, description: 'Page number, counted from 1.' }),
  pageSize: usagePageSize('Rows per page (1 to 1000, default 200).'),
  page_size: usagePageSize(ALIAS_OF_PAGE_SIZE, true),
  limit: usagePageSize(ALIAS_OF_PAGE_SIZE, true),
};

/** getUsage's query as the aggregation reads it (others that query usage name it too). */
export interface UsageQueryInput extends PagingQuery {
  from?: string;
  to?: string;
  groupBy?: Axis[];
  meter?: Meter[];
  includeToday?: boolean;
}

/**
 * What a family registers: its entries for one account (every entry it has; the aggregation cuts
 * the range), or a source that can also be scanned without an object per entry (scan.ts).
 */
export type UsageSource = ((accountId: string) => readonly UsageEntry[]) | ScannedUsageSource;
