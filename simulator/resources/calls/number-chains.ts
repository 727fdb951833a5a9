// The calls of a number, for listCalls' from, to and number filters (docs/decisions.md "Scale"):
// a number names a hundred calls of a million, so a new filter on numbers reads those instead of
// scanning every call. Each number key (list-index.ts numberKey: a double) has a slot in an open
// addressing table holding the last position read with it, per side (from, to); each position
// links to the one read before it with the same key on that side. All typed arrays: a million
// calls add about 40 MB and nothing for the garbage collector to walk.
import { grown } from '../../core/typed-arrays.ts';

export const FROM_SIDE = 0;
export const TO_SIDE = 1;

const EMPTY_KEY = 0; // no number's key is 0 (list-index.ts)
const NONE = -1;

export class NumberChains {
  private keys = new Float64Array(1024);
  private heads = new Int32Array(2048).fill(NONE); // per slot, per side: the last position linked
  private next = new Int32Array(0); // per position, per side: the previous position of its key
  private used = 0;

  /** Forgets every position (the list starts over). */
  clear(): void {
    this.keys = new Float64Array(1024);
    this.heads = new Int32Array(2048).fill(NONE);
    this.used = 0;
  }

  /** Room for `more` keys beyond those held, made at once (growing by doubling rehashes a million keys many times). */
  reserve(more: number): void {
    let capacity = this.keys.length;
    while (2 * (this.used + more) > capacity) capacity *= 2;
    if (capacity > this.keys.length) this.rehash(capacity);
  }

  /** Links `pos` under `key` on `side`; each position once per side (a changed key: clear and link again). */
  link(pos: number, side: number, key: number): void {
    if (2 * pos + 2 > this.next.length) this.next = grown(this.next, 2 * pos + 2);
    if (2 * (this.used + 1) > this.keys.length) this.rehash(this.keys.length * 2);
    const slot = this.slotOf(key, true);
    this.next[2 * pos + side] = this.heads[2 * slot + side]!;
    this.heads[2 * slot + side] = pos;
  }

  /** The positions linked under any of `keys` on `side` (both sides: -1), newest first, each once. */
  positions(keys: Float64Array, side: number): Int32Array {
    const found: number[] = [];
    for (const key of keys) {
      const slot = this.slotOf(key, false);
      if (slot === NONE) continue;
      for (let s = side === -1 ? 0 : side; s <= (side === -1 ? 1 : side); s++) {
        for (let pos = this.heads[2 * slot + s]!; pos !== NONE; pos = this.next[2 * pos + s]!) found.push(pos);
      }
    }
    const out = Int32Array.from(found).sort().reverse();
    let n = 0;
    for (let k = 0; k < out.length; k++) if (k === 0 || out[k] !== out[k - 1]) out[n++] = out[k]!;
    return out.subarray(0, n);
  }

  /** The slot of `key` (a new one when `add`), or NONE. */
  private slotOf(key: number, add: boolean): number {
    const mask = this.keys.length - 1;
    for (let slot = hash(key) & mask; ; slot = (slot + 1) & mask) {
      const k = this.keys[slot]!;
      if (k === key) return slot;
      if (k === EMPTY_KEY) {
        if (!add) return NONE;
        this.keys[slot] = key;
        this.used++;
        return slot;
      }
    }
  }

  private rehash(capacity: number): void {
    const { keys, heads } = this;
    this.keys = new Float64Array(capacity);
    this.heads = new Int32Array(2 * capacity).fill(NONE);
    this.used = 0;
    for (let old = 0; old < keys.length; old++) {
      if (keys[old] === EMPTY_KEY) continue;
      const slot = this.slotOf(keys[old]!, true);
      this.heads[2 * slot] = heads[2 * old]!;
      this.heads[2 * slot + 1] = heads[2 * old + 1]!;
    }
  }
}

/** A double's 32-bit mix (keys are whole numbers up to 2e15, or small negatives). */
function hash(key: number): number {
  const lo = key >>> 0; // ToUint32: the low 32 bits of a whole number
  const hi = (key / 4_294_967_296) | 0;
  let h = Math.imul(lo ^ Math.imul(hi, 0x85ebca6b), 0x9e3779b1);
  h ^= h >>> 15;
  return h >>> 0;
}
