// Columns of texts for a million rows, each reading back exactly the text put in: ids of one
// format packed as 32-bit words of their hex digits (12 bytes for `CT` + 24 hex, instead of a
// 48-byte string), phone numbers as one number, and the few texts a field takes (statuses,
// error codes) as small codes. A text outside the packed form (an id from a hand-written
// snapshot, a number with a `+`) is kept as it is beside the column, so nothing is lost.
import { grown } from './typed-arrays.ts';
import { digitsText, digitsValue, hexWord } from './packed-leaves.ts';
import type { IdFormat } from './ids.ts';

const NULL = 0;
const PACKED = 1;
const OTHER = 2;

/** Ids of one format (`prefix` + lowercase hex, a multiple of 8 digits), or null. */
export class IdColumn {
  private readonly words: number; // 32-bit words per id
  private kind = new Uint8Array(16); // NULL, PACKED or OTHER
  private data = new Uint32Array(16);
  private readonly others = new Map<number, string>();

  constructor(private readonly format: IdFormat) {
    this.words = format.hex % 8 === 0 ? format.hex / 8 : 0;
  }

  set(pos: number, id: string | null): void {
    if (pos >= this.kind.length) this.kind = grown(this.kind, pos + 1);
    if (this.kind.length * this.words > this.data.length) this.data = grown(this.data, this.kind.length * this.words);
    if (this.others.size > 0) this.others.delete(pos);
    if (id === null) {
      this.kind[pos] = NULL;
      return;
    }
    if (this.packInPlace(pos, id)) {
      this.kind[pos] = PACKED;
      return;
    }
    this.kind[pos] = OTHER;
    this.others.set(pos, id);
  }

  /** Writes the id's words at `pos` (no array made: a batch sets a call id per dial); false when it is not of the format. */
  private packInPlace(pos: number, id: string): boolean {
    const prefix = this.format.prefix;
    if (this.words === 0 || id.length !== prefix.length + this.format.hex || !id.startsWith(prefix)) return false;
    for (let w = 0; w < this.words; w++) {
      const word = hexWord(id, prefix.length + w * 8);
      if (word < 0) return false; // the words written so far are left unread (the id is kept whole)
      this.data[pos * this.words + w] = word;
    }
    return true;
  }

  get(pos: number): string | null {
    const kind = this.kind[pos];
    if (kind === PACKED) {
      let id = this.format.prefix;
      for (let w = 0; w < this.words; w++) id += this.data[pos * this.words + w]!.toString(16).padStart(8, '0');
      return id;
    }
    return kind === OTHER ? this.others.get(pos)! : null;
  }
}

/**
 * A set of ids of one format (ids handed out must be unique), the packed ones in an open
 * addressing table of their words: a million ids cost a few typed arrays, not a million strings.
 * An id is packed into one reused scratch array (a million tasks probe and add a million ids:
 * an array per probe was a fifth of the batch's creation, its garbage most of the rest).
 */
export class IdSet {
  private readonly words: number;
  private table = new Uint32Array(0); // `words` per place
  private used = new Uint8Array(0);
  private count = 0;
  private readonly others = new Set<string>();
  private readonly scratch: Uint32Array;
  // The last id `has` did not find (its words still in `scratch`) and its free place.
  private missed: string | undefined = undefined;
  private missedPlace = 0;

  constructor(private readonly format: IdFormat) {
    this.words = format.hex % 8 === 0 ? format.hex / 8 : 0;
    this.scratch = new Uint32Array(this.words);
    this.resize(1024);
  }

  has(id: string): boolean {
    this.missed = undefined;
    if (!this.pack(id)) return this.others.has(id);
    const free = this.place(this.scratch);
    if (free < 0) return true;
    // A fresh id is probed, then added: the add finds its words and place here.
    this.missed = id;
    this.missedPlace = free;
    return false;
  }

  add(id: string): void {
    let free: number;
    if (id === this.missed) free = this.missedPlace;
    else if (!this.pack(id)) {
      this.missed = undefined;
      this.others.add(id);
      return;
    } else free = this.place(this.scratch);
    this.missed = undefined;
    if (free < 0) return;
    this.put(free, this.scratch);
    if (++this.count * 2 > this.used.length) this.resize(this.used.length * 2);
  }

  /** Writes the id's 32-bit words into `scratch`; false when it is not of the format (word by word from the text: no slices, no pattern). */
  private pack(id: string): boolean {
    const prefix = this.format.prefix;
    if (this.words === 0 || id.length !== prefix.length + this.format.hex || !id.startsWith(prefix)) return false;
    for (let w = 0; w < this.words; w++) {
      const word = hexWord(id, prefix.length + w * 8);
      if (word < 0) return false;
      this.scratch[w] = word;
    }
    return true;
  }

  /** -1 when the id is in the table, else the free place where it would go. */
  private place(packed: Uint32Array): number {
    const mask = this.used.length - 1;
    const words = this.words;
    let h = 0;
    for (let w = 0; w < words; w++) h = Math.imul(h ^ packed[w]!, 0x9e3779b1);
    for (let i = (h >>> 0) & mask; ; i = (i + 1) & mask) {
      if (!this.used[i]) return i;
      let same = true;
      for (let w = 0; w < words && same; w++) same = this.table[i * words + w] === packed[w];
      if (same) return -1;
    }
  }

  private put(i: number, packed: Uint32Array): void {
    this.used[i] = 1;
    for (let w = 0; w < this.words; w++) this.table[i * this.words + w] = packed[w]!;
  }

  private resize(size: number): void {
    const oldTable = this.table;
    const oldUsed = this.used;
    this.table = new Uint32Array(size * this.words);
    this.used = new Uint8Array(size);
    // Each id's words go through the scratch array (free here: `add` has put its id already).
    const packed = this.scratch;
    for (let j = 0; j < oldUsed.length; j++) {
      if (!oldUsed[j]) continue;
      for (let w = 0; w < this.words; w++) packed[w] = oldTable[j * this.words + w]!;
      this.put(this.place(packed), packed);
    }
  }
}

/** Digit strings (phone numbers in domestic notation) as one number each: '1' + digits, read back by dropping the 1. */
export class DigitsColumn {
  private values = new Float64Array(16);
  private readonly others = new Map<number, string>();

  set(pos: number, text: string): void {
    if (pos >= this.values.length) this.values = grown(this.values, pos + 1);
    if (this.others.size > 0) this.others.delete(pos);
    const value = digitsValue(text, 0);
    if (value >= 0) this.values[pos] = value;
    else {
      this.values[pos] = 0;
      this.others.set(pos, text);
    }
  }

  get(pos: number): string {
    const v = this.values[pos]!;
    return v === 0 ? this.others.get(pos)! : digitsText(v);
  }
}

/** A nullable text from a small set (statuses, error codes, outcomes): its code in the column, null as 0. */
export class CodeColumn<T extends string = string> {
  private codes = new Uint16Array(16);
  private readonly texts: (T | null)[] = [null];
  private readonly ids = new Map<T, number>();

  set(pos: number, text: T | null): void {
    if (pos >= this.codes.length) this.codes = grown(this.codes, pos + 1);
    this.codes[pos] = text === null ? 0 : this.code(text);
  }

  get(pos: number): T | null {
    return this.texts[this.codes[pos]!]!;
  }

  /** Whether the text at `pos` is `text` (no lookup of the text). */
  is(pos: number, text: T | null): boolean {
    return this.get(pos) === text;
  }

  private code(text: T): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      if (this.texts.length > 0xffff) throw new Error('more than 65,535 distinct texts in a code column');
      this.ids.set(text, (id = this.texts.push(text) - 1));
    }
    return id;
  }
}
