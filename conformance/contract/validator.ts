// JSON Schema 2020-12 validation of bodies against the contract's schemas (ajv). Two modes:
// `strict` is the contract exactly as the simulator declares it; `lenient` tolerates fields
// the contract does not list (additionalProperties), because the spec fixes the fields an
// implementation must return, not that it returns nothing else (docs/decisions.md).
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { textHash } from '../cache-file.ts';
import { keptValidator } from './kept-validators.ts';

type Json = Record<string, any>;

export interface SchemaProblem {
  /** JSON pointer into the checked value ("" for the root). */
  path: string;
  message: string;
}

const STRICT_ID = 'https://conformance.local/contract.json';
const LENIENT_ID = 'https://conformance.local/contract-lenient.json';

// ajv-formats is published as CommonJS with a default export.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

/** A deep copy without `additionalProperties: false`. */
function relaxed(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxed);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === 'additionalProperties' && v === false) continue;
    out[k] = relaxed(v);
  }
  return out;
}

/** The document under its own `$id`, so that one ajv instance holds the strict and the lenient copy. */
function withId(doc: Json, id: string): Json {
  return { ...doc, $id: id };
}

/** `source`: keep each validator's code, so that it can be kept between runs (kept-validators.ts). */
export function newAjv(source = false): Ajv2020 {
  // No optimising passes over the generated code: a run compiles ~150 response validators, and
  // the passes were about half of that CPU (~0.3 s) while the checks stay the same.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, code: { optimize: false, source } });
  addFormats(ajv);
  return ajv;
}

/** The node at a JSON pointer ("#/a/b~1c") of the document. */
export function pointerGet(doc: Json, pointer: string): Json | undefined {
  let cur: any = doc;
  for (const p of pointer.replace(/^#\//, '').split('/')) cur = cur?.[p.replace(/~1/g, '/').replace(/~0/g, '~')];
  return cur;
}

/** Keywords under which accepting more can reject: a looser subschema may flip their verdict. */
const NON_MONOTONE = new Set(['not', 'oneOf', 'if', 'then', 'else', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'maxContains', '$dynamicRef', '$recursiveRef']);

/** Whether the schema at `pointer`, with every schema it refers to, is free of NON_MONOTONE keywords (any reference outside the document counts as not). */
function monotone(doc: Json, pointer: string): boolean {
  const seen = new Set<string>();
  const pending = [pointer];
  while (pending.length > 0) {
    const at = pending.pop()!;
    if (seen.has(at)) continue;
    seen.add(at);
    const walk = (node: unknown): boolean => {
      if (Array.isArray(node)) return node.every(walk);
      if (!node || typeof node !== 'object') return true;
      for (const [k, v] of Object.entries(node)) {
        if (NON_MONOTONE.has(k)) return false;
        if (k === '$ref') {
          if (typeof v !== 'string' || !v.startsWith('#/')) return false;
          pending.push(v);
        } else if (!walk(v)) return false;
      }
      return true;
    };
    const node = pointerGet(doc, at);
    if (node === undefined || !walk(node)) return false;
  }
  return true;
}

export class SchemaValidator {
  /** Made at the first validator not kept between runs (adding the two copies checks them against the meta-schema). */
  private ajv: Ajv2020 | undefined;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly canonicalOf = new Map<string, string>();
  /** What every kept validator of this document is keyed by besides its reference. */
  private documentKey: string | undefined;

  constructor(private readonly document: Json) {}

  private compile(ref: string): ValidateFunction {
    this.documentKey ??= textHash(JSON.stringify(this.document));
    return keptValidator(`contract\0${this.documentKey}\0${ref}`, () => {
      if (!this.ajv) {
        this.ajv = newAjv(true);
        this.ajv.addSchema(withId(this.document, STRICT_ID));
        this.ajv.addSchema(withId(relaxed(this.document) as Json, LENIENT_ID));
      }
      return { ajv: this.ajv, validate: this.ajv.compile({ $ref: ref }) };
    });
  }

  /**
   * Where a pointer's schema really lives: a node that is only `{ $ref }` to the same document
   * is followed, so the ~800 error answers that all point at one error body compile once
   * (compiling each pointer apart cost seconds of a run).
   */
  private canonical(pointer: string): string {
    let found = this.canonicalOf.get(pointer);
    if (found === undefined) {
      const seen = new Set<string>();
      found = pointer;
      for (let node = pointerGet(this.document, found); ; node = pointerGet(this.document, found)) {
        const ref = node && Object.keys(node).length === 1 ? node.$ref : undefined;
        if (typeof ref !== 'string' || !ref.startsWith('#/') || seen.has(ref)) break;
        seen.add(ref);
        found = ref;
      }
      this.canonicalOf.set(pointer, found);
    }
    return found;
  }

  private readonly monotoneAt = new Map<string, boolean>();

  /**
   * Whether every value the strict schema at `pointer` accepts is one the lenient schema accepts
   * too. The lenient copy only drops `additionalProperties: false`, which accepts more, unless the
   * schema (or one it refers to) inverts or counts matches (`not`, `oneOf`, `if`, ...): there a
   * looser branch can turn a pass into a failure. Then a body that passes strictly need not be
   * validated leniently at all (nor that validator compiled).
   */
  strictImpliesLenient(pointer: string): boolean {
    const start = this.canonical(pointer);
    let found = this.monotoneAt.get(start);
    if (found === undefined) {
      found = monotone(this.document, start);
      this.monotoneAt.set(start, found);
    }
    return found;
  }

  problems(pointer: string, value: unknown, mode: 'strict' | 'lenient'): SchemaProblem[] {
    const ref = `${mode === 'strict' ? STRICT_ID : LENIENT_ID}${this.canonical(pointer)}`;
    let validate = this.cache.get(ref);
    if (!validate) {
      validate = this.compile(ref);
      this.cache.set(ref, validate);
    }
    if (validate(value)) return [];
    const seen = new Set<string>();
    const out: SchemaProblem[] = [];
    for (const e of validate.errors ?? []) {
      // anyOf branches repeat the same field many times; keep the most telling message per path.
      if (e.keyword === 'anyOf') continue;
      const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
      const message = `${e.message ?? e.keyword}${extra}`;
      const key = `${e.instancePath}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ path: e.instancePath, message });
      if (out.length >= 10) break;
    }
    if (out.length === 0) out.push({ path: '', message: 'does not match the schema' });
    return out;
  }
}
