// Rows packed into shared typed arrays (docs/decisions.md "Scale"): a finished row (an ended
// call, a delivered carrier delivery) no longer needs to be a tree of objects. Its structure
// (keys in order, array lengths, nulls, booleans, and the kind of each leaf) is its shape,
// stored once for all rows alike; its leaves go into two typed arrays: 32-bit words (small
// integers, interned texts, ids of `PREFIX` + lowercase hex as words of 8 digits) and doubles
// (other numbers, instants written `YYYY-MM-DDTHH:MM:SS.sssZ` as epoch ms, digit strings such
// as phone numbers). A packed row reads back (`unpack`) as a new object that serialises, compares
// and iterates exactly as the row that went in; a value of another kind (a class instance) is
// not packed at all, so nothing is lost. The typed arrays are not scanned by the garbage
// collector, which is what keeps a million ended calls cheap in time as well as in memory.
import { grown } from './typed-arrays.ts';
import { setMember } from './own-member.ts';
import { CHUNK, Chunks, digitsText, Scratch } from './packed-leaves.ts';
import { compileFit, fitsShape, type FitSink } from './packed-fit.ts';
import { canonicalInstant as instantMs, iso as isoOf } from './clock.ts';
import { countLeaves, placesOf, plainOp, type Op, type PackedRecords, type Place } from './packed-shapes.ts';

export type { Op } from './packed-shapes.ts';

const RECENT_SHAPES = 8;
/** Rows a shape fits by the tree walk before its walk is compiled (a shape seen a few times is not worth the compiling). */
const COMPILE_AFTER = 64;
const PREFIXED_DIGITS = /^(\D{0,8})(\d{1,15})$/;
/** Texts up to this length are interned (one copy of each); longer ones, mostly unique, are kept as given. */
const INTERNED_LENGTH = 24;
/** The most 32-bit words a hex id packs into; a snapshot's hex shape may declare no more (packed-transfer.ts). */
export const MAX_HEX_WORDS = 64;
// A longer run of hex digits (a digest list, audio in hex) packs as text.
const HEX_ID = new RegExp(`^([A-Z]{0,4})((?:[0-9a-f]{8}){1,${MAX_HEX_WORDS}})$`);

/** Whether a string packs as an interned text by itself (not as an instant, digits or a hex id). */
export function plainText(s: string): boolean {
  return instantMs(s) === undefined && !PREFIXED_DIGITS.test(s) && !(s.length >= 8 && HEX_ID.test(s));
}

export class PackedRows {
  // Leaves in chunks of fixed size (a record never spans two): growing copies nothing and
  // leaves no doubled slack, which matters at hundreds of megabytes.
  private readonly words = new Chunks(Uint32Array);
  private readonly doubles = new Chunks(Float64Array);
  private readonly texts: string[] = [];
  private readonly textIds = new Map<string, number>();
  private readonly shapes: Op[] = [];
  private readonly shapeIds = new Map<string, number>();
  private readonly recent: number[] = []; // shapes most recently made, tried first
  private readonly places: (Map<string, Place> | undefined)[] = []; // per shape, where each top-level member starts
  private shapeOf = new Int32Array(16); // per record
  private wordsAt = new Uint32Array(16); // per record: its first word
  private doublesAt = new Uint32Array(16); // per record: its first double
  private records = 0;
  // Scratch of the row being packed (reused: packing allocates nothing but a new shape's key).
  private readonly scratchWords = new Scratch();
  private readonly scratchDoubles = new Scratch();
  private readonly sink: FitSink = { words: this.scratchWords, doubles: this.scratchDoubles, textId: (s) => this.textId(s) };
  private readonly fitters: ((v: unknown) => boolean)[] = []; // per shape, once it has fitted COMPILE_AFTER rows
  private readonly fitted: number[] = []; // per shape: rows it fitted by the tree walk
  private readWords: Uint32Array = new Uint32Array(0); // the chunk of the record being read
  private readDoubles: Float64Array = new Float64Array(0);
  private readCursorWords = 0;
  private readCursorDoubles = 0;

  /** Packs a plain JSON-like value (objects, arrays, strings, numbers, booleans, null); its record number, or undefined when it holds anything else. */
  pack(value: object, canonical = false): number | undefined {
    let shape = -1;
    // Rows of one table mostly share a few shapes: the recent ones are tried first, walking the
    // value along the shape (no key built); any shape that fits reads back exactly. `canonical`
    // takes the shape the value alone gives (a snapshot's packed form, packed-transfer.ts).
    for (let i = 0; i < this.recent.length && shape < 0 && !canonical; i++) {
      this.scratchWords.length = 0;
      this.scratchDoubles.length = 0;
      if (this.fits(this.recent[i]!, value)) {
        shape = this.recent[i]!;
        // The shape that fitted is tried first next time (rows of one kind come in runs); the
        // ones before it move down a place, in place (a splice made an array each time).
        if (i > 0) {
          const recent = this.recent;
          for (let j = i; j > 0; j--) recent[j] = recent[j - 1]!;
          recent[0] = shape;
        }
      }
    }
    if (shape < 0) {
      this.scratchWords.length = 0;
      this.scratchDoubles.length = 0;
      const key = this.describe(value);
      if (key === undefined) return undefined;
      let id = this.shapeIds.get(key);
      if (id === undefined) {
        id = this.shapes.push(compile(value)) - 1;
        this.shapeIds.set(key, id);
      }
      shape = id;
      this.recent.unshift(shape);
      if (this.recent.length > RECENT_SHAPES) this.recent.pop();
    }
    const rec = this.records++;
    if (rec === this.shapeOf.length) {
      this.shapeOf = grown(this.shapeOf, rec + 1);
      this.wordsAt = grown(this.wordsAt, rec + 1);
      this.doublesAt = grown(this.doublesAt, rec + 1);
    }
    this.shapeOf[rec] = shape;
    this.wordsAt[rec] = this.words.append(this.scratchWords.values, this.scratchWords.length);
    this.doublesAt[rec] = this.doubles.append(this.scratchDoubles.values, this.scratchDoubles.length);
    return rec;
  }

  /** The row of a record, as a new object. */
  unpack<T>(rec: number): T {
    const w = this.wordsAt[rec]!;
    const d = this.doublesAt[rec]!;
    this.readWords = this.words.chunkOf(w);
    this.readCursorWords = w % CHUNK;
    this.readDoubles = this.doubles.chunkOf(d);
    this.readCursorDoubles = d % CHUNK;
    return this.read(this.shapes[this.shapeOf[rec]!]!) as T;
  }

  /**
   * One top-level member of a packed row, read without the rest (undefined when the row has no
   * such key): the leaves before it are counted from the shape once per shape.
   */
  field(rec: number, key: string): unknown {
    const shape = this.shapeOf[rec]!;
    let places = this.places[shape];
    if (places === undefined) places = this.places[shape] = placesOf(this.shapes[shape]!);
    const place = places.get(key);
    if (place === undefined) return undefined;
    const w = this.wordsAt[rec]!;
    const d = this.doublesAt[rec]!;
    this.readWords = this.words.chunkOf(w);
    this.readCursorWords = (w % CHUNK) + place.words;
    this.readDoubles = this.doubles.chunkOf(d);
    this.readCursorDoubles = (d % CHUNK) + place.doubles;
    return this.read(place.op);
  }

  /**
   * The records `recs`, in that order, as plain parts (a snapshot's packed form,
   * packed-transfer.ts): the shapes, the interned texts, each record's shape and their leaves.
   */
  exportRecords(recs: ArrayLike<number>): PackedRecords {
    const leaves = this.shapes.map((op) => countLeaves(op, { words: 0, doubles: 0 }));
    let words = 0;
    let doubles = 0;
    for (let i = 0; i < recs.length; i++) {
      words += leaves[this.shapeOf[recs[i]!]!]!.words;
      doubles += leaves[this.shapeOf[recs[i]!]!]!.doubles;
    }
    const out = { shapes: this.shapes.map(plainOp), texts: this.texts.slice(), shapeOf: new Uint32Array(recs.length), words: new Uint32Array(words), doubles: new Float64Array(doubles) };
    let w = 0;
    let d = 0;
    for (let i = 0; i < recs.length; i++) {
      const rec = recs[i]!;
      const n = leaves[(out.shapeOf[i] = this.shapeOf[rec]!)]!;
      const wa = this.wordsAt[rec]!;
      const da = this.doublesAt[rec]!;
      out.words.set(this.words.chunkOf(wa).subarray(wa % CHUNK, (wa % CHUNK) + n.words), w);
      out.doubles.set(this.doubles.chunkOf(da).subarray(da % CHUNK, (da % CHUNK) + n.doubles), d);
      w += n.words;
      d += n.doubles;
    }
    return out;
  }

  /** Rows from exported records (checked by packed-transfer.ts: shapes well formed, leaves counted), numbered from 0; into an empty store only. */
  importRecords(parts: PackedRecords): void {
    if (this.records > 0 || this.shapes.length > 0) throw new Error('importRecords into a store that holds rows');
    this.shapes.push(...(parts.shapes as Op[]));
    for (const text of parts.texts) {
      this.texts.push(text);
      if (text.length <= INTERNED_LENGTH && !this.textIds.has(text)) this.textIds.set(text, this.texts.length - 1);
    }
    const leaves = this.shapes.map((op) => countLeaves(op, { words: 0, doubles: 0 }));
    const n = parts.shapeOf.length;
    this.shapeOf = new Int32Array(Math.max(16, n));
    this.wordsAt = new Uint32Array(Math.max(16, n));
    this.doublesAt = new Uint32Array(Math.max(16, n));
    let w = 0;
    let d = 0;
    for (let rec = 0; rec < n; rec++) {
      const shape = parts.shapeOf[rec]!;
      const count = leaves[shape]!;
      this.shapeOf[rec] = shape;
      this.wordsAt[rec] = this.words.append(parts.words.subarray(w, (w += count.words)));
      this.doublesAt[rec] = this.doubles.append(parts.doubles.subarray(d, (d += count.doubles)));
    }
    this.records = n;
  }

  /** A top-level member packed as one number of `kind` (an instant as epoch ms, unprefixed digits as '1' + digits), without its text; else undefined. */
  numberField(rec: number, key: string, kind: 'time' | 'digits'): number | undefined {
    const shape = this.shapeOf[rec]!;
    const place = (this.places[shape] ??= placesOf(this.shapes[shape]!)).get(key);
    if (place === undefined || place.op.k !== kind || (place.op.k === 'digits' && place.op.prefix !== '')) return undefined;
    const d = this.doublesAt[rec]! + place.doubles;
    return this.doubles.chunkOf(d)[d % CHUNK];
  }

  /** Bytes held in the typed arrays (their used part). */
  get bytes(): number {
    return this.words.used * 4 + this.doubles.used * 8 + this.records * 12;
  }

  /** Whether `v` has shape number `shape` (packed-fit.ts): the tree walk, then the shape's own code once it has fitted enough rows to pay for it. */
  private fits(shape: number, v: unknown): boolean {
    const fit = this.fitters[shape];
    if (fit !== undefined) return fit(v);
    if (!fitsShape(this.shapes[shape]!, v, this.sink)) return false;
    if ((this.fitted[shape] = (this.fitted[shape] ?? 0) + 1) >= COMPILE_AFTER) this.fitters[shape] = compileFit(this.shapes[shape]!, this.sink, countLeaves(this.shapes[shape]!, { words: 0, doubles: 0 }));
    return true;
  }

  private textId(s: string): number {
    if (s.length > INTERNED_LENGTH) return this.texts.push(s) - 1;
    let id = this.textIds.get(s);
    if (id === undefined) {
      id = this.texts.push(s) - 1;
      this.textIds.set(s, id);
    }
    return id;
  }

  /** The shape key of `v`, its leaves written to the scratch arrays; undefined for a value that cannot be packed. */
  private describe(v: unknown): string | undefined {
    if (v === null) return 'n';
    switch (typeof v) {
      case 'boolean':
        return v ? 't' : 'f';
      case 'undefined':
        return 'u';
      case 'number':
        if (v >= 0 && v <= 0xffffffff && Number.isInteger(v) && !Object.is(v, -0)) {
          this.scratchWords.push(v);
          return 'i';
        }
        this.scratchDoubles.push(v);
        return 'd';
      case 'string':
        return this.describeText(v);
      case 'object': {
        if (Array.isArray(v)) {
          let key = '[';
          for (let i = 0; i < v.length; i++) {
            const kid = this.describe(v[i]);
            if (kid === undefined) return undefined;
            key += kid + ',';
          }
          return key + ']';
        }
        const proto = Object.getPrototypeOf(v);
        if (proto !== Object.prototype && proto !== null) return undefined;
        let key = '{';
        for (const name of Object.keys(v)) {
          const kid = this.describe((v as Record<string, unknown>)[name]);
          if (kid === undefined) return undefined;
          key += `${name.length}:${name}${kid},`;
        }
        return key + '}';
      }
      default:
        return undefined;
    }
  }

  private describeText(s: string): string {
    const ms = instantMs(s);
    if (ms !== undefined) {
      this.scratchDoubles.push(ms);
      return 'T';
    }
    const digits = PREFIXED_DIGITS.exec(s);
    if (digits) {
      this.scratchDoubles.push(Number(`1${digits[2]}`));
      return `D${digits[1]!.length}:${digits[1]}`;
    }
    const hex = s.length >= 8 ? HEX_ID.exec(s) : null;
    if (hex) {
      const digits = hex[2]!;
      for (let i = 0; i < digits.length; i += 8) this.scratchWords.push(parseInt(digits.slice(i, i + 8), 16));
      return `H${hex[1]!.length}${hex[1]}${digits.length / 8}`;
    }
    this.scratchWords.push(this.textId(s));
    return 's';
  }

  private read(op: Op): unknown {
    switch (op.k) {
      case 'obj': {
        const out: Record<string, unknown> = {};
        for (let i = 0; i < op.keys.length; i++) {
          const name = op.keys[i]!;
          setMember(out, name, this.read(op.kids[i]!));
        }
        return out;
      }
      case 'arr': {
        const out = new Array(op.kids.length);
        for (let i = 0; i < op.kids.length; i++) out[i] = this.read(op.kids[i]!);
        return out;
      }
      case 'const':
        return op.value;
      case 'u32':
        return this.readWords[this.readCursorWords++];
      case 'f64':
        return this.readDoubles[this.readCursorDoubles++];
      case 'text':
        return this.texts[this.readWords[this.readCursorWords++]!];
      case 'time':
        return isoOf(this.readDoubles[this.readCursorDoubles++]!);
      case 'digits':
        return op.prefix + digitsText(this.readDoubles[this.readCursorDoubles++]!);
      case 'hex': {
        let s = op.prefix;
        for (let i = 0; i < op.words; i++) s += this.readWords[this.readCursorWords++]!.toString(16).padStart(8, '0');
        return s;
      }
    }
  }
}

/** The shape of a value `describe` accepted, as the tree `read` walks. */
function compile(v: unknown): Op {
  if (v === null || v === undefined || typeof v === 'boolean') return { k: 'const', value: v };
  if (typeof v === 'number') return v >= 0 && v <= 0xffffffff && Number.isInteger(v) && !Object.is(v, -0) ? { k: 'u32' } : { k: 'f64' };
  if (typeof v === 'string') {
    if (instantMs(v) !== undefined) return { k: 'time' };
    const digits = PREFIXED_DIGITS.exec(v);
    if (digits) return { k: 'digits', prefix: digits[1]! };
    const hex = v.length >= 8 ? HEX_ID.exec(v) : null;
    if (hex) return { k: 'hex', prefix: hex[1]!, words: hex[2]!.length / 8 };
    return { k: 'text' };
  }
  if (Array.isArray(v)) return { k: 'arr', kids: v.map(compile) };
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  return { k: 'obj', keys, kids: keys.map((key) => compile(o[key])) };
}
