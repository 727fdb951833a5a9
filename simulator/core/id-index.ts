// A table's map from row id to position (store.ts), in one typed array: each slot holds a hash
// of the id and the position, found by linear probing. A Map of a million ids costs, for an id it
// does not hold (a fresh id checked, a new row inserted), a walk of its bucket that reads each
// older key string from memory to compare it: two or three cache misses a probe, and the strings
// kept alive for the collector to trace. Here a probe reads one slot and compares hashes; only a
// slot whose hash matches asks the table for the id at that position (docs/decisions.md "Scale",
// "The batch's CPU per call, fourth round"). Nothing is kept but numbers.

/** The id of the row at a position (the table reads it, packed or not). */
export type IdAt = (pos: number) => string;

const EMPTY = 0; // a slot's stored position is pos + 1; 0 marks an empty slot
const MIN_SLOTS = 16;

/** FNV-1a over the id's UTF-16 units, then mixed so that nearby ids spread over the slots. */
function hashOf(given: string): number {
  // An id that is not a text at run time (a lookup with a value from outside) is hashed as its text; it still matches only itself.
  const id = typeof given === 'string' ? given : String(given);
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h | 0;
}

export class IdIndex {
  private slots = new Int32Array(2 * MIN_SLOTS); // per slot: hash, position + 1
  private mask = MIN_SLOTS - 1;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** The position of `id`, or -1. */
  get(id: string, idAt: IdAt): number {
    const slot = this.find(id, hashOf(id), idAt);
    return slot < 0 ? -1 : this.slots[2 * slot + 1]! - 1;
  }

  /** Adds `id` at `pos` unless it is already there; false when it was (nothing changes). */
  add(id: string, pos: number, idAt: IdAt): boolean {
    const h = hashOf(id);
    const s = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const at = s[2 * i + 1]!;
      if (at === EMPTY) {
        s[2 * i] = h;
        s[2 * i + 1] = pos + 1;
        if (++this.count * 2 > this.mask + 1) this.grow();
        return true;
      }
      if (s[2 * i] === h && idAt(at - 1) === id) return false;
    }
  }

  /** Moves `id` (held) to `pos`. */
  move(id: string, pos: number, idAt: IdAt): void {
    const slot = this.find(id, hashOf(id), idAt);
    if (slot < 0) throw new Error(`no row ${id} in the index`);
    this.slots[2 * slot + 1] = pos + 1;
  }

  /** Removes `id`; false when it was not there. Later slots of its run shift back (no tombstones). */
  delete(id: string, idAt: IdAt): boolean {
    let hole = this.find(id, hashOf(id), idAt);
    if (hole < 0) return false;
    const s = this.slots;
    const mask = this.mask;
    for (let j = (hole + 1) & mask; s[2 * j + 1] !== EMPTY; j = (j + 1) & mask) {
      const home = s[2 * j]! & mask;
      // The entry at j may fill the hole when its home is not within (hole, j] (cyclically).
      const between = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (between) continue;
      s[2 * hole] = s[2 * j]!;
      s[2 * hole + 1] = s[2 * j + 1]!;
      hole = j;
    }
    s[2 * hole] = 0;
    s[2 * hole + 1] = EMPTY;
    this.count--;
    return true;
  }

  private find(id: string, h: number, idAt: IdAt): number {
    const s = this.slots;
    for (let i = h & this.mask; ; i = (i + 1) & this.mask) {
      const at = s[2 * i + 1]!;
      if (at === EMPTY) return -1;
      if (s[2 * i] === h && idAt(at - 1) === id) return i;
    }
  }

  private grow(): void {
    const old = this.slots;
    const size = 2 * (this.mask + 1);
    this.slots = new Int32Array(2 * size);
    this.mask = size - 1;
    for (let i = 0; i < old.length; i += 2) {
      if (old[i + 1] === EMPTY) continue;
      let j = old[i]! & this.mask;
      while (this.slots[2 * j + 1] !== EMPTY) j = (j + 1) & this.mask;
      this.slots[2 * j] = old[i]!;
      this.slots[2 * j + 1] = old[i + 1]!;
    }
  }
}
