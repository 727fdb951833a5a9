// Facts about the shapes of packed rows (packed-rows.ts) read without a row: how many leaves of
// each kind a shape holds, where each top-level member starts, and a shape as plain data (for a
// snapshot's packed form, packed-transfer.ts).

/** One node of a shape, read in order while unpacking. */
export type Op =
  | { k: 'obj'; keys: string[]; kids: Op[] }
  | { k: 'arr'; kids: Op[] }
  | { k: 'const'; value: null | boolean | undefined }
  | { k: 'u32' } // a non-negative integer below 2^32
  | { k: 'f64' } // any other number
  | { k: 'text'; last?: string; lastId?: number } // an interned text (the last one at this place remembered)
  | { k: 'time' } // an ISO instant, as epoch ms
  | { k: 'digits'; prefix: string } // a prefix without digits and 1-15 digits (a phone number, `dl_42`), as the number '1' + digits
  | { k: 'hex'; prefix: string; words: number };

/** Exported records (exportRecords): plain data, the typed arrays copies. */
export interface PackedRecords {
  shapes: readonly unknown[];
  texts: readonly string[];
  shapeOf: Uint32Array;
  words: Uint32Array;
  doubles: Float64Array;
}

/** Where a top-level member's leaves start in its record, and its shape. */
export interface Place {
  op: Op;
  words: number;
  doubles: number;
}

export function placesOf(shape: Op): Map<string, Place> {
  const out = new Map<string, Place>();
  if (shape.k !== 'obj') return out;
  const count = { words: 0, doubles: 0 };
  shape.keys.forEach((key, i) => {
    out.set(key, { op: shape.kids[i]!, words: count.words, doubles: count.doubles });
    countLeaves(shape.kids[i]!, count);
  });
  return out;
}

export function countLeaves(op: Op, count: { words: number; doubles: number }): { words: number; doubles: number } {
  switch (op.k) {
    case 'obj':
    case 'arr':
      for (const kid of op.kids) countLeaves(kid, count);
      break;
    case 'u32':
    case 'text':
      count.words++;
      break;
    case 'hex':
      count.words += op.words;
      break;
    case 'f64':
    case 'time':
    case 'digits':
      count.doubles++;
      break;
    case 'const':
      break;
  }
  return count;
}

/** A shape without the memo of its last text (what a snapshot holds). */
export function plainOp(op: Op): Op {
  if (op.k === 'obj') return { k: 'obj', keys: op.keys.slice(), kids: op.kids.map(plainOp) };
  if (op.k === 'arr') return { k: 'arr', kids: op.kids.map(plainOp) };
  if (op.k === 'text') return { k: 'text' };
  return { ...op };
}


/** Where in a record a shape's text leaves (word offsets) and free numbers (double offsets) are. */
export function loosePlaces(op: Op): { texts: number[]; numbers: number[] } {
  const out = { texts: [] as number[], numbers: [] as number[] };
  const at = { words: 0, doubles: 0 };
  const walk = (o: Op): void => {
    if (o.k === 'obj' || o.k === 'arr') o.kids.forEach(walk);
    else if (o.k === 'text') out.texts.push(at.words++);
    else if (o.k === 'f64') out.numbers.push(at.doubles++);
    else countLeaves(o, at);
  };
  walk(op);
  return out;
}
