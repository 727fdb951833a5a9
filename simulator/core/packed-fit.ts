// Whether a row has a shape of packed rows (packed-rows.ts), its leaves written to the packer's
// scratch as the walk goes: the walk over the shape's tree (`fitsShape`) and the same walk
// written out as code for one shape (`compileFit`), which the packer uses for a shape that keeps
// fitting rows. The compiled walk reads each member by its name and checks each leaf in place,
// with no dispatch per node: about a third of the interpreted walk's time on a call row
// (docs/decisions.md "Scale", "The batch's CPU per call, fourth round"). Both leave the same
// effects in the same order (scratch, interned texts, each text leaf's memo of its last text),
// whether the row fits or not, so the packer's texts, and so a snapshot, are the same either way.
import { canonicalInstant as instantMs } from './clock.ts';
import { digitsValue, hexWord, type Scratch } from './packed-leaves.ts';
import type { Op } from './packed-shapes.ts';

/** Where a walk writes: the record's words and doubles, and the packer's interning of texts. */
export interface FitSink {
  readonly words: Scratch;
  readonly doubles: Scratch;
  textId(s: string): number;
}

/** Whether `v` has the shape `op`, its leaves written to the sink as it goes. */
export function fitsShape(op: Op, v: unknown, sink: FitSink): boolean {
  switch (op.k) {
    case 'obj': {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      const o = v as Record<string, unknown>;
      let n = 0;
      for (const name in o) {
        if (!Object.prototype.hasOwnProperty.call(o, name)) continue;
        if (op.keys[n] !== name || !fitsShape(op.kids[n]!, o[name], sink)) return false;
        n++;
      }
      return n === op.keys.length;
    }
    case 'arr': {
      if (!Array.isArray(v) || v.length !== op.kids.length) return false;
      for (let i = 0; i < v.length; i++) if (!fitsShape(op.kids[i]!, v[i], sink)) return false;
      return true;
    }
    case 'const':
      return Object.is(v, op.value);
    case 'u32':
      if (typeof v !== 'number' || !(v >= 0 && v <= 0xffffffff && Number.isInteger(v)) || Object.is(v, -0)) return false;
      sink.words.push(v);
      return true;
    case 'f64':
      if (typeof v !== 'number') return false;
      sink.doubles.push(v);
      return true;
    case 'text':
      if (typeof v !== 'string') return false;
      if (v !== op.last) {
        op.last = v;
        op.lastId = sink.textId(v);
      }
      sink.words.push(op.lastId!);
      return true;
    case 'time': {
      const ms = typeof v === 'string' ? instantMs(v) : undefined;
      if (ms === undefined) return false;
      sink.doubles.push(ms);
      return true;
    }
    case 'digits': {
      if (typeof v !== 'string' || !v.startsWith(op.prefix)) return false;
      const value = digitsValue(v, op.prefix.length);
      if (value < 0) return false;
      sink.doubles.push(value);
      return true;
    }
    case 'hex': {
      if (typeof v !== 'string' || v.length !== op.prefix.length + op.words * 8 || !v.startsWith(op.prefix)) return false;
      const at = sink.words.length;
      for (let i = op.prefix.length; i < v.length; i += 8) {
        const word = hexWord(v, i);
        if (word < 0) {
          sink.words.length = at;
          return false;
        }
        sink.words.push(word);
      }
      return true;
    }
  }
}

/**
 * `fitsShape` for one shape, as a function of its own. An object's keys are checked first, in
 * order; when they differ, the tree walk runs on that object (it fails there too, after the same
 * leaves and texts the tree walk would have taken), so effects stay those of `fitsShape`. Names
 * and prefixes enter the code only as JSON string literals. `leaves` are the shape's (packed-shapes.ts
 * `countLeaves`): room for them is made once per row.
 */
export function compileFit(shape: Op, sink: FitSink, leaves: { words: number; doubles: number }): (v: unknown) => boolean {
  const ops: Op[] = [];
  const lines: string[] = [];
  let vars = 0;
  const walk = (op: Op, x: string): void => {
    const o = ops.push(op) - 1;
    switch (op.k) {
      case 'obj': {
        const keys = ops.length; // the keys array's name, unique
        lines.push(
          `if (typeof ${x} !== 'object' || ${x} === null || isArray(${x})) return false;`,
          `p = getProto(${x}); if (p !== OBJECT && p !== null) return false;`,
          `n = 0; for (const k in ${x}) { if (!hasOwn.call(${x}, k)) continue; if (k !== K${keys}[n]) { words.length = wl; doubles.length = dl; return slow(ops[${o}], ${x}); } n++; }`,
          `if (n !== ${op.keys.length}) { words.length = wl; doubles.length = dl; return slow(ops[${o}], ${x}); }`,
        );
        decls.push(`const K${keys} = ${JSON.stringify(op.keys)};`);
        op.keys.forEach((key, i) => {
          const kid = `v${vars++}`;
          lines.push(`const ${kid} = ${x}[${JSON.stringify(key)}];`);
          walk(op.kids[i]!, kid);
        });
        return;
      }
      case 'arr':
        lines.push(`if (!isArray(${x}) || ${x}.length !== ${op.kids.length}) return false;`);
        op.kids.forEach((kid, i) => {
          const name = `v${vars++}`;
          lines.push(`const ${name} = ${x}[${i}];`);
          walk(kid, name);
        });
        return;
      case 'const':
        lines.push(`if (${x} !== ${op.value === undefined ? 'undefined' : JSON.stringify(op.value)}) return false;`);
        return;
      case 'u32':
        lines.push(`if (typeof ${x} !== 'number' || !(${x} >= 0 && ${x} <= 4294967295 && isInteger(${x})) || is(${x}, -0)) return false;`, `wv[wl++] = ${x};`);
        return;
      case 'f64':
        lines.push(`if (typeof ${x} !== 'number') return false;`, `dv[dl++] = ${x};`);
        return;
      case 'text':
        lines.push(`if (typeof ${x} !== 'string') return false;`, `t = ops[${o}]; if (${x} !== t.last) { t.last = ${x}; t.lastId = textId(${x}); }`, 'wv[wl++] = t.lastId;');
        return;
      case 'time':
        lines.push(`if (typeof ${x} !== 'string') return false;`, `m = instantMs(${x}); if (m === undefined) return false;`, 'dv[dl++] = m;');
        return;
      case 'digits':
        lines.push(`if (typeof ${x} !== 'string' || !${x}.startsWith(${JSON.stringify(op.prefix)})) return false;`, `m = digitsValue(${x}, ${op.prefix.length}); if (m < 0) return false;`, 'dv[dl++] = m;');
        return;
      case 'hex': {
        lines.push(`if (typeof ${x} !== 'string' || ${x}.length !== ${op.prefix.length + op.words * 8} || !${x}.startsWith(${JSON.stringify(op.prefix)})) return false;`, 'a = wl;');
        for (let i = 0; i < op.words; i++) lines.push(`m = hexWord(${x}, ${op.prefix.length + i * 8}); if (m < 0) { wl = a; return false; }`, 'wv[wl++] = m;');
        return;
      }
    }
  };
  const decls: string[] = [];
  walk(shape, 'v');
  // Room for every leaf is made first, so leaves are written straight into the scratch arrays;
  // their lengths are written back on every way out (statements, not a closure: the counters
  // stay locals).
  const walkBody = lines.map((line) => line.replaceAll('return false;', '{ words.length = wl; doubles.length = dl; return false; }'));
  const body = [
    ...decls,
    'return function fit(v) {',
    `words.reserve(${leaves.words}); doubles.reserve(${leaves.doubles});`,
    'const wv = words.values, dv = doubles.values;',
    'let wl = words.length, dl = doubles.length, p, n, t, m, a;',
    ...walkBody,
    'words.length = wl; doubles.length = dl; return true;',
    '};',
  ].join('\n');
  const make = new Function('ops', 'words', 'doubles', 'textId', 'slow', 'instantMs', 'digitsValue', 'hexWord', 'isArray', 'getProto', 'hasOwn', 'OBJECT', 'isInteger', 'is', body);
  return make(
    ops,
    sink.words,
    sink.doubles,
    (s: string) => sink.textId(s),
    (op: Op, x: unknown) => fitsShape(op, x, sink),
    instantMs,
    digitsValue,
    hexWord,
    Array.isArray,
    Object.getPrototypeOf,
    Object.prototype.hasOwnProperty,
    Object.prototype,
    Number.isInteger,
    Object.is,
  ) as (v: unknown) => boolean;
}
