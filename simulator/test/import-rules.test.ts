// Two import rules, read from the source (TypeScript's own import scanner, so comments, strings,
// type-only imports, re-exports and dynamic imports are all seen as the compiler sees them):
// - the conformance kit is independent of the simulator: nothing under conformance/ imports
//   from simulator/ except its public entry simulator/index.ts (the in-process target);
// - the kernel is at the bottom: nothing under simulator/core/ imports a project file outside it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** Source files under a folder of the repository, as repository paths with `/`. */
function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && SOURCE.test(e.name))
    .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .sort();
}

/** Every module specifier a source text imports, re-exports or imports dynamically. */
function specifiersOf(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
}

interface Edge {
  from: string;
  /** The repository path of a relative import; bare specifiers (packages, node:) are left out. */
  to: string;
}

function projectImports(file: string): Edge[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return specifiersOf(text)
    .filter((s) => s.startsWith('.') || s.startsWith('/'))
    .map((s) => ({ from: file, to: path.posix.normalize(path.posix.join(path.posix.dirname(file), s)) }));
}

const show = (edges: Edge[]) => edges.map((e) => `${e.from} -> ${e.to}`);

describe('import rules', () => {
  it('the scanner sees every kind of import and nothing in comments or strings', () => {
    const text = [
      "import type { A } from './a.ts';",
      "import b, { c } from '../b.ts';",
      "import './side-effect.ts';",
      "export * from './re.ts';",
      "export { d } from './d.ts';",
      "const e = await import('./lazy.ts');",
      "// import x from './commented.ts';",
      "const s = \"import y from './quoted.ts'\";",
      "import http from 'node:http';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual(['./a.ts', '../b.ts', './side-effect.ts', './re.ts', './d.ts', './lazy.ts', 'node:http']);
  });

  it('nothing under conformance/ imports from simulator/ except its public entry', () => {
    const files = sourceFiles('conformance');
    expect(files).toContain('conformance/target.ts');
    expect(files.some((f) => f.startsWith('conformance/test/'))).toBe(true);
    const edges = files.flatMap(projectImports);
    // The rule has something to hold: the in-process target does use the public entry.
    expect(show(edges)).toContain('conformance/target.ts -> simulator/index.ts');
    const offending = edges.filter((e) => (e.to === 'simulator' || e.to.startsWith('simulator/')) && e.to !== 'simulator/index.ts');
    expect(show(offending), 'the kit must not depend on the simulator\'s internals: use simulator/index.ts or the control plane').toEqual([]);
  });
  // The core rule (core imports nothing above it) lives in layers.test.ts, with the runtime's.
});
