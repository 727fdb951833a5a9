// The listCalls filters in columns (docs/decisions.md "Scale"): per call position its account,
// status, both numbers, creation instant, duration and hangup cause, read member by member from
// the calls table (an ended call is packed: store.ts) and caught up with the positions changed
// since the last query (the table stamps each change). A query scans numbers newest first and
// keeps the matching positions; only the page asked for is read back as rows. It answers what
// the row-by-row filter answered (the tests compare the two).
import type { Row, Table } from '../../core/store.ts';
import { TableFollower } from '../../core/table-follower.ts';
import { instantOf } from '../../core/clock.ts';
import { Interner } from '../../core/interner.ts';
import { grown } from '../../core/typed-arrays.ts';

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
  private account = new Int32Array(0);
  private status = new Int32Array(0);
  private from = new Float64Array(0); // numberKey
  private to = new Float64Array(0);
  private created = new Float64Array(0);
  private duration = new Float64Array(0); // NaN: null
  private cause = new Int32Array(0); // -1: null
  private readonly views = new Map<string, { version: number; table: Table<R>; positions: Int32Array }>();
  private scratch = new Int32Array(0); // a scan's matches before they are copied out

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
    // A value never seen matches nothing: -2 is no text's id.
    const idOf = (s: string) => this.texts.find(s) ?? -2;
    // The values of a filter as a typed array: a query names a few, and a loop over them beats hashing a double per call.
    const ids = (set: Set<string> | undefined) => (set === undefined ? undefined : Float64Array.from([...set].map(idOf)));
    const keys = (set: Set<string> | undefined) => (set === undefined ? undefined : Float64Array.from([...set].map((n) => this.numberKey(n, false))));
    const status = q.status === undefined ? undefined : idOf(q.status);
    const from = keys(q.from);
    const to = keys(q.to);
    const number = keys(q.number);
    const causes = ids(q.hangupCause);
    // Every column and bound in a local, absent bounds as numbers that pass: the loop is the
    // first page of a new filter over a million calls.
    const { account, created, duration, cause } = this;
    const statusCol = this.status;
    const fromCol = this.from;
    const toCol = this.to;
    const wantStatus = status ?? 0;
    const since = q.since ?? -Infinity;
    const until = q.until ?? Infinity;
    const durations = q.minDuration !== undefined || q.maxDuration !== undefined;
    const minD = q.minDuration ?? -Infinity;
    const maxD = q.maxDuration ?? Infinity;
    const size = this.follower.size;
    if (this.scratch.length < size) this.scratch = new Int32Array(size);
    const out = this.scratch;
    let n = 0;
    for (let i = size - 1; i >= 0; i--) {
      if (account[i] !== a) continue;
      if (status !== undefined && statusCol[i] !== wantStatus) continue;
      const c = created[i]!;
      if (c < since || c >= until) continue;
      // NaN (null) fails both comparisons: a call without a duration matches no duration bound.
      if (durations) {
        const d = duration[i]!;
        if (!(d >= minD && d <= maxD)) continue;
      }
      if (from && !among(from, fromCol[i]!)) continue;
      if (to && !among(to, toCol[i]!)) continue;
      if (number && !among(number, fromCol[i]!) && !among(number, toCol[i]!)) continue;
      if (causes && !among(causes, cause[i]!)) continue;
      out[n++] = i;
    }
    return out.slice(0, n);
  }

  /** Reads the positions changed since the last look (all of them after a restore or a delete). */
  private sync(table: Table<R>): void {
    this.follower.catchUp(table, (size) => size > this.account.length && this.grow(size), (i) => {
      this.account[i] = this.texts.id(table.field(i, 'accountId'));
      this.status[i] = this.texts.id(table.field(i, 'status'));
      // A packed number or instant is its key already (no text made and read back).
      this.from[i] = table.numberField(i, 'from', 'digits') ?? this.numberKey(table.field(i, 'from'), true);
      this.to[i] = table.numberField(i, 'to', 'digits') ?? this.numberKey(table.field(i, 'to'), true);
      this.created[i] = table.numberField(i, 'dateCreated', 'time') ?? instantOf(table.field(i, 'dateCreated'))!;
      const d = table.field(i, 'duration');
      this.duration[i] = d === null ? NaN : d;
      const c = table.field(i, 'hangupCause');
      this.cause[i] = c === null ? -1 : this.texts.id(c);
    });
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
    this.account = grown(this.account, min);
    this.status = grown(this.status, min);
    this.from = grown(this.from, min);
    this.to = grown(this.to, min);
    this.created = grown(this.created, min);
    this.duration = grown(this.duration, min);
    this.cause = grown(this.cause, min);
  }
}

function among(values: Float64Array, v: number): boolean {
  for (let k = 0; k < values.length; k++) if (values[k] === v) return true;
  return false;
}
