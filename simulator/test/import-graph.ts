// The one import scanner of the repository: every import, re-export and dynamic import of every
// source file, read with TypeScript's own parser (so comments and strings are never mistaken
// for imports), each edge marked type-only, value or lazy; the layer of each simulator file; the
// circles of the graph. simulator/test/layers.test.ts enforces the layer rules over it and
// bin/layers.ts prints the figures (files in circles, upward arrows, files per family).
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type ts from 'typescript';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * `type`: erased by the compiler (`import type`, `export type`); `value`: loaded when the file
 * loads (with verbatimModuleSyntax, `import { type A }` still loads its module); `lazy`: a
 * dynamic `import()`, loaded when the code runs, so it never makes a load-time cycle.
 */
export type ImportKind = 'type' | 'value' | 'lazy';

export interface Specifier {
  spec: string;
  kind: ImportKind;
}

export interface Edge {
  /** Repository paths with `/`. */
  from: string;
  to: string;
  kind: ImportKind;
}

/** TypeScript, loaded at the first parse (about 0.3 s of CPU): a run whose texts are all in the scan cache needs none. */
let loadedTs: typeof ts | undefined;
function typescript(): typeof ts {
  return (loadedTs ??= createRequire(import.meta.url)('typescript') as typeof ts);
}

/** Every module specifier a source text imports, re-exports or imports dynamically, with its kind. */
export function specifiersOf(text: string, fileName = 'file.ts'): Specifier[] {
  const ts = typescript();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const out: Specifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, kind: node.importClause?.isTypeOnly ? 'type' : 'value' });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({ spec: node.moduleSpecifier.text, kind: node.isTypeOnly ? 'type' : 'value' });
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) out.push({ spec: arg.text, kind: 'lazy' });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      out.push({ spec: node.argument.literal.text, kind: 'type' }); // `typeof import('./x.ts')`
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Source files under a folder of the repository, as repository paths with `/`, tests left out unless asked. */
export function sourceFiles(dir: string, withTests = false): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((f) => withTests || !/(^|\/)test\//.test(f))
    .sort();
}

/**
 * Each text's specifiers, kept between runs in node_modules/.cache/import-graph/ (the layer and
 * family-removal tests scan every simulator file, about a second of parsing each, in every run).
 * The key is a hash of the file's text and of this scanner's own source and TypeScript's version:
 * a changed file, or a changed scanner, is always parsed again, so a kept answer is the answer
 * specifiersOf would give. Written (merged with what other workers wrote, then renamed into
 * place) once the current batch of scans is done.
 */
const CACHE_FILE = path.join(ROOT, 'node_modules', '.cache', 'import-graph', 'specifiers.json');
/** Entries kept at most; the least recently used go first. */
const MAX_ENTRIES = 4000;
type Kept = { specifiers: Specifier[]; used: number };
let kept: Record<string, Kept> | undefined;
let scannerHash: string | undefined;
let flushing = false;

function readKept(): Record<string, Kept> {
  try {
    const parsed = JSON.parse(readFileSync(CACHE_FILE, 'utf8')) as Record<string, Kept>;
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {}; // none yet, or unreadable: parse as if there were none
  }
}

function keyOf(text: string): string {
  scannerHash ??= createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(String((createRequire(import.meta.url)('typescript/package.json') as { version: string }).version))
    .digest('hex');
  return createHash('sha256').update(scannerHash).update('\0').update(text).digest('base64url');
}

function flushSoon(): void {
  if (flushing) return;
  flushing = true;
  setImmediate(() => {
    flushing = false;
    try {
      const merged = Object.entries({ ...readKept(), ...kept })
        .sort((a, b) => b[1].used - a[1].used)
        .slice(0, MAX_ENTRIES);
      mkdirSync(path.dirname(CACHE_FILE), { recursive: true });
      const tmp = `${CACHE_FILE}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(Object.fromEntries(merged)));
      renameSync(tmp, CACHE_FILE);
    } catch {
      /* a read-only or full disk: the next run parses again */
    }
  });
}

/** A text's specifiers, from the cache or parsed (and then kept). */
function scanned(text: string, file: string): Specifier[] {
  kept ??= readKept();
  const key = keyOf(text);
  const hit = kept[key];
  if (hit) {
    hit.used = Date.now();
    return hit.specifiers;
  }
  const specifiers = specifiersOf(text, file);
  kept[key] = { specifiers, used: Date.now() };
  flushSoon();
  return specifiers;
}

/** The project-internal imports of one file (packages and node: builtins left out). */
export function projectImports(file: string): Edge[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return scanned(text, file)
    .filter((s) => s.spec.startsWith('.') || s.spec.startsWith('/'))
    .map((s) => ({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), s.spec)), kind: s.kind }));
}

/** Every project import of the files under `dirs` (tests left out). */
export function importGraph(dirs: readonly string[] = ['simulator']): Edge[] {
  return dirs.flatMap((d) => sourceFiles(d)).flatMap(projectImports);
}

/**
 * Where a simulator file sits. From the bottom: the kernel (`core`); the shared rules and the
 * fixture format; the family contract (`resources/family.ts`); the peers and the shared page
 * shell (`web`); the families (`resources/<name>/`); the control plane folder; and the
 * composition root that lists and wires them all.
 */
export type Layer =
  | { kind: 'core' }
  | { kind: 'rules' }
  | { kind: 'fixture' }
  | { kind: 'contract' }
  | { kind: 'peer'; name: string }
  | { kind: 'web' }
  | { kind: 'family'; name: string }
  | { kind: 'control' }
  | { kind: 'root' }
  | { kind: 'outside' };

/** Rank of each layer kind: an import from a lower rank to a higher one runs upward. */
export const RANK: Record<Layer['kind'], number> = {
  core: 0,
  rules: 1,
  fixture: 1,
  contract: 2,
  peer: 3,
  web: 3,
  family: 4,
  control: 5,
  root: 6,
  outside: 7,
};

/** The composition root: every file directly under simulator/ (runtime, registry, kernel, entry, pipeline...), the durable state dir (simulator/durable/) and the list of families. */
export const FAMILY_LIST = 'simulator/resources/index.ts';

export function layerOf(file: string): Layer {
  if (file === FAMILY_LIST) return { kind: 'root' };
  const parts = file.split('/');
  if (parts[0] !== 'simulator') return { kind: 'outside' };
  if (parts.length === 2) return { kind: 'root' };
  const [, top, second] = parts;
  switch (top) {
    case 'core':
      return { kind: 'core' };
    case 'rules':
      return { kind: 'rules' };
    case 'fixture':
      return { kind: 'fixture' };
    case 'web':
      return { kind: 'web' };
    case 'control':
      return { kind: 'control' };
    case 'durable':
      return { kind: 'root' }; // the state dir wraps the pipeline and the runtime: the composition root's
    case 'peers':
      return parts.length === 3 && second === 'index.ts' ? { kind: 'peer', name: 'index' } : { kind: 'peer', name: second!.replace(/\.ts$/, '') };
    case 'resources':
      if (parts.length === 3) return { kind: 'contract' }; // resources/family.ts and its siblings (index.ts is the root)
      return { kind: 'family', name: second! };
    default:
      return { kind: 'outside' };
  }
}

/** A family's or peer's name, or undefined for other layers. */
export function ownerOf(file: string): string | undefined {
  const l = layerOf(file);
  return l.kind === 'family' || l.kind === 'peer' ? `${l.kind}:${l.name}` : undefined;
}

/** The strongly connected groups of more than one file (or a file importing itself), Tarjan's algorithm. */
export function circles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (!next.has(e.from)) next.set(e.from, []);
    if (!next.has(e.to)) next.set(e.to, []);
    next.get(e.from)!.push(e.to);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let counter = 0;
  // Iterative, so a long chain of imports cannot overflow the call stack.
  for (const start of [...next.keys()].sort()) {
    if (index.has(start)) continue;
    const work: { node: string; i: number }[] = [{ node: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const succ = next.get(top.node)!;
      if (top.i < succ.length) {
        const w = succ[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, i: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) === index.get(top.node)) {
        const group: string[] = [];
        let w: string;
        do {
          w = stack.pop()!;
          onStack.delete(w);
          group.push(w);
        } while (w !== top.node);
        const selfLoop = group.length === 1 && succ.includes(top.node);
        if (group.length > 1 || selfLoop) out.push(group.sort());
      }
    }
  }
  return out.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** The imports that load a module when the file loads: the edges a load-time cycle runs along. */
export const valueEdges = (edges: readonly Edge[]) => edges.filter((e) => e.kind === 'value');

/**
 * Circles the house forbids: groups of more than two files, and pairs whose two imports both
 * load a module (a pair where one side is `import type` is allowed: schema.ts and model.ts
 * naming each other's types).
 */
export function forbiddenCircles(edges: readonly Edge[]): string[][] {
  return circles(edges).filter((group) => {
    if (group.length !== 2) return true;
    const [a, b] = group as [string, string];
    const kinds = (from: string, to: string) => edges.filter((e) => e.from === from && e.to === to).map((e) => e.kind);
    return !(kinds(a, b).every((k) => k === 'type') || kinds(b, a).every((k) => k === 'type'));
  });
}

/** An import as failures and allow-lists name it. */
export const arrow = (e: Edge) => `${e.from} -> ${e.to}${e.kind === 'value' ? '' : ` (${e.kind})`}`;
