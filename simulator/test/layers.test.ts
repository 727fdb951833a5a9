// The walls of the house, read from the source by the one import scanner (import-graph.ts):
// every layer rule of layer-rules.ts holds except the debts listed in layer-debts.ts, which can
// only shrink; and the conformance kit imports nothing of the simulator but its public entry.
// Each failure names the import ("from -> to") or the file caught in a circle.
import { describe, expect, it } from 'vitest';
import { circles, forbiddenCircles, importGraph, layerOf, projectImports, sourceFiles, specifiersOf, type Edge } from './import-graph.ts';
import { RULES } from './layer-rules.ts';
import { LAYER_DEBTS } from './layer-debts.ts';

const edges = importGraph(['simulator']);

describe('the import scanner', () => {
  it('sees every kind of import with its kind, and nothing in comments or strings', () => {
    const text = [
      "import type { A } from './a.ts';",
      "import b, { c } from '../b.ts';",
      "import { type T } from './inline-type.ts';",
      "import './side-effect.ts';",
      "export * from './re.ts';",
      "export type { D } from './d.ts';",
      "const e = await import('./lazy.ts');",
      "type X = typeof import('./typeof.ts');",
      "// import x from './commented.ts';",
      "const s = \"import y from './quoted.ts'\";",
      "import http from 'node:http';",
    ].join('\n');
    expect(specifiersOf(text)).toEqual([
      { spec: './a.ts', kind: 'type' },
      { spec: '../b.ts', kind: 'value' },
      // verbatimModuleSyntax keeps `import {} from` for it: the module still loads.
      { spec: './inline-type.ts', kind: 'value' },
      { spec: './side-effect.ts', kind: 'value' },
      { spec: './re.ts', kind: 'value' },
      { spec: './d.ts', kind: 'type' },
      { spec: './lazy.ts', kind: 'lazy' },
      { spec: './typeof.ts', kind: 'type' },
      { spec: 'node:http', kind: 'value' },
    ]);
  });

  it('places files in their layers', () => {
    expect(layerOf('simulator/core/clock.ts')).toEqual({ kind: 'core' });
    expect(layerOf('simulator/resources/calls/voiceml/walker.ts')).toEqual({ kind: 'family', name: 'calls' });
    expect(layerOf('simulator/resources/family.ts')).toEqual({ kind: 'contract' });
    expect(layerOf('simulator/resources/index.ts')).toEqual({ kind: 'root' });
    expect(layerOf('simulator/peers/webhooks/engine.ts')).toEqual({ kind: 'peer', name: 'webhooks' });
    expect(layerOf('simulator/peers/dns/model.ts')).toEqual({ kind: 'peer', name: 'dns' });
    expect(layerOf('simulator/peers/carrier/schema.ts')).toEqual({ kind: 'peer', name: 'carrier' });
    expect(layerOf('simulator/runtime.ts')).toEqual({ kind: 'root' });
  });

  it('finds circles, and allows a pair only when one side imports types alone', () => {
    const e = (from: string, to: string, kind: Edge['kind'] = 'value'): Edge => ({ from, to, kind });
    const graph = [e('a', 'b'), e('b', 'c'), e('c', 'a', 'type'), e('m', 'n'), e('n', 'm', 'type'), e('p', 'q'), e('q', 'p'), e('s', 's')];
    expect(circles(graph)).toEqual([['a', 'b', 'c'], ['m', 'n'], ['p', 'q'], ['s']]);
    expect(forbiddenCircles(graph)).toEqual([['a', 'b', 'c'], ['p', 'q'], ['s']]);
  });

  it('reads the real tree: the kit uses the public entry, and the simulator has families', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges.some((x) => x.from === 'simulator/index.ts' && x.to === 'simulator/runtime.ts' && x.kind === 'value')).toBe(true);
  });
});

describe('layer rules', () => {
  it('every rule has its (possibly empty) list of debts, and nothing else is listed', () => {
    expect(Object.keys(LAYER_DEBTS).sort()).toEqual(RULES.map((r) => r.name).sort());
  });

  for (const rule of RULES) {
    it(`${rule.name}: no violation beyond the listed debts, and every listed debt still exists`, () => {
      const found = new Set(rule.violations(edges));
      const allowed = new Set(LAYER_DEBTS[rule.name] ?? []);
      const added = [...found].filter((v) => !allowed.has(v));
      const paid = [...allowed].filter((v) => !found.has(v));
      expect(added, `new violations of "${rule.name}" (${rule.why})`).toEqual([]);
      expect(paid, `gone from the code: delete these lines of "${rule.name}" in simulator/test/layer-debts.ts`).toEqual([]);
    });
  }
});

describe('the kit and the simulator', () => {
  it('nothing under conformance/ imports from simulator/ except its public entry', () => {
    const files = sourceFiles('conformance', true);
    expect(files).toContain('conformance/target.ts');
    expect(files.some((f) => f.startsWith('conformance/test/'))).toBe(true);
    const kit = files.flatMap(projectImports);
    // The rule has something to hold: the in-process target does use the public entry.
    expect(kit.map((x) => `${x.from} -> ${x.to}`)).toContain('conformance/target.ts -> simulator/index.ts');
    const offending = kit.filter((x) => (x.to === 'simulator' || x.to.startsWith('simulator/')) && x.to !== 'simulator/index.ts');
    expect(offending.map((x) => `${x.from} -> ${x.to}`), 'the kit must not depend on the simulator\'s internals: use simulator/index.ts or the control plane').toEqual([]);
  });
});
