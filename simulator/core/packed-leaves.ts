// The leaves of packed rows (packed-rows.ts): growing arrays of numbers in chunks, and words of
// lowercase hex digits (ids kept as numbers). Instants are the clock's (canonicalInstant, iso).

/** The 32-bit word of the 8 lowercase hex digits at `at`, or -1. */
export function hexWord(s: string, at: number): number {
  let n = 0;
  for (let i = at; i < at + 8; i++) {
    const c = s.charCodeAt(i);
    const v = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : -1;
    if (v < 0) return -1;
    n = n * 16 + v;
  }
  return n;
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

  /** Appends `values` (fewer than a chunk); the address of the first. */
  append(values: ArrayLike<number>): number {
    if (values.length > CHUNK) throw new Error('a packed row of more than a chunk of values');
    const last = this.chunks[this.chunks.length - 1];
    if (last === undefined || this.fill + values.length > last.length) {
      this.chunks.push(new this.make(Math.min(CHUNK, Math.max(4096, values.length, 2 * (last?.length ?? 0)))));
      this.fill = 0;
    }
    const chunk = this.chunks[this.chunks.length - 1]!;
    const at = this.fill;
    for (let i = 0; i < values.length; i++) chunk[at + i] = values[i]!;
    this.fill += values.length;
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

