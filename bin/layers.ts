// `npm run layers`: the figures of the simulator's walls, from the one import scanner
// (simulator/test/import-graph.ts) and the layer rules (simulator/test/layer-rules.ts): files in
// import circles, value-import cycles, imports that run upward, each rule's violations, and the
// files of each family (in its folder, and serving it alone from outside). The issue's before and
// after figures are this output at two commits; layers.test.ts holds the rules themselves.
// `npm run layers -- --shrink` deletes from simulator/test/layer-debts.ts every listed debt that
// is gone (it never adds one): after merging branches that each paid some, run it instead of
// merging the lists by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, circles, forbiddenCircles, importGraph, layerOf, ownerOf, sourceFiles, valueEdges } from '../simulator/test/import-graph.ts';
import { RULES, upwardArrows } from '../simulator/test/layer-rules.ts';
import { LAYER_DEBTS, UNCHECKED_JOB_KINDS } from '../simulator/test/layer-debts.ts';
import { createSimulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';

const edges = importGraph(['simulator']);
const files = sourceFiles('simulator');
const lines = (f: string) => readFileSync(path.join(ROOT, f), 'utf8').split('\n').length;
const out: string[] = [];
const say = (s = '') => out.push(s);

say(`simulator source files (tests left out): ${files.length}`);
const all = circles(edges);
say(`import circles (every import): ${all.length}, sizes ${all.map((c) => c.length).join(', ') || '-'}; files in them: ${all.flat().length}`);
say(`  of which forbidden (more than two files, or a pair both of whose imports load): ${forbiddenCircles(edges).flat().length} files`);
const valueCycles = circles(valueEdges(edges));
say(`value-import cycles: ${valueCycles.length}${valueCycles.map((c) => `\n  ${c.join(' -> ')}`).join('')}`);

const up = upwardArrows(edges);
const byLayers = new Map<string, { type: number; value: number; lazy: number }>();
for (const e of up) {
  const key = `${layerOf(e.from).kind} -> ${layerOf(e.to).kind}`;
  const n = byLayers.get(key) ?? { type: 0, value: 0, lazy: 0 };
  n[e.kind]++;
  byLayers.set(key, n);
}
say(`imports running upward: ${up.length} (type-only ${up.filter((e) => e.kind === 'type').length})`);
for (const [k, n] of [...byLayers].sort()) say(`  ${k.padEnd(22)} ${String(n.value + n.type + n.lazy).padStart(3)}  (type-only ${n.type})`);

say('rule violations (layer-debts.ts lists the ones still allowed):');
for (const r of RULES) say(`  ${String(r.violations(edges).length).padStart(3)}  ${r.name}`);

say('files per family and peer (in its folder; files elsewhere, below the root, that import it more than any other):');
const owners = new Map<string, { files: number; lines: number; outside: string[] }>();
for (const f of files) {
  const o = ownerOf(f);
  if (!o) continue;
  const n = owners.get(o) ?? { files: 0, lines: 0, outside: [] };
  n.files++;
  n.lines += lines(f);
  owners.set(o, n);
}
for (const f of files) {
  if (ownerOf(f) || layerOf(f).kind === 'root') continue;
  const counts = new Map<string, number>();
  for (const e of edges) {
    const o = e.from === f ? ownerOf(e.to) : undefined;
    if (o) counts.set(o, (counts.get(o) ?? 0) + 1);
  }
  const most = Math.max(0, ...counts.values());
  const top = [...counts].filter(([, n]) => n === most);
  if (top.length === 1) owners.get(top[0]![0])!.outside.push(f.replace(/^simulator\//, ''));
}
for (const [o, n] of [...owners].sort()) {
  say(`  ${o.padEnd(28)} ${String(n.files).padStart(3)} files ${String(n.lines).padStart(5)} lines; outside: ${n.outside.length}${n.outside.length ? ` (${n.outside.join(', ')})` : ''}`);
}
process.stdout.write(`${out.join('\n')}\n`);

if (process.argv.includes('--shrink')) shrinkDebts();

/** Rewrites layer-debts.ts keeping, in each list, only the debts that still exist. */
function shrinkDebts(): void {
  const file = path.join(ROOT, 'simulator/test/layer-debts.ts');
  const text = readFileSync(file, 'utf8');
  const keep = (listed: readonly string[], found: Iterable<string>) => {
    const now = new Set(found);
    return listed.filter((x) => now.has(x));
  };
  const list = (items: readonly string[], indent: string) => items.map((x) => `${indent}${JSON.stringify(x).replace(/^"|"$/g, "'")},\n`).join('');
  const sim = createSimulator();
  const unchecked = keep(UNCHECKED_JOB_KINDS, runtimeOf(sim).clock.uncheckedKinds());
  void sim.close();
  const debts = RULES.map((r) => `  '${r.name.replace(/'/g, "\\'")}': [\n${list(keep(LAYER_DEBTS[r.name] ?? [], r.violations(edges)), '    ')}  ],\n`).join('');
  const head = text.slice(0, text.indexOf('export const LAYER_DEBTS'));
  const jobsDoc = text.slice(text.indexOf('};\n', text.indexOf('export const LAYER_DEBTS')) + 3, text.indexOf('export const UNCHECKED_JOB_KINDS'));
  writeFileSync(
    file,
    `${head}export const LAYER_DEBTS: Readonly<Record<string, readonly string[]>> = {\n${debts}};\n${jobsDoc}export const UNCHECKED_JOB_KINDS: readonly string[] = [\n${list(unchecked, '  ')}];\n`,
  );
  process.stdout.write('layer-debts.ts: paid debts removed\n');
}
