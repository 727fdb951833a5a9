// The group store without a memory limit (group-store.ts): groups in a hash table over typed
// arrays (open addressing, no object per group), kept in order of first appearance and put in
// the answer's order by stable counting sorts. A query moves here when the dense store would
// grow past its limit (very many numbers over many days).
import { grown } from '../../core/typed-arrays.ts';
import type { HoldingOrder } from './holdings.ts';
import type { EmitGroup, GroupStore } from './group-store.ts';

export class TableGroups implements GroupStore {
  size = 0;
  private keys = new Int32Array(1024).fill(-1); // the table: a group's key, -1 free
  private slots = new Int32Array(1024); // the table: the group at that key
  private shift = 22; // 32 - log2(table size): Fibonacci hashing takes the product's top bits
  private readonly large = new Map<number, number>(); // keys past 2^31 (over two million holdings)
  private cell = new Int32Array(1024); // per group, in order of first appearance
  private holding = new Int32Array(1024);
  private sum = new Float64Array(1024);

  /** `cells`: how many cells a holding spans (the key is cell + cells * holding). */
  constructor(private cells = 1) {}

  reset(cells: number): void {
    if (this.size > 0) this.keys.fill(-1);
    this.large.clear();
    this.size = 0;
    this.cells = cells;
  }

  add(cell: number, holding: number, q: number): boolean {
    const g = this.group(cell + this.cells * holding);
    if (g === this.size) {
      if (g === this.cell.length) {
        this.cell = grown(this.cell, g + 1);
        this.holding = grown(this.holding, g + 1);
        this.sum = grown(this.sum, g + 1);
      }
      this.cell[g] = cell;
      this.holding[g] = holding;
      this.sum[g] = q;
      this.size++;
    } else this.sum[g] = this.sum[g]! + q;
    return true;
  }

  rows(start: number, count: number, order: HoldingOrder, emit: EmitGroup): void {
    const sorted = this.sorted(order);
    for (let k = start; k < Math.min(this.size, start + count); k++) {
      const g = sorted[k]!;
      emit(this.cell[g]!, this.holding[g]!, this.sum[g]!);
    }
  }

  /** The group of a key; `size` (a new group) when the key is new. */
  private group(key: number): number {
    if (key > 0x7fffffff) {
      const found = this.large.get(key);
      if (found !== undefined) return found;
      this.large.set(key, this.size);
      return this.size;
    }
    const mask = this.keys.length - 1;
    let i = Math.imul(key, 0x9e3779b1) >>> this.shift;
    for (;;) {
      const k = this.keys[i]!;
      if (k === key) return this.slots[i]!;
      if (k === -1) break;
      i = (i + 1) & mask;
    }
    this.keys[i] = key;
    this.slots[i] = this.size;
    if ((this.size + 1) * 2 > this.keys.length) this.rehash();
    return this.size;
  }

  private rehash(): void {
    const oldKeys = this.keys;
    const oldSlots = this.slots;
    this.keys = new Int32Array(oldKeys.length * 2).fill(-1);
    this.slots = new Int32Array(oldKeys.length * 2);
    this.shift--;
    const mask = this.keys.length - 1;
    for (let j = 0; j < oldKeys.length; j++) {
      const k = oldKeys[j]!;
      if (k === -1) continue;
      let i = Math.imul(k, 0x9e3779b1) >>> this.shift;
      while (this.keys[i] !== -1) i = (i + 1) & mask;
      this.keys[i] = k;
      this.slots[i] = oldSlots[j]!;
    }
  }

  /** Groups in the answer's order: stable counting sorts from first appearance, least significant key first. */
  private sorted(order: HoldingOrder): Int32Array {
    let groups: Int32Array = Int32Array.from({ length: this.size }, (_, g) => g);
    groups = countingSort(groups, order.numberRanks, (g) => order.numberRank[this.holding[g]!]!);
    groups = countingSort(groups, order.linkRanks, (g) => order.linkRank[this.holding[g]!]!);
    return countingSort(groups, this.cells, (g) => this.cell[g]!);
  }
}

function countingSort(items: Int32Array, buckets: number, keyOf: (item: number) => number): Int32Array {
  if (buckets <= 1) return items;
  const keys = new Int32Array(items.length);
  const starts = new Int32Array(buckets + 1);
  for (let i = 0; i < items.length; i++) starts[(keys[i] = keyOf(items[i]!)) + 1]!++;
  for (let b = 0; b < buckets; b++) starts[b + 1]! += starts[b]!;
  const out = new Int32Array(items.length);
  for (let i = 0; i < items.length; i++) out[starts[keys[i]!]!++] = items[i]!;
  return out;
}
