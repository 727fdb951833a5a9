// The aggregation's arithmetic over scans (scan.ts): cut the range, filter meters, sum per group
// and per meter, order the groups, and build row objects only for the page asked for. The answer
// is the one the first, object-per-entry version gave (simulator/test/usage-reference.ts keeps
// it; a property compares the two): groups are summed in the same order (sources in the order
// they registered, each source's entries in its order), so even fractional seconds add up to
// the same bits, and rows are ordered by day, meter (the spec's order), linkId (null first),
// phoneNumber, ties in order of first appearance.
import { METERS, unitOf, type UsageRecordWire, type UsageTotalWire } from './schema.ts';
import { DAY_MS, type UsageScan } from './scan.ts';
import { utcDate } from './cycle.ts';
import { grown } from '../../core/typed-arrays.ts';
import { Holdings, HoldingOrder } from './holdings.ts';
import { DenseGroups, type GroupStore } from './group-store.ts';
import { TableGroups } from './group-table.ts';

const M = METERS.length;
const TRANSFER = METERS.indexOf('transfer_seconds');
/** Day slots per range: at most 92 days, and a day read from a text with an offset may fall one outside. */
const DAYS = 97;
/** The dense store's arrays at most: 10,000 numbers over 92 days and 4 meters take about 45 MB. */
const DENSE_LIMIT_BYTES = 96 * 1024 * 1024;

export interface GroupAxes {
  day: boolean;
  linkId: boolean;
  number: boolean;
}

export interface Grouped {
  /** Rows before paging. */
  total: number;
  /** Rows `start` to `start + count` (0-based) in order. */
  records(start: number, count: number): UsageRecordWire[];
  /** One per selected meter with usage in range. */
  totals: UsageTotalWire[];
}

/**
 * What aggregations work in, kept between queries (the model holds one): arrays for a million
 * groups made anew at every query had the garbage collector run a full collection of the whole
 * heap (a million calls) each time, which cost more than the query.
 */
export class GroupingBuffers {
  readonly dense: DenseGroups;
  readonly table = new TableGroups();

  /** `denseLimitBytes`: past this the dense store hands over to the table (tests make it small). */
  constructor(denseLimitBytes = DENSE_LIMIT_BYTES) {
    this.dense = new DenseGroups(denseLimitBytes);
  }
}

/** Sums the scans' entries in [from, end) by the axes (the meter axis always on); `wanted[m]` false leaves meter m out. */
export function groupScans(scans: readonly UsageScan[], from: number, end: number, axes: GroupAxes, wanted: readonly boolean[] | null, buffers = new GroupingBuffers()): Grouped {
  const dayBase = Math.floor(from / DAY_MS) - 1;
  const cells = axes.day ? M * DAYS : M;
  // Per meter the sum in range and whether it has any; [M] sums transfer seconds in range, which
  // outbound's billable minutes count whether or not transfer is selected (rule 2).
  const sums = new Float64Array(M + 1);
  const used = new Uint8Array(M);
  // The cell an entry counts in, after adding it to the meter sums; -1 when out of range or not
  // selected (a transfer out of selection still counts toward outbound's billable minutes).
  const cellOf = (m: number, q: number, at: number, day: number): number => {
    if (!(at >= from && at < end)) return -1;
    if (m === TRANSFER) sums[M] = sums[M]! + q;
    if (wanted !== null && !wanted[m]) return -1;
    sums[m] = sums[m]! + q;
    used[m] = 1;
    return axes.day ? m + M * (day - dayBase) : m;
  };
  const rowOf = (cell: number, quantity: number): UsageRecordWire => {
    const meter = METERS[cell % M]!;
    const row: UsageRecordWire = { meter, unit: unitOf(meter), quantity };
    if (axes.day) row.day = utcDate((Math.floor(cell / M) + dayBase) * DAY_MS);
    return row;
  };
  if (!axes.number && !axes.linkId) {
    // Rows by day and meter only: one sum per cell, NaN while the cell has none.
    const cellSums = new Float64Array(cells).fill(NaN);
    for (const scan of scans) {
      scan.each((m, q, at, day) => {
        const cell = cellOf(m, q, at, day);
        if (cell < 0) return;
        const v = cellSums[cell]!;
        cellSums[cell] = v !== v ? q : v + q;
      });
    }
    const present: number[] = [];
    for (let cell = 0; cell < cells; cell++) if (cellSums[cell] === cellSums[cell]) present.push(cell);
    return {
      total: present.length,
      records: (start, count) => present.slice(start, start + count).map((cell) => rowOf(cell, cellSums[cell]!)),
      totals: totalsOf(sums, used),
    };
  }

  buffers.dense.reset(cells);
  let store: GroupStore = buffers.dense;
  const holdings = new Holdings();
  for (const scan of scans) {
    // The holding of each of the scan's number indexes (+1, so that -1 is slot 0) with the link
    // index it was last seen with; a source gives a number one link almost always.
    let holdingOf: Int32Array = new Int32Array(scan.numbers.length + 1).fill(-1);
    let linkSeen: Int32Array = new Int32Array(scan.numbers.length + 1);
    const holding = (n: number, l: number): number => {
      if (n + 1 >= holdingOf.length) {
        holdingOf = grown(holdingOf, n + 2, -1);
        linkSeen = grown(linkSeen, n + 2);
      }
      const key = axes.number ? n + 1 : 0;
      let h = holdingOf[key]!;
      if (h >= 0 && linkSeen[key] === l) return h;
      // With the number axis a row is also cut at the link the number was held through (rule 6).
      const gn = axes.number ? holdings.numberId(n < 0 ? '' : scan.numbers[n]!) : 0;
      const gl = l < 0 ? 0 : holdings.linkId(scan.links[l]!);
      h = holdings.of(gn, gl);
      holdingOf[key] = h;
      linkSeen[key] = l;
      return h;
    };
    scan.each((m, q, at, day, n, l) => {
      const cell = cellOf(m, q, at, day);
      if (cell < 0) return;
      const h = holding(n, l);
      if (store.add(cell, h, q)) return;
      // Past the dense store's memory: the groups so far move to the table, in order of first appearance.
      const table = buffers.table;
      table.reset(cells);
      buffers.dense.drain((c, g, sum) => table.add(c, g, sum));
      store = table;
      store.add(cell, h, q);
    });
  }

  return {
    total: store.size,
    records(start, count) {
      const out: UsageRecordWire[] = [];
      store.rows(start, count, new HoldingOrder(holdings, axes), (cell, h, quantity) => {
        const row = rowOf(cell, quantity);
        if (axes.linkId) row.linkId = holdings.linkNames[holdings.link[h]!]!;
        if (axes.number) row.phoneNumber = holdings.numberNames[holdings.number[h]!]!;
        out.push(row);
      });
      return out;
    },
    totals: totalsOf(sums, used),
  };
}

/** Billable minutes are one round-up over the account total (rule 2); outbound counts transfer seconds in range (`sums[M]`). */
function totalsOf(sums: Float64Array, used: Uint8Array): UsageTotalWire[] {
  const transfer = sums[M]!;
  const out: UsageTotalWire[] = [];
  for (let m = 0; m < M; m++) {
    if (!used[m]) continue;
    const meter = METERS[m]!;
    const quantity = sums[m]!;
    out.push({ meter, unit: unitOf(meter), quantity, billableMinutes: billableMinutes(meter, quantity, transfer), unitPriceHint: null });
  }
  return out;
}

function billableMinutes(meter: (typeof METERS)[number], quantity: number, transfer: number): number | null {
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
