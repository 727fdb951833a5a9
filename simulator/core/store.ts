// A typed table of immutable rows: one Map from id to position plus an array in creation order.
// Rows are replaced, never mutated, so a row object can key a cache of its serialised JSON
// (see wire.ts) and a snapshot is simply the array. Each position remembers the version at
// which its row last changed, so an index derived from the rows (usage over a million calls)
// catches up with the positions changed since it last looked instead of rereading every row.

import { grown } from './typed-arrays.ts';

export interface Row {
  id: string;
}

/** Filtered views kept per table; a polled list is answered without rescanning every row. */
const QUERY_CACHE_SIZE = 256;

export class Table<T extends Row> {
  private rows: T[] = [];
  private index = new Map<string, number>();
  private changes = 0; // bumped by every change; cached views of an older version are stale
  private stamps = new Float64Array(16); // maps a position to the version its row last changed at
  private moves = 0; // bumped when positions shift (a delete, an adopt): derived indexes start over
  private readonly views = new Map<string, { version: number; rows: T[] }>();

  constructor(rows: readonly T[] = []) {
    for (const r of rows) this.insert(r);
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
    const i = this.index.get(id);
    return i === undefined ? undefined : this.rows[i];
  }

  has(id: string): boolean {
    return this.index.has(id);
  }

  insert(row: T): T {
    if (this.index.has(row.id)) throw new Error(`duplicate id ${row.id}`);
    const pos = this.rows.length;
    this.index.set(row.id, pos);
    this.rows.push(row);
    if (pos === this.stamps.length) this.stamps = grown(this.stamps, pos + 1);
    this.stamps[pos] = ++this.changes;
    return row;
  }

  /** Replaces the row with the same id, keeping its position in creation order. */
  replace(row: T): T {
    const i = this.index.get(row.id);
    if (i === undefined) throw new Error(`no row ${row.id}`);
    this.rows[i] = row;
    this.stamps[i] = ++this.changes;
    return row;
  }

  delete(id: string): boolean {
    const i = this.index.get(id);
    if (i === undefined) return false;
    this.rows.splice(i, 1);
    this.index.delete(id);
    this.stamps.copyWithin(i, i + 1, this.rows.length + 1);
    this.changes++;
    this.moves++;
    for (let j = i; j < this.rows.length; j++) this.index.set(this.rows[j]!.id, j);
    return true;
  }

  /** Rows in creation order. */
  all(): readonly T[] {
    return this.rows;
  }

  /** Rows newest first (reverse creation order), filtered. */
  newestFirst(keep: (row: T) => boolean = () => true): T[] {
    const out: T[] = [];
    for (let i = this.rows.length - 1; i >= 0; i--) {
      const r = this.rows[i]!;
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
    return this.rows.find(pred);
  }

  /** Takes over another table's rows in place (restore and reset), so holders keep one object. */
  adopt(other: Table<T>): void {
    this.rows = other.rows;
    this.index = other.index;
    this.stamps = other.stamps;
    this.views.clear();
    this.changes = Math.max(this.changes, other.changes) + 1;
    this.moves++;
  }

  toJSON(): T[] {
    return this.rows;
  }
}
