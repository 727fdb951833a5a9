// The packed records of a snapshot as a function of the rows alone (docs/decisions.md "Scale"):
// a store packs a row into the first recent shape it fits, so the same row may sit under a
// looser shape (a number that fits 32 bits under a double, a digit string under a text), and it
// keeps the texts and shapes of rows replaced since. A snapshot must not show that history
// (equal states give equal documents: the durable tests compare them), so the records are
// exported with each row under the shape its value alone gives (such rows repacked), the shapes
// and texts numbered in order of first use, and nothing unused.
import { PackedRows, plainText } from './packed-rows.ts';
import { countLeaves, loosePlaces, type PackedRecords } from './packed-shapes.ts';

const U32 = (v: number) => v >= 0 && v <= 0xffffffff && Number.isInteger(v) && !Object.is(v, -0);

export function canonicalRecords(store: PackedRows, recs: readonly number[]): PackedRecords {
  const main = store.exportRecords(recs);
  const places = main.shapes.map((op) => loosePlaces(op as never));
  const plain = new Int8Array(main.texts.length); // 0 unknown, 1 a plain text, -1 packs otherwise
  const isPlain = (id: number) => (plain[id] ||= plainText(main.texts[id]!) ? 1 : -1) === 1;
  // Rows under a looser shape than their own: repacked, by themselves, in a store of their own.
  const loose = new PackedRows();
  const looseOf = new Int32Array(recs.length).fill(-1);
  const starts = recordStarts(main);
  for (let i = 0; i < recs.length; i++) {
    const p = places[main.shapeOf[i]!]!;
    const w = starts.words[i]!;
    const d = starts.doubles[i]!;
    if (p.texts.every((t) => isPlain(main.words[w + t]!)) && !p.numbers.some((n) => U32(main.doubles[d + n]!))) continue;
    looseOf[i] = loose.pack(store.unpack<object>(recs[i]!), true)!;
  }
  const other = loose.exportRecords(Array.from({ length: looseOf.reduce((n, r) => n + (r >= 0 ? 1 : 0), 0) }, (_, k) => k));
  const otherStarts = recordStarts(other);
  // Shapes and texts renumbered by first use, from either source.
  const shapeIds = new Map<string, number>();
  const shapes: unknown[] = [];
  const texts: string[] = [];
  const textIds = new Map<string, number>();
  const sources = [main, other].map((src) => ({
    src,
    places: src.shapes.map((op) => loosePlaces(op as never)),
    counts: src.shapes.map((op) => countLeaves(op as never, { words: 0, doubles: 0 })),
    shape: new Int32Array(src.shapes.length).fill(-1),
    text: new Int32Array(src.texts.length).fill(-1),
  }));
  const shapeOf = new Uint32Array(recs.length);
  const words = new Uint32Array(main.words.length + other.words.length);
  const doubles = new Float64Array(main.doubles.length + other.doubles.length);
  let wn = 0;
  let dn = 0;
  for (let i = 0; i < recs.length; i++) {
    const fromLoose = looseOf[i]! >= 0;
    const s = sources[fromLoose ? 1 : 0]!;
    const rec = fromLoose ? looseOf[i]! : i;
    const st = fromLoose ? otherStarts : starts;
    const shape = s.src.shapeOf[rec]!;
    if (s.shape[shape] === -1) {
      const key = JSON.stringify(s.src.shapes[shape]);
      let id = shapeIds.get(key);
      if (id === undefined) shapeIds.set(key, (id = shapes.push(s.src.shapes[shape]) - 1));
      s.shape[shape] = id;
    }
    shapeOf[i] = s.shape[shape]!;
    const w = st.words[rec]!;
    const n = s.counts[shape]!;
    words.set(s.src.words.subarray(w, w + n.words), wn);
    for (const t of s.places[shape]!.texts) {
      const old = s.src.words[w + t]!;
      if (s.text[old] === -1) {
        const value = s.src.texts[old]!;
        let id = textIds.get(value);
        if (id === undefined) textIds.set(value, (id = texts.push(value) - 1));
        s.text[old] = id;
      }
      words[wn + t] = s.text[old]!;
    }
    doubles.set(s.src.doubles.subarray(st.doubles[rec]!, st.doubles[rec]! + n.doubles), dn);
    wn += n.words;
    dn += n.doubles;
  }
  return { shapes, texts, shapeOf, words: words.slice(0, wn), doubles: doubles.slice(0, dn) };
}

/** Each exported record's first word and first double. */
function recordStarts(parts: PackedRecords): { words: Uint32Array; doubles: Uint32Array } {
  const counts = parts.shapes.map((op) => countLeaves(op as never, { words: 0, doubles: 0 }));
  const words = new Uint32Array(parts.shapeOf.length);
  const doubles = new Uint32Array(parts.shapeOf.length);
  let w = 0;
  let d = 0;
  for (let i = 0; i < parts.shapeOf.length; i++) {
    words[i] = w;
    doubles[i] = d;
    w += counts[parts.shapeOf[i]!]!.words;
    d += counts[parts.shapeOf[i]!]!.doubles;
  }
  return { words, doubles };
}
