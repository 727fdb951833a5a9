// Reading YAML data files (scenarios, the clause catalogue, target files) with a JSON Schema,
// so that every loading error names the file, the line and the reason. The parsed document keeps
// source ranges; a JSON pointer into the data maps back to the line of the node it names. Parsed
// data and the positions asked of it are kept between runs (yaml-cache.ts).
import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { yamlCache, type CachedYaml } from './yaml-cache.ts';
import type { ValidateFunction } from 'ajv';
import { newAjv } from './contract/validator.ts';
import { keptValidator } from './contract/kept-validators.ts';
import { plainJson } from './schema/build.ts';

export interface SourceProblem {
  file: string;
  line: number;
  column: number;
  message: string;
}

export class LoadError extends Error {
  constructor(readonly problems: SourceProblem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

export function formatProblem(p: SourceProblem): string {
  return `${p.file}:${p.line}:${p.column}: ${p.message}`;
}

/**
 * Parsed documents by their text, for the life of the process: parsing is most of the time of
 * loading the ~150 scenarios, which `diff` does twice and the kit's tests many times. Only the
 * parsed tree is shared (positions are read from it, never written); each load converts it to
 * fresh data.
 */
const parsed = new Map<string, { doc: Document; lines: LineCounter }>();

function parsedText(text: string): { doc: Document; lines: LineCounter } {
  let found = parsed.get(text);
  if (!found) {
    const lines = new LineCounter();
    found = { doc: parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true }), lines };
    parsed.set(text, found);
  }
  return found;
}

/** A parsed YAML file that can tell the line of any value inside it. */
export class YamlSource {
  private constructor(
    readonly file: string,
    readonly data: unknown,
    private readonly text: string,
    /** The text's entry in the cache between runs (yaml-cache.ts), when it is kept there. */
    private readonly kept: CachedYaml | undefined,
  ) {}

  static read(file: string, displayName = file): YamlSource {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new LoadError([{ file: displayName, line: 1, column: 1, message: `cannot read: ${(e as Error).message}` }]);
    }
    return YamlSource.parse(text, displayName);
  }

  static parse(text: string, file: string): YamlSource {
    const cached = yamlCache.lookup(text);
    if (cached) return new YamlSource(file, cached.data, text, cached.entry);
    const { doc, lines } = parsedText(text);
    const problems = [...doc.errors, ...doc.warnings].map((e) => {
      const pos = lines.linePos(e.pos[0]);
      return { file, line: pos.line, column: pos.col, message: `YAML: ${e.message.split('\n')[0]}` };
    });
    // The first few syntax errors say it; the rest are usually the parser losing its footing.
    if (doc.errors.length > 0) throw new LoadError(problems.slice(0, 3));
    const data = doc.toJS({ maxAliasCount: 100 });
    return new YamlSource(file, data, text, doc.warnings.length === 0 ? yamlCache.keep(text, data) : undefined);
  }

  /** Line and column of the node at a JSON pointer (or of its closest existing parent). */
  position(pointer: string): { line: number; column: number } {
    const known = this.kept?.positions[pointer];
    if (known) return { line: known[0], column: known[1] };
    const found = this.parsedPosition(pointer);
    if (this.kept) yamlCache.notePosition(this.kept, pointer, found);
    return found;
  }

  private parsedPosition(pointer: string): { line: number; column: number } {
    const { doc, lines } = parsedText(this.text);
    const parts = pointer === '' ? [] : pointer.replace(/^\//, '').split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    let node: unknown = doc.contents;
    let range = (node as { range?: [number, number, number] } | null)?.range;
    for (const part of parts) {
      let next: unknown;
      if (isMap(node)) {
        const pair = node.items.find((p) => String((p.key as { value?: unknown })?.value ?? p.key) === part);
        // Point at the key: a missing or wrong value is best shown where its key is.
        next = pair?.value ?? undefined;
        const keyRange = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
        if (keyRange && !next) range = keyRange;
        if (keyRange && next) range = (next as { range?: [number, number, number] }).range ?? keyRange;
      } else if (isSeq(node)) {
        next = node.items[Number(part)];
        const r = (next as { range?: [number, number, number] } | undefined)?.range;
        if (r) range = r;
      }
      if (next === undefined) break;
      node = next;
    }
    const pos = lines.linePos(range?.[0] ?? 0);
    return { line: pos.line, column: pos.col };
  }

  problem(pointer: string, message: string): SourceProblem {
    return { file: this.file, ...this.position(pointer), message };
  }
}

const schemaCache = new WeakMap<TSchema, ValidateFunction>();

/** Validates `source.data` against a format's schema (conformance/schema/); problems name file and line. */
export function schemaProblems(source: YamlSource, schema: TSchema): SourceProblem[] {
  let validate = schemaCache.get(schema);
  if (!validate) {
    const json = plainJson(schema);
    validate = keptValidator(`format\0${JSON.stringify(json)}`, () => {
      const ajv = newAjv(true);
      return { ajv, validate: ajv.compile(json) };
    });
    schemaCache.set(schema, validate);
  }
  if (validate(source.data)) return [];
  const out: SourceProblem[] = [];
  const seen = new Set<string>();
  for (const e of validate.errors ?? []) {
    // Branch errors of oneOf/anyOf repeat; the deepest specific message is the useful one.
    if (e.keyword === 'oneOf' || e.keyword === 'anyOf' || e.keyword === 'if') continue;
    let message = e.message ?? e.keyword;
    if (e.keyword === 'additionalProperties') message = `unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    if (e.keyword === 'enum') message = `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map(String).join(', ')}`;
    const where = e.instancePath || '(top level)';
    const p = source.problem(e.instancePath, `${where}: ${message}`);
    const key = `${p.line}:${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
    if (out.length >= 10) break;
  }
  return out;
}
