// Seeded pseudo-random numbers (sfc32, seeded through splitmix32). The whole state is four
// 32-bit integers, so a snapshot carries it and a restored simulator continues the sequence.

export type RandomState = [number, number, number, number];

/** The character codes of the 16 lowercase hex digits. */
const HEX_CODES = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));

export class SeededRandom {
  // The four words as fields, not an array: a draw allocates nothing (ids are drawn per call).
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private readonly codes: number[] = []; // scratch of hex()

  constructor(seed: number | RandomState) {
    let s: RandomState;
    if (Array.isArray(seed)) {
      s = [seed[0] >>> 0, seed[1] >>> 0, seed[2] >>> 0, seed[3] >>> 0];
    } else {
      let x = seed >>> 0;
      const next = () => {
        x = (x + 0x9e3779b9) >>> 0;
        let z = x;
        z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
        z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
        return (z ^ (z >>> 16)) >>> 0;
      };
      s = [next(), next(), next(), next()];
    }
    [this.a, this.b, this.c, this.d] = s;
    if (!Array.isArray(seed)) for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const { a, b, c, d } = this;
    const t = (((a + b) >>> 0) + d) >>> 0;
    this.d = (d + 1) >>> 0;
    this.a = (b ^ (b >>> 9)) >>> 0;
    this.b = (c + (c << 3)) >>> 0;
    const rotated = ((c << 21) | (c >>> 11)) >>> 0;
    this.c = (rotated + t) >>> 0;
    return t;
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** `length` lowercase hex digits. */
  hex(length: number, prefix = ''): string {
    // `prefix` then the digits, most significant first within each drawn word (as toString(16)
    // padded to 8 writes them), whole words drawn as before: the same text from the same state,
    // made as one flat string (an id is hashed as a Map key at once: nothing to flatten then).
    // Written by index and cut to length once (`length = 0` would give the array's store back,
    // and pushes grow a new one: several allocations per id, a million ids in a batch).
    const codes = this.codes;
    let n = 0;
    for (let i = 0; i < prefix.length; i++) codes[n++] = prefix.charCodeAt(i);
    for (let i = 0; i < length; i += 8) {
      const word = this.uint32();
      const digits = Math.min(8, length - i);
      for (let k = 0; k < digits; k++) codes[n++] = HEX_CODES[(word >>> (28 - 4 * k)) & 15]!;
    }
    codes.length = n;
    return String.fromCharCode.apply(null, codes);
  }

  /** `length` decimal digits (leading zeros allowed). */
  digits(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String(this.uint32() % 10);
    return out;
  }

  state(): RandomState {
    return [this.a, this.b, this.c, this.d];
  }

  /** Back to a state this generator had (state()): an operation that failed half way takes back its draws. */
  rewind(s: RandomState): void {
    [this.a, this.b, this.c, this.d] = s;
  }
}

/** FNV-1a over the text's code points: a stable 32-bit seed from text (per-account or per-recording generators that do not touch rt.random). */
export function textSeed(text: string): number {
  let h = 0x811c9dc5;
  for (const ch of text) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
