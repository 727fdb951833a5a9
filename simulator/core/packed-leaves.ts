// The leaves of packed rows (packed-rows.ts): growing arrays of numbers in chunks, and words of
// lowercase hex digits (ids kept as numbers). Instants are the clock's (canonicalInstant, iso).

/** Each UTF-16 unit's value as a lowercase hex digit, -1 for any other unit. */
const HEX_VALUE = new Int8Array(65_536).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE['0123456789abcdef'.charCodeAt(d)] = d;

/**
 * The 32-bit word of the 8 lowercase hex digits at `at`, or -1. Each digit by a table, not by
 * ranges (random digits made the range tests' branches mispredict), and the word in 32-bit
 * shifts, read unsigned at the end: a packed call reads about twenty words of its ids.
 */
export function hexWord(s: string, at: number): number {
  if (at < 0 || at + 8 > s.length) return -1;
  let n = 0;
  let bad = 0;
  for (let i = at; i < at + 8; i++) {
    const v = HEX_VALUE[s.charCodeAt(i)]!;
    bad |= v;
    n = (n << 4) | v;
  }
  return bad < 0 ? -1 : n >>> 0;
}

/**
 * The 1 to 15 decimal digits from `at` to the end of `s` as the number '1' + digits (which keeps
 * their leading zeros, and is exact below 2^53), or -1 when there are none, more, or another
 * character: what `Number(\`1${digits}\`)` gives for text matching /^\d{1,15}$/, without the
 * pattern or the pieces.
 */
export function digitsValue(s: string, at: number): number {
  const n = s.length - at;
  if (n < 1 || n > 15) return -1;
  let v = 1;
  for (let i = at; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/**
 * The digits of a `digitsValue` (the number without its leading 1): `String(value).slice(1)`,
 * which for a number of ten digits or more (not a small integer to the engine) formats a double
 * the slow way. Such a number is cut in two small integers, each formatted from the engine's cache
 * of small integers' texts (a batch reads every recipient's number back at each dial). Exact for
 * what `digitsValue` gives (below 2 * 10^15): the high part is below 2^25, where the division's
 * rounding stays within 10^-8 of the true quotient, so the floor is the high part.
 */
export function digitsText(value: number): string {
  if (value < 1e9) return String(value).slice(1);
  const high = Math.floor(value / 1e8);
  return String(high).slice(1) + String(value - high * 1e8).padStart(8, '0');
}

/** Values per chunk (4 MB of words, 8 MB of doubles): far more than one record holds. */
export const CHUNK = 1 << 20;

/**
 * A growing list of numbers in chunks (the first small, each next twice the last up to CHUNK);
 * a run appended stays within one chunk. A value's address is its chunk's number times CHUNK
 * plus its place in the chunk.
 */
export class Chunks<A extends Uint32Array | Float64Array> {
  private readonly chunks: A[] = [];
  private fill = 0; // used values of the last chunk

  constructor(private readonly make: new (n: number) => A) {}

  /** Appends the first `count` of `values` (fewer than a chunk); the address of the first. */
  append(values: ArrayLike<number>, count: number = values.length): number {
    if (count > CHUNK) throw new Error('a packed row of more than a chunk of values');
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined || this.fill + count > last.length) {
      this.chunks.push(new this.make(Math.min(CHUNK, Math.max(4096, count, 2 * (last?.length ?? 0)))));
      this.fill = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    const at = this.fill;
    for (let i = 0; i < count; i++) chunk[at + i] = values[i]!;
    this.fill += count;
    return (this.chunks.length - 1) * CHUNK + at;
  }

  chunkOf(offset: number): A {
    return this.chunks[Math.floor(offset / CHUNK)] ?? (new this.make(0) as A);
  }

  /** Values held, the unused end of earlier chunks included. */
  get used(): number {
    let n = this.fill;
    for (let i = 0; i < this.chunks.length - 1; i++) n += this.chunks[i]!.length;
    return n;
  }
}


/**
 * The leaves of the row being packed: a list of numbers cleared by setting `length` (as an
 * array is) without giving its memory back, so packing a row allocates nothing (an array
 * cleared that way drops its store and grows again, row after row).
 */
export class Scratch {
  values = new Float64Array(256);
  length = 0;

  /** Room for `n` more values without growing (a compiled walk then writes `values` directly). */
  reserve(n: number): void {
    if (this.length + n <= this.values.length) return;
    const more = new Float64Array(Math.max(this.values.length * 2, this.length + n));
    more.set(this.values);
    this.values = more;
  }

  push(v: number): void {
    if (this.length === this.values.length) {
      const more = new Float64Array(this.values.length * 2);
      more.set(this.values);
      this.values = more;
    }
    this.values[this.length++] = v;
  }
}
