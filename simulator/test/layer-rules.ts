// The house's layer rules over the import graph (import-graph.ts), each a pure function from the
// edges to the violations it finds, named the way failures print them ("a -> b" for an import,
// a file path for a file caught in a circle). layers.test.ts holds them against the shrinking
// allow-lists in layer-debts.ts; bin/layers.ts prints the figures they give.
import { forbiddenCircles, circles, layerOf, RANK, arrow, valueEdges, type Edge } from './import-graph.ts';

export interface Rule {
  /** How the rule reads in the issue and in failures. */
  name: string;
  /** What breaking it costs, said once in the failure. */
  why: string;
  violations(edges: readonly Edge[]): string[];
}

const project = (edges: readonly Edge[]) => edges.filter((e) => e.from.startsWith('simulator/') && e.to.startsWith('simulator/'));
const isRoot = (f: string) => layerOf(f).kind === 'root';
const kind = (f: string) => layerOf(f).kind;
const familyName = (f: string) => {
  const l = layerOf(f);
  return l.kind === 'family' ? l.name : undefined;
};
/** Family folders and the contract beside them (resources/family.ts) are "the families" of the rules. */
const inFamilies = (f: string) => kind(f) === 'family' || kind(f) === 'contract';

function arrows(edges: readonly Edge[], keep: (e: Edge) => boolean): string[] {
  return [...new Set(project(edges).filter(keep).map(arrow))].sort();
}

export const RULES: readonly Rule[] = [
  {
    name: 'core imports only core',
    why: 'the kernel is at the bottom: it knows no family, peer or root',
    violations: (edges) => arrows(edges, (e) => kind(e.from) === 'core' && kind(e.to) !== 'core'),
  },
  {
    name: 'families -> composition root',
    why: 'a family gets what it needs through its declared ports, never the runtime or the registry',
    violations: (edges) => arrows(edges, (e) => inFamilies(e.from) && isRoot(e.to)),
  },
  {
    name: 'families -> control/',
    why: 'a family\'s /_sim routes live in its own control.ts',
    violations: (edges) => arrows(edges, (e) => inFamilies(e.from) && kind(e.to) === 'control'),
  },
  {
    name: "families -> another family's model",
    why: 'a family declares the narrow port it needs in its own folder; only schemas, errors and events cross',
    violations: (edges) =>
      arrows(edges, (e) => {
        const from = familyName(e.from);
        const to = familyName(e.to);
        return from !== undefined && to !== undefined && from !== to && e.to.endsWith('/model.ts');
      }),
  },
  {
    name: 'peers -> families',
    why: 'a peer gets what it needs from families through ports it declares',
    violations: (edges) => arrows(edges, (e) => kind(e.from) === 'peer' && kind(e.to) === 'family'),
  },
  {
    name: 'peers -> control/ or composition root',
    why: 'a peer\'s /_sim routes live beside it, and it is wired by the registry, not reaching for it',
    violations: (edges) => arrows(edges, (e) => kind(e.from) === 'peer' && (kind(e.to) === 'control' || isRoot(e.to))),
  },
  {
    name: 'fixture -> families',
    why: 'fixture/ keeps only what belongs to no family; each family declares its section and checks',
    violations: (edges) => arrows(edges, (e) => kind(e.from) === 'fixture' && (kind(e.to) === 'family' || kind(e.to) === 'peer' || isRoot(e.to))),
  },
  {
    name: 'control/, web/, rules/ -> composition root',
    why: 'shared places below the root see the narrow parts they use, not the runtime',
    violations: (edges) => arrows(edges, (e) => ['control', 'web', 'rules'].includes(kind(e.from)) && isRoot(e.to)),
  },
  {
    name: 'no value-import cycle',
    why: 'a module read while its importer is still loading sees undefined exports',
    violations: (edges) => circles(valueEdges(project(edges))).flat().sort(),
  },
  {
    name: 'no import circle of more than two files',
    why: 'files in one circle cannot be understood, tested or removed apart (a pair where one side is `import type` is allowed)',
    violations: (edges) => forbiddenCircles(project(edges)).flat().sort(),
  },
];

/** Imports that run upward: from a lower layer to a higher one (RANK in import-graph.ts). */
export function upwardArrows(edges: readonly Edge[]): Edge[] {
  return project(edges).filter((e) => RANK[kind(e.from)] < RANK[kind(e.to)]);
}
