// Where a usage query sums its groups. A group is a (cell, holding) pair: the cell is the row's
// day and meter ((day - base) * meters + meter, 0 without the day axis), the holding its number
// and link (holdings.ts). Two stores answer the same: `DenseGroups` keeps one array of holdings
// per cell, so summing time-ordered entries touches a few small arrays at a time (a hash table
// of a million groups missed the cache at every entry and took most of the query), within a
// memory limit; past it the query moves to `TableGroups` (group-table.ts), which has no limit.
import type { HoldingOrder } from './holdings.ts';

export type EmitGroup = (cell: number, holding: number, quantity: number) => void;

export interface GroupStore {
  /** Groups so far. */
  readonly size: number;
  /** Adds `q` to the group; false (nothing added) when the store cannot take it. */
  add(cell: number, holding: number, q: number): boolean;
  /** Groups `start` to `start + count` in the answer's order: cell, then holding order, ties by first appearance. */
  rows(start: number, count: number, order: HoldingOrder, emit: EmitGroup): void;
}

/** Bytes one (cell, holding) place costs: its sum and when it first appeared. */
const PLACE_BYTES = 12;

export class DenseGroups implements GroupStore {
  size = 0;
  private capacity = 0; // holdings each cell's arrays hold
  private sums: (Float64Array | undefined)[] = []; // per cell: per holding the sum, NaN while absent
  private firsts: (Int32Array | undefined)[] = []; // per cell: per holding its first appearance
  private counts = new Int32Array(0); // per cell: groups present
  private used: number[] = []; // cells with arrays, in order opened
  private spare: { sums: Float64Array; firsts: Int32Array }[] = []; // arrays of past queries, NaN-filled
  private cells = 0;

  /** `limitBytes`: the most its arrays may take. */
  constructor(private readonly limitBytes: number) {}

  /** Empty, for `cells` cells; keeps its arrays for reuse (the memory of one query is made once). */
  reset(cells: number): void {
    for (const c of this.used) {
      this.sums[c]!.fill(NaN);
      this.spare.push({ sums: this.sums[c]!, firsts: this.firsts[c]! });
    }
    this.used = [];
    this.cells = cells;
    this.sums = new Array(cells);
    this.firsts = new Array(cells);
    this.counts = new Int32Array(cells);
    this.size = 0;
  }

  add(cell: number, holding: number, q: number): boolean {
    if (holding >= this.capacity && !this.widen(holding + 1)) return false;
    let sums = this.sums[cell];
    if (sums === undefined) {
      if (!this.open(cell)) return false;
      sums = this.sums[cell]!;
    }
    const v = sums[holding]!;
    if (v !== v) {
      sums[holding] = q;
      this.firsts[cell]![holding] = this.size++;
      this.counts[cell]!++;
    } else sums[holding] = v + q;
    return true;
  }

  rows(start: number, count: number, order: HoldingOrder, emit: EmitGroup): void {
    let skip = start;
    let left = count;
    const run: number[] = [];
    for (let cell = 0; cell < this.cells && left > 0; cell++) {
      const present = this.counts[cell]!;
      if (present === 0) continue;
      if (skip >= present) {
        skip -= present;
        continue;
      }
      const sums = this.sums[cell]!;
      const firsts = this.firsts[cell]!;
      for (let p = 0; p < order.order.length && left > 0; ) {
        const end = order.runEnd[p]!;
        if (end === p + 1) {
          // A holding alone in its rank (the usual case).
          const h = order.order[p++]!;
          if (!(h < this.capacity && sums[h] === sums[h])) continue;
          if (skip > 0) skip--;
          else {
            emit(cell, h, sums[h]!);
            left--;
          }
          continue;
        }
        // Holdings that sort equal (one number through several links, the link axis off): by first appearance.
        run.length = 0;
        for (; p < end; p++) {
          const h = order.order[p]!;
          if (h < this.capacity && sums[h] === sums[h]) run.push(h);
        }
        run.sort((a, b) => firsts[a]! - firsts[b]!);
        for (const h of run) {
          if (left === 0) break;
          if (skip > 0) skip--;
          else {
            emit(cell, h, sums[h]!);
            left--;
          }
        }
      }
    }
  }

  /** Every group in order of first appearance (to move them to another store). */
  drain(emit: EmitGroup): void {
    const all: { first: number; cell: number; holding: number }[] = [];
    for (const cell of this.used) {
      const sums = this.sums[cell]!;
      for (let h = 0; h < this.capacity; h++) if (sums[h] === sums[h]) all.push({ first: this.firsts[cell]![h]!, cell, holding: h });
    }
    all.sort((a, b) => a.first - b.first);
    for (const g of all) emit(g.cell, g.holding, this.sums[g.cell]![g.holding]!);
  }

  private fits(cells: number, capacity: number): boolean {
    return cells * capacity * PLACE_BYTES <= this.limitBytes;
  }

  private open(cell: number): boolean {
    if (!this.fits(this.used.length + 1, Math.max(this.capacity, 1))) return false;
    if (this.capacity === 0) this.capacity = 1;
    let arrays = this.spare.pop();
    while (arrays && arrays.sums.length !== this.capacity) arrays = this.spare.pop();
    arrays ??= { sums: new Float64Array(this.capacity).fill(NaN), firsts: new Int32Array(this.capacity) };
    this.sums[cell] = arrays.sums;
    this.firsts[cell] = arrays.firsts;
    this.used.push(cell);
    return true;
  }

  /** Room for `holdings` holdings in every open cell (doubling); false past the memory limit. */
  private widen(holdings: number): boolean {
    let capacity = Math.max(this.capacity, 16);
    while (capacity < holdings) capacity *= 2;
    if (!this.fits(Math.max(this.used.length, 1), capacity)) return false;
    for (const cell of this.used) {
      const sums = new Float64Array(capacity).fill(NaN);
      sums.set(this.sums[cell]!);
      const firsts = new Int32Array(capacity);
      firsts.set(this.firsts[cell]!);
      this.sums[cell] = sums;
      this.firsts[cell] = firsts;
    }
    this.spare = [];
    this.capacity = capacity;
    return true;
  }
}
