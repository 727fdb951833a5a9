// The usage of ended calls in columns (docs/decisions.md "Usage over a million calls"): per call
// position, its account, the account's number on the line, end and answer instants, connected
// seconds, machine detection and transferred seconds, read from the calls table and caught up
// with the positions that changed since the last query (the table stamps each change), so
// getUsage over a million calls visits numbers instead of building an entry object per call.
// It gives exactly what `usageEntries` (model.ts) gives, in the same order; the link is still
// the number's open assignment at query time, looked up once per number.
import type { Row, Table } from '../../core/store.ts';
import { TableFollower } from '../../core/table-follower.ts';
import { instantOf } from '../../core/clock.ts';
import { Interner } from '../../core/interner.ts';
import { grown } from '../../core/typed-arrays.ts';
import { dayOfText, type UsageScan, type UsageVisit } from '../usage/scan.ts';

const DAY_MS = 86_400_000;
import { METERS } from '../usage/schema.ts';

const OUTBOUND = METERS.indexOf('outbound_seconds');
const INBOUND = METERS.indexOf('inbound_seconds');
const TRANSFER = METERS.indexOf('transfer_seconds');
const AMD = METERS.indexOf('amd_invocations');
// Flags of a position: 0 = no usage yet (in progress, or not read).
const ENDED = 1;
const IS_INBOUND = 2;
const CONNECTED = 4; // duration > 0
const DETECTED = 8; // machine detection on an answered call

/** What the index reads of a call (the call row; named here so that this file stays out of the calls' import circle). */
export interface CallUsageFields extends Row {
  accountId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  answeredAt: string | null;
  dateUpdated: string | null;
  duration: number | null;
  machineDetection: string | null;
  transfers?: readonly unknown[];
}

export class CallUsageIndex<R extends CallUsageFields> {
  private readonly follower = new TableFollower<R>();
  private readonly accounts = new Interner();
  private readonly numbers = new Interner();
  private account = new Int32Array(0);
  private own = new Int32Array(0); // the account's number on the line (interned)
  private flags = new Uint8Array(0);
  private end = new Float64Array(0); // dateUpdated, epoch ms
  private endDay = new Int32Array(0); // its UTC day, days since the epoch
  private answered = new Float64Array(0); // answeredAt, epoch ms (for detection)
  private answeredDay = new Int32Array(0);
  private seconds = new Float64Array(0); // duration
  private transferred = new Float64Array(0); // the representative leg's billable seconds

  constructor(
    private readonly calls: () => Table<R>,
    private readonly linkOf: (accountId: string, number: string) => string | null,
    /** the billed seconds of a call's transfer legs (transfers.ts) */
    private readonly transferSeconds: (legs: NonNullable<R['transfers']>) => number,
  ) {}

  scan(accountId: string): UsageScan {
    this.sync();
    const links = new Interner();
    const numberLink = new Int32Array(this.numbers.size).fill(-2); // -2: not looked up yet
    const a = this.accounts.find(accountId);
    return {
      numbers: this.numbers.names,
      links: links.names,
      each: (visit) => {
        if (a !== undefined) this.visit(a, accountId, numberLink, links, visit);
      },
    };
  }

  /** The account's entries, in call order: connected seconds, detection, transferred seconds (as `usageEntries`). */
  private visit(a: number, accountId: string, numberLink: Int32Array, links: Interner, visit: UsageVisit): void {
    const { account, own, flags, end, endDay, answered, answeredDay, seconds, transferred } = this;
    const size = this.follower.size;
    for (let i = 0; i < size; i++) {
      const f = flags[i]!;
      if (f === 0 || account[i] !== a) continue;
      const n = own[i]!;
      let l = numberLink[n]!;
      if (l === -2) {
        const link = this.linkOf(accountId, this.numbers.name(n));
        numberLink[n] = l = link === null ? -1 : links.id(link);
      }
      const at = end[i]!;
      const day = endDay[i]!;
      if (f & CONNECTED) visit(f & IS_INBOUND ? INBOUND : OUTBOUND, seconds[i]!, at, day, n, l);
      if (f & DETECTED) visit(AMD, 1, answered[i]!, answeredDay[i]!, n, l);
      if (transferred[i]! > 0) visit(TRANSFER, transferred[i]!, at, day, n, l);
    }
  }

  /** Reads the positions changed since the last look (all of them after a restore or a delete). */
  private sync(): void {
    const table = this.calls();
    // Member by member: an ended call is packed (store.ts) and is not read whole.
    this.follower.catchUp(
      table,
      (size) => size > this.flags.length && this.grow(size),
      (i) => this.read(i, (key) => table.field(i, key), (key) => table.numberField(i, key, 'time')),
    );
  }

  /** `packedInstant` gives a packed instant as the epoch ms it is packed as (written as iso() writes: its day is its UTC day). */
  private read(i: number, field: <K extends keyof R>(key: K) => R[K], packedInstant: (key: 'dateUpdated' | 'answeredAt') => number | undefined): void {
    this.transferred[i] = 0;
    const packedEnd = packedInstant('dateUpdated');
    const dateUpdated = packedEnd === undefined ? field('dateUpdated') : '';
    if (dateUpdated === null) {
      this.flags[i] = 0;
      return;
    }
    const inbound = field('direction') !== 'outbound';
    const duration = field('duration');
    const packedAnswer = packedInstant('answeredAt');
    const answeredAt = packedAnswer === undefined ? field('answeredAt') : '';
    let f = ENDED | (inbound ? IS_INBOUND : 0);
    if (duration !== null && duration > 0) f |= CONNECTED;
    if (field('machineDetection') !== null && answeredAt !== null) {
      f |= DETECTED;
      this.answered[i] = packedAnswer ?? instantOf(answeredAt)!;
      this.answeredDay[i] = packedAnswer === undefined ? dayOfText(answeredAt, this.answered[i]!) : Math.floor(packedAnswer / DAY_MS);
    }
    this.flags[i] = f;
    this.account[i] = this.accounts.id(field('accountId'));
    this.own[i] = this.numbers.id(inbound ? field('to') : field('from'));
    this.end[i] = packedEnd ?? instantOf(dateUpdated)!;
    this.endDay[i] = packedEnd === undefined ? dayOfText(dateUpdated, this.end[i]!) : Math.floor(packedEnd / DAY_MS);
    this.seconds[i] = duration ?? 0;
    const transfers = field('transfers');
    this.transferred[i] = transfers === undefined || transfers.length === 0 ? 0 : this.transferSeconds(transfers as NonNullable<R['transfers']>);
  }

  private grow(min: number): void {
    this.account = grown(this.account, min);
    this.own = grown(this.own, min);
    this.flags = grown(this.flags, min);
    this.end = grown(this.end, min);
    this.endDay = grown(this.endDay, min);
    this.answered = grown(this.answered, min);
    this.answeredDay = grown(this.answeredDay, min);
    this.seconds = grown(this.seconds, min);
    this.transferred = grown(this.transferred, min);
  }
}
