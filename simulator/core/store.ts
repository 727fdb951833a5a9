// A typed table of rows: an id index to position plus an array in creation order. Rows are
// replaced, not mutated, so a row object can key a cache of its serialised JSON (see wire.ts);
// an owner may change its own live row in place and replace it with itself, if it forgets what
// was cached of it (`holdsLive`; the calls' progression does, for a flow's call). Each position remembers the version at
// which its row last changed, so an index derived from the rows (usage over a million calls)
// catches up with the positions changed since it last looked instead of rereading every row.
// A table may pack its finished rows (`packWhen`, packed-rows.ts): such a row is kept as a record
// of typed arrays and read back as a new, equal object; the others are kept as they are.

import { PackedRows } from './packed-rows.ts';
import { grown } from './typed-arrays.ts';
import { IdIndex } from './id-index.ts';

export interface Row {
  id: string;
}

/** Filtered views kept per table; a polled list is answered without rescanning every row. */
const QUERY_CACHE_SIZE = 256;

export interface TableOptions<T> {
  /** Rows that will rarely change again (an ended call): kept packed, read back as equal new objects. */
  packWhen?: (row: T) => boolean;
}

/** A packed row in `rows`: its record number in the table's packed store. */
export type Slot<T> = T | number;

/** A table's rows with the index and stamps that go with them (Table.contents). */
interface TableContents<T extends Row> {
  rows: Slot<T>[];
  packed: PackedRows | undefined;
  packedCount: number;
  index: IdIndex;
  stamps: Float64Array<ArrayBuffer>;
}

export class Table<T extends Row> {
  private rows: Slot<T>[] = [];
  private readonly packWhen: ((row: T) => boolean) | undefined;
  private packed: PackedRows | undefined;
  private packedCount = 0;
  private index = new IdIndex();
  private readonly idAt = (pos: number): string => this.field(pos, 'id') as string;
  // The id last found and its position: a change reads its row, checks it and replaces it, all
  // by the same id (about four lookups in five of a batch's calls), and positions move only on
  // delete and adopt, which forget it (docs/decisions.md "Scale", "The batch's CPU per call, seventh round").
  private lastId: string | undefined;
  private lastPos = -1;
  private changes = 0; // bumped by every change; cached views of an older version are stale
  private stamps = new Float64Array(16); // maps a position to the version its row last changed at
  private moves = 0; // bumped when positions shift (a delete, an adopt): derived indexes start over
  private readonly views = new Map<string, { version: number; rows: T[] }>();

  constructor(rows: readonly T[] = [], options: TableOptions<T> = {}) {
    this.packWhen = options.packWhen;
    for (const r of rows) this.insert(r);
  }

  /** The row at a position in creation order. */
  at(pos: number): T {
    return this.read(this.rows[pos]!);
  }

  /** One member of the row at `pos` (a packed row is not read whole). */
  field<K extends keyof T>(pos: number, key: K): T[K] {
    const slot = this.rows[pos]!;
    return typeof slot === 'number' ? (this.packed!.field(slot, key as string) as T[K]) : slot[key];
  }

  /** One member of a packed row as its stored number (packed-rows.ts `numberField`); undefined for a row kept as it is. */
  numberField(pos: number, key: keyof T & string, kind: 'time' | 'digits'): number | undefined {
    const slot = this.rows[pos]!;
    return typeof slot === 'number' ? this.packed!.numberField(slot, key, kind) : undefined;
  }

  /** Rows kept packed, and the bytes their records take. */
  get packing(): { rows: number; bytes: number } {
    return { rows: this.packedCount, bytes: this.packed?.bytes ?? 0 };
  }

  private read(slot: Slot<T>): T {
    return typeof slot === 'number' ? this.packed!.unpack<T>(slot) : slot;
  }

  /** What to keep for `row`: its record when the table packs it, else the row. */
  private slot(row: T): Slot<T> {
    if (this.packWhen === undefined || !this.packWhen(row)) return row;
    const rec = (this.packed ??= new PackedRows()).pack(row);
    if (rec === undefined) return row;
    this.packedCount++;
    return rec;
  }

  get size(): number {
    return this.rows.length;
  }

  /** Bumped by every insert, replace and delete. */
  get version(): number {
    return this.changes;
  }

  /** Bumped when rows change position (a delete, an adopt): what was derived per position is void. */
  get layout(): number {
    return this.moves;
  }

  /** The version at which the row at `pos` last changed (inserted or replaced). */
  changedAt(pos: number): number {
    return this.stamps[pos]!;
  }

  get(id: string): T | undefined {
    const i = this.position(id);
    return i < 0 ? undefined : this.read(this.rows[i]!);
  }

  has(id: string): boolean {
    return this.position(id) >= 0;
  }

  /** The position of `id`, or -1. */
  private position(id: string): number {
    if (id === this.lastId) return this.lastPos;
    // An empty table hashes nothing (a call's end asks tables that most runs leave empty).
    if (this.rows.length === 0) return -1;
    const i = this.index.get(id, this.idAt);
    if (i >= 0) {
      this.lastId = id;
      this.lastPos = i;
    }
    return i;
  }

  /** Positions moved: the memo goes, its position too (an id undefined at run time equals the forgotten id and must find nothing). */
  private forgetLast(): void {
    this.lastId = undefined;
    this.lastPos = -1;
  }

  insert(row: T): T {
    const pos = this.rows.length;
    // One probe, not two: the index adds the id only where it finds it absent.
    if (!this.index.add(row.id, pos, this.idAt)) throw new Error(`duplicate id ${row.id}`);
    this.rows.push(this.slot(row));
    this.lastId = row.id;
    this.lastPos = pos;
    if (pos === this.stamps.length) this.stamps = grown(this.stamps, pos + 1);
    this.stamps[pos] = ++this.changes;
    return row;
  }

  /** Replaces the row with the same id (or stores its live row changed in place), keeping its position in creation order. */
  replace(row: T): T {
    const i = this.position(row.id);
    if (i < 0) throw new Error(`no row ${row.id}`);
    if (typeof this.rows[i] === 'number') this.packedCount--;
    this.rows[i] = this.slot(row);
    this.stamps[i] = ++this.changes;
    return row;
  }

  /** Whether `row` is the object this table keeps for its id (a live row, not a copy or an unpacked record). */
  holdsLive(row: T): boolean {
    const i = this.position(row.id);
    return i >= 0 && this.rows[i] === row;
  }

  delete(id: string): boolean {
    const i = this.position(id);
    if (i < 0) return false;
    this.forgetLast();
    if (typeof this.rows[i] === 'number') this.packedCount--;
    this.index.delete(id, this.idAt);
    this.rows.splice(i, 1);
    this.stamps.copyWithin(i, i + 1, this.rows.length + 1);
    this.changes++;
    this.moves++;
    // Each later row moves one place down; while they move, a position above j is still an old one (its row is one place lower now).
    for (let j = i; j < this.rows.length; j++) this.index.move(this.field(j, 'id') as string, j, (pos) => this.idAt(pos > j ? pos - 1 : pos));
    return true;
  }

  /** Deletes the rows inserted after the table held `size` (an operation taking back its own inserts). */
  dropNewest(size: number): void {
    while (this.rows.length > size) this.delete(this.at(this.rows.length - 1).id);
  }

  /** Rows in creation order (a table that packs builds the list: iterate with `at` where it matters). */
  all(): readonly T[] {
    if (this.packedCount === 0) return this.rows as T[];
    return this.rows.map((slot) => this.read(slot));
  }

  /** Rows newest first (reverse creation order), filtered. */
  newestFirst(keep: (row: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.read(this.rows[i]!);
      if (keep(r)) out.push(r);
    }
    return out;
  }

  /**
   * Rows newest first that pass `keep`, remembered under `key` until the table changes.
   * `key` must identify the filter completely (same key, same filter).
   */
  newestFirstCached(key: string, keep: (row: T) => boolean): readonly T[] {
    const hit = this.views.get(key);
    if (hit && hit.version === this.changes) return hit.rows;
    const rows = this.newestFirst(keep);
    if (!hit && this.views.size >= QUERY_CACHE_SIZE) this.views.delete(this.views.keys().next().value!);
    this.views.set(key, { version: this.changes, rows });
    return rows;
  }

  find(pred: (row: T) => boolean): T | undefined {
    for (let i = 0; i < this.rows.length; i++) {
      const r = this.read(this.rows[i]!);
      if (pred(r)) return r;
    }
    return undefined;
  }

  /** Takes over another table's rows in place (restore and reset), so holders keep one object. */
  adopt(other: Table<T>): void {
    this.takeContents(other.contents(), Math.max(this.changes, other.changes) + 1);
  }

  /**
   * What the table holds now, put back by the function it answers: for a restore's undo, whose
   * restore gives the table new contents (`adopt`) and so leaves these as they are.
   */
  keep(): () => void {
    const held = this.contents();
    return () => this.takeContents(held, this.changes + 1);
  }

  /** Everything a table's rows are: what `adopt` takes over and `keep` holds. */
  private contents(): TableContents<T> {
    return { rows: this.rows, packed: this.packed, packedCount: this.packedCount, index: this.index, stamps: this.stamps };
  }

  /** Rows from elsewhere, as a new version: every memo and view of the old rows is forgotten, and positions count as moved. */
  private takeContents(c: TableContents<T>, version: number): void {
    this.rows = c.rows;
    this.packed = c.packed;
    this.packedCount = c.packedCount;
    this.index = c.index;
    this.stamps = c.stamps;
    this.forgetLast();
    this.views.clear();
    this.changes = version;
    this.moves++;
  }

  /** Each position's slot and the store of its records (a snapshot's packed form, packed-transfer.ts). */
  slots(): { slots: readonly Slot<T>[]; store: PackedRows | undefined } {
    return { slots: this.rows, store: this.packed };
  }

  /** A table of `slots` whose records are in `store` (packed-transfer.ts); a repeated id throws. */
  static ofSlots<T extends Row>(slots: Slot<T>[], store: PackedRows | undefined, options: TableOptions<T>): Table<T> {
    const t = new Table<T>([], options);
    t.rows = slots;
    t.packed = store;
    t.stamps = new Float64Array(Math.max(16, slots.length));
    for (let pos = 0; pos < slots.length; pos++) {
      const slot = slots[pos]!;
      const id = typeof slot === 'number' ? (store!.field(slot, 'id') as string) : slot.id;
      if (!t.index.add(id, pos, t.idAt)) throw new Error(`duplicate id ${id}`);
      if (typeof slot === 'number') t.packedCount++;
      t.stamps[pos] = ++t.changes;
    }
    return t;
  }

  toJSON(): readonly T[] {
    return this.all();
  }
}
