// The listCalls filters in columns (docs/decisions.md "Scale"): per call position its account,
// status and hangup cause (as one id), both numbers, creation instant and duration, read member by member from
// the calls table (an ended call is packed: store.ts) and caught up with the positions changed
// since the last query (the table stamps each change). A query on numbers reads the calls of
// those numbers (number-chains.ts); any other scans the columns newest first, within the span of
// positions its since/until bounds give while creation instants ascend with positions (as calls
// are made), every test run on every call so that a new filter meets no code the last one left
// cold; it keeps the matching positions and only the page asked for is read back as rows. It
// answers what the row-by-row filter answered (the tests compare the two).
import type { Row, Table } from '../../core/store.ts';
import { TableFollower } from '../../core/table-follower.ts';
import { instantOf } from '../../core/clock.ts';
import { Interner } from '../../core/interner.ts';
import { grown } from '../../core/typed-arrays.ts';
import { FROM_SIDE, NumberChains, TO_SIDE } from './number-chains.ts';

/** What the index reads of a call (named here so that this file stays out of the calls' import circle). */
export interface CallListFields extends Row {
  accountId: string;
  status: string;
  from: string;
  to: string;
  dateCreated: string;
  duration: number | null;
  hangupCause: string | null;
}

/** A filter with its numbers already in domestic notation and its instants as epoch ms. */
export interface ListQuery {
  status?: string;
  from?: Set<string>;
  to?: Set<string>;
  number?: Set<string>;
  since?: number;
  until?: number;
  minDuration?: number;
  maxDuration?: number;
  hangupCause?: Set<string>;
}

/** The matching calls newest first; `slice` reads back only the rows asked for. */
export interface RowList<R> {
  readonly length: number;
  slice(start: number, end: number): R[];
}

const QUERY_CACHE_SIZE = 64;
const DIGITS = /^\d{1,15}$/;

export class CallListIndex<R extends CallListFields> {
  private readonly follower = new TableFollower<R>();
  private readonly texts = new Interner(); // accounts, statuses, hangup causes, numbers not all digits
  // Account, status and hangup cause together as one id (a few hundred combinations), so a query
  // tests one small number per call: the triple of each id below.
  private kind = new Int32Array(0);
  private readonly kinds = new Map<number | string, number>();
  private readonly kindTexts: [account: number, status: number, cause: number][] = [];
  private from = new Float64Array(0); // numberKey
  private to = new Float64Array(0);
  private created = new Float64Array(0);
  private duration = new Float64Array(0); // NaN: null
  private readonly views = new Map<string, { version: number; table: Table<R>; positions: Int32Array }>();
  private scratch = new Int32Array(0); // a scan's matches before they are copied out
  private readonly chains = new NumberChains();
  private linked = 0; // positions linked in the chains
  private chainsStale = false; // a call's number changed: the chains are linked again before use
  private firstDescent = 0; // the first position created before the one before it (size: none)

  constructor(private readonly calls: () => Table<R>) {}

  /** The calls of `accountId` that pass `q`, newest first; `key` identifies the query completely. */
  query(key: string, accountId: string, q: ListQuery): RowList<R> {
    const table = this.calls();
    let hit = this.views.get(key);
    if (!hit || hit.version !== table.version || hit.table !== table) {
      this.sync(table);
      if (!hit && this.views.size >= QUERY_CACHE_SIZE) this.views.delete(this.views.keys().next().value!);
      hit = { version: table.version, table, positions: this.scan(accountId, q) };
      this.views.set(key, hit);
    }
    const positions = hit.positions;
    return {
      length: positions.length,
      slice: (start, end) => {
        const out: R[] = [];
        for (let k = Math.max(0, start); k < Math.min(end, positions.length); k++) out.push(table.at(positions[k]!));
        return out;
      },
    };
  }

  private scan(accountId: string, q: ListQuery): Int32Array {
    const a = this.texts.find(accountId);
    if (a === undefined) return new Int32Array(0);
    const size = this.follower.size;
    // Allowed values as tables by id (a status or cause never seen allows nothing), so every
    // test is a load on every call, whichever filters this query has.
    const allowed = (set: Set<string> | undefined) => {
      const table = new Uint8Array(this.texts.size + 1).fill(set === undefined ? 1 : 0); // [id + 1]; [0]: null
      for (const s of set ?? []) {
        const id = this.texts.find(s);
        if (id !== undefined) table[id + 1] = 1;
      }
      return table;
    };
    const statusOk = allowed(q.status === undefined ? undefined : new Set([q.status]));
    const causeOk = allowed(q.hangupCause);
    const kindOk = Uint8Array.from(this.kindTexts, ([acc, status, cause]) => (acc === a && statusOk[status + 1] === 1 && causeOk[cause + 1] === 1 ? 1 : 0));
    const keys = (set: Set<string> | undefined) => (set === undefined ? undefined : Float64Array.from([...set].map((n) => this.numberKey(n, false))));
    const from = keys(q.from);
    const to = keys(q.to);
    const number = keys(q.number);
    const since = q.since ?? -Infinity;
    const until = q.until ?? Infinity;
    const durations = q.minDuration !== undefined || q.maxDuration !== undefined;
    const minD = q.minDuration ?? -Infinity;
    const maxD = q.maxDuration ?? Infinity;
    const { kind, created, duration } = this;
    const fromCol = this.from;
    const toCol = this.to;
    const passes = (i: number) => {
      if (kindOk[kind[i]!] === 0) return false;
      const c = created[i]!;
      if (c < since || c >= until) return false;
      // NaN (null) fails both comparisons: a call without a duration matches no duration bound.
      const d = duration[i]!;
      return (d >= minD && d <= maxD) || !durations;
    };
    if (from || to || number) {
      // The calls of the numbers named (newest first), then every other test on each.
      const candidates = from ? this.numbered(from, FROM_SIDE) : to ? this.numbered(to, TO_SIDE) : this.numbered(number!, -1);
      const out: number[] = [];
      for (const i of candidates) {
        if (!passes(i)) continue;
        if (from && !among(from, fromCol[i]!)) continue;
        if (to && !among(to, toCol[i]!)) continue;
        if (number && !among(number, fromCol[i]!) && !among(number, toCol[i]!)) continue;
        out.push(i);
      }
      return Int32Array.from(out);
    }
    // Creation instants ascending over positions (calls made in clock order): since/until are a span.
    const sorted = this.firstDescent >= size;
    const lo = sorted && q.since !== undefined ? firstAtLeast(created, size, since) : 0;
    const hi = sorted && q.until !== undefined ? firstAtLeast(created, size, until) : size;
    if (this.scratch.length < size) this.scratch = new Int32Array(size);
    const out = this.scratch;
    let n = 0;
    // passes(), written out without branches (a match is kept by moving past it), as this loop is
    // the first page of a new filter over a million calls and its tests pass at random.
    const anyDuration = durations ? 0 : 1;
    for (let i = hi - 1; i >= lo; i--) {
      const c = created[i]!;
      const d = duration[i]!;
      out[n] = i;
      n += kindOk[kind[i]!]! & +(c >= since) & +(c < until) & (+(d >= minD) & +(d <= maxD) | anyDuration);
    }
    return out.slice(0, n);
  }

  /** Positions of calls with one of `keys` on `side` (-1: either), newest first; the chains linked again first when stale. */
  private numbered(keys: Float64Array, side: number): Int32Array {
    if (this.chainsStale) {
      this.chains.clear();
      for (let i = 0; i < this.follower.size; i++) this.link(i);
      this.chainsStale = false;
    }
    return this.chains.positions(keys, side);
  }

  private link(i: number): void {
    this.chains.link(i, FROM_SIDE, this.from[i]!);
    this.chains.link(i, TO_SIDE, this.to[i]!);
  }

  /** Reads the positions changed since the last look (all of them after a restore or a delete). */
  private sync(table: Table<R>): void {
    let firstChanged = Infinity;
    const restart = () => {
      this.chains.clear();
      this.linked = 0;
      this.chainsStale = false;
    };
    const grow = (size: number) => {
      if (size > this.kind.length) this.grow(size);
      this.chains.reserve(size - this.linked); // about one number new per call (the other party's) when numbers repeat little
    };
    this.follower.catchUp(table, grow, (i) => {
      firstChanged = Math.min(firstChanged, i);
      const c = table.field(i, 'hangupCause');
      this.kind[i] = this.kindOf(this.texts.id(table.field(i, 'accountId')), this.texts.id(table.field(i, 'status')), c === null ? -1 : this.texts.id(c));
      // A packed number or instant is its key already (no text made and read back).
      const from = table.numberField(i, 'from', 'digits') ?? this.numberKey(table.field(i, 'from'), true);
      const to = table.numberField(i, 'to', 'digits') ?? this.numberKey(table.field(i, 'to'), true);
      if (i < this.linked && (from !== this.from[i] || to !== this.to[i])) this.chainsStale = true;
      this.from[i] = from;
      this.to[i] = to;
      if (i >= this.linked && !this.chainsStale) this.link(i);
      this.created[i] = table.numberField(i, 'dateCreated', 'time') ?? instantOf(table.field(i, 'dateCreated'))!;
      const d = table.field(i, 'duration');
      this.duration[i] = d === null ? NaN : d;
    }, restart);
    const size = this.follower.size;
    this.linked = size;
    // The first descent stays where it was if it lies before every changed position.
    if (firstChanged !== Infinity && this.firstDescent >= firstChanged) {
      let i = Math.max(1, firstChanged);
      while (i < size && this.created[i]! >= this.created[i - 1]!) i++;
      this.firstDescent = i;
    }
    if (size < this.firstDescent) this.firstDescent = size;
  }

  /** The id of an account, status and cause (text ids; -1: no cause), keyed by one number while the ids are small. */
  private kindOf(account: number, status: number, cause: number): number {
    const small = account < 2 ** 20 && status < 2 ** 12 && cause < 2 ** 21 - 1;
    const key = small ? account * 2 ** 33 + status * 2 ** 21 + (cause + 1) : `${account},${status},${cause}`;
    let id = this.kinds.get(key);
    if (id === undefined) {
      id = this.kindTexts.push([account, status, cause]) - 1;
      this.kinds.set(key, id);
    }
    return id;
  }

  /**
   * A number as one double: digits as the number '1' + digits (no string kept per call), any
   * other spelling as minus one minus its interned id; 0 (no column holds it) for one never seen.
   */
  private numberKey(n: string, add: boolean): number {
    if (DIGITS.test(n)) return Number(`1${n}`);
    const id = add ? this.texts.id(n) : this.texts.find(n);
    return id === undefined ? 0 : -1 - id;
  }

  private grow(min: number): void {
    this.kind = grown(this.kind, min);
    this.from = grown(this.from, min);
    this.to = grown(this.to, min);
    this.created = grown(this.created, min);
    this.duration = grown(this.duration, min);
  }
}

/** The first position below `size` whose instant is at least `t` (instants ascending). */
function firstAtLeast(created: Float64Array, size: number, t: number): number {
  let lo = 0;
  let hi = size;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (created[mid]! < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function among(values: Float64Array, v: number): boolean {
  for (let k = 0; k < values.length; k++) if (values[k] === v) return true;
  return false;
}
