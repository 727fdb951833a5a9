// A table's packed rows in a snapshot (docs/decisions.md "Scale", snapshot version 2): instead
// of a million objects, the records as packed-rows.ts keeps them, the shapes and texts as JSON
// and the leaves as typed arrays in base64 (little-endian, in pieces of at most CHUNK values so
// no string nears V8's longest). Rows kept as objects (calls in progress) stay in the part's
// array, `plainAt` giving their positions in the table. Reading one back checks everything a
// hand-made document could get wrong: each shape's form, the lengths of the leaves against the
// shapes, then every row against the row schema (on the packed form where packed-check.ts is
// sure, else unpacked and checked whole), so a restored table holds only rows a snapshot of
// objects would have let in.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ApiError, type FieldError } from './errors.ts';
import { MAX_HEX_WORDS, PackedRows, type Op } from './packed-rows.ts';
import { CHUNK } from './packed-leaves.ts';
import { countLeaves, plainOp } from './packed-shapes.ts';
import { canonicalRecords } from './packed-canonical.ts';
import { PackedRowCheck } from './packed-check.ts';
import { schemaErrors } from './schema.ts';
import { Table, type Row, type Slot, type TableOptions } from './store.ts';

export const PackedTableSchema = Type.Object(
  {
    plainAt: Type.Array(Type.Integer({ minimum: 0 }), { description: 'The table positions of the rows kept as objects, ascending.' }),
    shapes: Type.Array(Type.Unknown(), { description: 'Row shapes (packed-rows.ts), checked when read.' }),
    texts: Type.Array(Type.String()),
    shapeOf: Type.Array(Type.String(), { description: 'Each record\'s shape, uint32 in base64.' }),
    words: Type.Array(Type.String(), { description: 'The 32-bit leaves, uint32 in base64.' }),
    doubles: Type.Array(Type.String(), { description: 'The other leaves, float64 in base64.' }),
  },
  { additionalProperties: false },
);
export type PackedTableState = Static<typeof PackedTableSchema>;

/** The table's packed rows (undefined when none) and its rows kept as objects, in order. */
export function packedState<T extends Row>(table: Table<T>): { rows: T[]; packed: PackedTableState | undefined } {
  const { slots, store } = table.slots();
  const rows: T[] = [];
  const plainAt: number[] = [];
  const recs: number[] = [];
  slots.forEach((slot, pos) => {
    if (typeof slot === 'number') recs.push(slot);
    else {
      rows.push(slot);
      plainAt.push(pos);
    }
  });
  if (store === undefined || recs.length === 0) return { rows, packed: undefined };
  const parts = canonicalRecords(store, recs);
  return {
    rows,
    // Plain data as JSON gives it (a shape's absent const value dropped): no further copy is needed.
    packed: { plainAt, shapes: JSON.parse(JSON.stringify(parts.shapes)) as unknown[], texts: [...parts.texts], shapeOf: base64(parts.shapeOf), words: base64(parts.words), doubles: base64(parts.doubles) },
  };
}

/**
 * The table a packed part describes, with `rows` at their positions; a part that breaks a rule
 * is refused with 400 naming `root` and the field. `rowSchema` is checked on every packed row.
 */
export function tableFromPacked<T extends Row>(rows: T[], packed: PackedTableState, rowSchema: TSchema, root: string, options: TableOptions<T>): Table<T> {
  const bad = (path: string, message: string): never => {
    throw ApiError.validation(`snapshot ${root} is invalid: ${path}: ${message}`, [{ path, message }]);
  };
  if (packed.plainAt.length !== rows.length) bad(`${root}.plainAt`, `gives ${packed.plainAt.length} positions for ${rows.length} rows`);
  const shapes = packed.shapes.map((s, i) => checkedShape(s, `${root}.shapes[${i}]`, 0, bad));
  const shapeOf = decode(packed.shapeOf, Uint32Array, `${root}.shapeOf`, bad);
  const words = decode(packed.words, Uint32Array, `${root}.words`, bad);
  const doubles = decode(packed.doubles, Float64Array, `${root}.doubles`, bad);
  const leaves = shapes.map((op) => countLeaves(op, { words: 0, doubles: 0 }));
  let w = 0;
  let d = 0;
  for (let rec = 0; rec < shapeOf.length; rec++) {
    const count = leaves[shapeOf[rec]!] ?? bad(`${root}.shapeOf[${rec}]`, `names shape ${shapeOf[rec]}, of ${shapes.length}`);
    w += count.words;
    d += count.doubles;
  }
  if (w !== words.length) bad(`${root}.words`, `holds ${words.length} values where the shapes take ${w}`);
  if (d !== doubles.length) bad(`${root}.doubles`, `holds ${doubles.length} values where the shapes take ${d}`);
  const store = new PackedRows();
  store.importRecords({ shapes, texts: packed.texts, shapeOf, words, doubles });
  // Every packed row against the schema, as a snapshot of objects is checked: on the packed form
  // where its shape's plan is sure (packed-check.ts), else read back and checked whole (which
  // also words the error; a text id out of range reads back as a missing string, which the
  // schema refuses).
  const fast = new PackedRowCheck(shapes, packed.texts, rowSchema);
  w = 0;
  d = 0;
  for (let rec = 0; rec < shapeOf.length; rec++) {
    const shape = shapeOf[rec]!;
    if (!fast.fits(shape, words, w, doubles, d)) checkWhole(store, rec, rowSchema, root, bad);
    w += leaves[shape]!.words;
    d += leaves[shape]!.doubles;
  }
  const size = rows.length + shapeOf.length;
  const slots: Slot<T>[] = new Array(size);
  let next = 0;
  for (let i = 0; i < packed.plainAt.length; i++) {
    const pos = packed.plainAt[i]!;
    if (pos >= size || (i > 0 && pos <= packed.plainAt[i - 1]!)) bad(`${root}.plainAt[${i}]`, `must be ascending and below ${size}`);
    slots[pos] = rows[i]!;
  }
  for (let pos = 0; pos < size; pos++) if (slots[pos] === undefined) slots[pos] = next++;
  try {
    return Table.ofSlots(slots, store, options);
  } catch (e) {
    return bad(root, (e as Error).message);
  }
}

function checkWhole(store: PackedRows, rec: number, rowSchema: TSchema, root: string, bad: (path: string, message: string) => never): void {
  let row: unknown;
  try {
    row = store.unpack(rec);
  } catch {
    return bad(`${root}.rows[${rec}]`, 'does not read back (a leaf out of range)');
  }
  const errors = schemaErrors(rowSchema, row, `${root}.rows[${rec}]`);
  if (errors.length > 0) fail(errors, root);
}

function fail(errors: FieldError[], root: string): never {
  const first = errors[0] ?? { path: root, message: 'is invalid' };
  throw ApiError.validation(`snapshot ${root} is invalid: ${first.path}: ${first.message}`, errors);
}

/** Pieces of at most CHUNK values, each in base64. */
function base64(values: Uint32Array | Float64Array): string[] {
  const out: string[] = [];
  for (let i = 0; i < values.length; i += CHUNK) {
    const piece = values.subarray(i, i + CHUNK);
    out.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength).toString('base64'));
  }
  return out;
}

function decode<A extends Uint32Array | Float64Array>(pieces: string[], make: new (n: number) => A, path: string, bad: (path: string, message: string) => never): A {
  const width = make === (Float64Array as unknown) ? 8 : 4;
  const bytes = pieces.map((p, i) => {
    const b = Buffer.from(p, 'base64');
    // Canonical base64 only (what the snapshot writes): the alphabet with padding at the end, and
    // a last group that encodes back to itself (the groups before it always do): the same test
    // as encoding the whole back, without a second copy of a 100 MB string.
    const last = p.slice(-4);
    if (b.byteLength % width !== 0 || p.length % 4 !== 0 || !BASE64.test(p) || Buffer.from(last, 'base64').toString('base64') !== last) bad(`${path}[${i}]`, `is not whole ${width * 8}-bit values in base64`);
    return b;
  });
  const out = new make(bytes.reduce((n, b) => n + b.byteLength, 0) / width);
  const view = new Uint8Array(out.buffer);
  let at = 0;
  for (const b of bytes) {
    view.set(b, at);
    at += b.byteLength;
  }
  return out;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const KINDS = new Set(['obj', 'arr', 'const', 'u32', 'f64', 'text', 'time', 'digits', 'hex']);

/** A shape as packed-rows.ts reads it, or 400: a made-up shape must not make the reader fail. */
function checkedShape(v: unknown, path: string, depth: number, bad: (path: string, message: string) => never): Op {
  const o = v as Record<string, unknown>;
  if (depth > 64) bad(path, 'is nested too deep');
  if (typeof o !== 'object' || o === null || !KINDS.has(o.k as string)) bad(path, `must be a shape (k one of ${[...KINDS].join(', ')})`);
  const kids = () => {
    if (!Array.isArray(o.kids)) bad(`${path}.kids`, 'must be an array');
    return (o.kids as unknown[]).map((kid, i) => checkedShape(kid, `${path}.kids[${i}]`, depth + 1, bad));
  };
  switch (o.k) {
    case 'obj': {
      const keys = o.keys;
      if (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string') || new Set(keys).size !== keys.length) bad(`${path}.keys`, 'must be distinct strings');
      const kidOps = kids();
      if (kidOps.length !== (keys as string[]).length) bad(`${path}.kids`, 'must have one shape per key');
      return { k: 'obj', keys: keys as string[], kids: kidOps };
    }
    case 'arr':
      return { k: 'arr', kids: kids() };
    case 'const':
      if (o.value !== undefined && o.value !== null && typeof o.value !== 'boolean') bad(`${path}.value`, 'must be null, true, false or absent');
      return { k: 'const', value: o.value as null | boolean | undefined };
    case 'digits':
      if (typeof o.prefix !== 'string' || !/^\D{0,8}$/.test(o.prefix)) bad(`${path}.prefix`, 'must be up to 8 characters that are not digits');
      return { k: 'digits', prefix: o.prefix as string };
    case 'hex':
      if (typeof o.prefix !== 'string' || !/^[A-Z]{0,4}$/.test(o.prefix)) bad(`${path}.prefix`, 'must be up to 4 capital letters');
      if (!Number.isInteger(o.words) || (o.words as number) < 1 || (o.words as number) > MAX_HEX_WORDS) bad(`${path}.words`, `must be an integer from 1 to ${MAX_HEX_WORDS}`);
      return { k: 'hex', prefix: o.prefix as string, words: o.words as number };
    default:
      return plainOp({ k: o.k } as Op);
  }
}
