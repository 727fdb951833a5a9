// The reference models of state machines exist once, in the kit (conformance/properties/): the
// simulator's property tests import them rather than keep models of their own, and the
// simulator's source (everything under simulator/ but its tests) never imports the kit.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { windowArb } from '../properties/call-batch-rules.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Every quoted specifier after `from`, `import` or `import(` (and `require(`): a superset of the
 * file's imports (one named in a comment or a string counts too, which can only make a check
 * stricter). Not TypeScript's scanner: loading it was most of this file's CPU, and the one exact
 * scanner (simulator/test/import-graph.ts) is the simulator's test code, which the kit's tests
 * may not import (layers.test.ts).
 */
const SPECIFIER = /\b(?:from|import|require)\s*\(?\s*(['"])([^'"\n]+)\1/g;

/** Repository paths of the files a source file imports (relative imports only). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(ROOT, file), 'utf8');
  return [...text.matchAll(SPECIFIER)]
    .map((m) => m[2]!)
    .filter((s) => s.startsWith('.'))
    .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s)));
}

describe('reference models live once, in the kit', () => {
  it('the simulator\'s model-based tests drive the kit\'s models', () => {
    expect(importsOf('simulator/test/verifications.model.test.ts')).toContain('conformance/properties/verification-machine.ts');
    expect(importsOf('simulator/test/call-batches.property.test.ts')).toContain('conformance/properties/call-batch-rules.ts');
    // and the kit's own properties use the same files
    expect(importsOf('conformance/properties/verifications-model.ts')).toContain('conformance/properties/verification-machine.ts');
    expect(importsOf('conformance/properties/call-batches.ts')).toContain('conformance/properties/call-batch-rules.ts');
  });

  it('no simulator source outside its tests imports the kit', () => {
    const files = readdirSync(path.join(ROOT, 'simulator'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.(ts|mts|js|mjs)$/.test(e.name))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
      .filter((f) => !f.startsWith('simulator/test/'));
    expect(files.length).toBeGreaterThan(50);
    const offending = files.flatMap((f) => importsOf(f).filter((to) => to.startsWith('conformance/')).map((to) => `${f} -> ${to}`));
    expect(offending).toEqual([]);
  });

  it('the kit\'s models import nothing of the simulator', () => {
    for (const f of ['conformance/properties/verification-machine.ts', 'conformance/properties/call-batch-rules.ts']) {
      expect(importsOf(f).filter((to) => to.startsWith('simulator/'))).toEqual([]);
    }
  });
});

describe('the call-batch generators', () => {
  it('make only windows that meet the legal hours 08:00-21:00 (others are refused, window_unsatisfiable)', () => {
    const minutes = (t: string) => Number(t.slice(0, 2)) * 60;
    fc.assert(fc.property(windowArb, (w) => minutes(w.End) > 8 * 60 && minutes(w.Start) < 21 * 60 && minutes(w.Start) < minutes(w.End)), { numRuns: 2000 });
  });
});
