// Issue 9: the kernel (simulator/core) imports nothing above it, and nothing loops back through
// the composition root (runtime.ts) at run time: families, peers and the control plane may name
// the runtime's type, never import its value.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const SIM = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(SIM, 'core');
const RUNTIME = join(SIM, 'runtime.ts');

interface Import {
  target: string; // absolute path for relative specifiers, the bare specifier otherwise
  typeOnly: boolean;
}

/** Static imports and re-exports of a module, and whether each brings only types. */
function importsOf(file: string): Import[] {
  const text = readFileSync(file, 'utf8');
  const out: Import[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:([^;]*?)\s+from\s+)?'([^']+)'/gm;
  for (const m of text.matchAll(re)) {
    const [, , typeKw, names, spec] = m;
    if (m[1] === 'export' && names === undefined) continue; // `export 'x'` is not valid anyway
    const braces = names?.match(/^\{([\s\S]*)\}$/);
    const allTypes = braces !== null && braces !== undefined && braces[1]!.split(',').map((s) => s.trim()).filter(Boolean).every((s) => s.startsWith('type '));
    out.push({
      target: spec!.startsWith('.') ? resolve(dirname(file), spec!) : spec!,
      typeOnly: typeKw !== undefined || allTypes,
    });
  }
  for (const m of text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) {
    out.push({ target: m[1]!.startsWith('.') ? resolve(dirname(file), m[1]!) : m[1]!, typeOnly: false });
  }
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return name === 'test' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const rel = (p: string) => relative(SIM, p);

describe('layers', () => {
  it('parses type-only and value imports apart', () => {
    const imports = importsOf(join(SIM, 'core', 'operation.ts'));
    expect(imports.find((i) => i.target === '@sinclair/typebox')?.typeOnly).toBe(true);
    const app = importsOf(join(SIM, 'app.ts'));
    expect(app.some((i) => i.target === RUNTIME && i.typeOnly)).toBe(true);
    const index = importsOf(join(SIM, 'index.ts'));
    expect(index.some((i) => i.target === RUNTIME && !i.typeOnly)).toBe(true);
  });

  it('core imports only core, packages and node builtins', () => {
    const outside = sources(CORE).flatMap((file) =>
      importsOf(file)
        .filter((i) => i.target.startsWith('/') && !i.target.startsWith(CORE + '/'))
        .map((i) => `${rel(file)} -> ${rel(i.target)}`),
    );
    expect(outside).toEqual([]);
  });

  it('families, peers, the control plane and fixtures name the runtime only as a type', () => {
    const below = ['resources', 'peers', 'control', 'fixture', 'core'].flatMap((d) => sources(join(SIM, d)));
    const valueImports = below.flatMap((file) =>
      importsOf(file).filter((i) => i.target === RUNTIME && !i.typeOnly).map(() => rel(file)),
    );
    expect(valueImports).toEqual([]);
  });

  it('no run-time import loop goes through runtime.ts', () => {
    const graph = new Map<string, string[]>();
    for (const file of sources(SIM)) {
      graph.set(file, importsOf(file).filter((i) => !i.typeOnly && i.target.startsWith('/')).map((i) => i.target));
    }
    // Depth-first from runtime.ts's own value imports: reaching runtime.ts again is a loop.
    const seen = new Set<string>();
    const path: string[] = [];
    let loop: string[] | undefined;
    const visit = (file: string): void => {
      if (loop || seen.has(file)) return;
      if (file === RUNTIME) {
        loop = [...path, file].map(rel);
        return;
      }
      seen.add(file);
      path.push(file);
      for (const next of graph.get(file) ?? []) visit(next);
      path.pop();
    };
    path.push(RUNTIME);
    for (const next of graph.get(RUNTIME) ?? []) visit(next);
    expect(loop).toBeUndefined();
  });
});
