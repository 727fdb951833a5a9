// The clause catalogue (conformance/clauses.yaml): every clause of the interface specification
// with a stable id. Scenarios, checks and properties name the clauses they assert; coverage is
// reported against this list.
import { fileURLToPath } from 'node:url';
import { ClauseCatalogueSchema, type Clause } from './schema/clauses.ts';
import { LoadError, schemaProblems, YamlSource, type SourceProblem } from './yaml-source.ts';

export type { Clause, ClauseKind } from './schema/clauses.ts';

export const CLAUSES_PATH = fileURLToPath(new URL('./clauses.yaml', import.meta.url));

export class ClauseCatalogue {
  readonly byId = new Map<string, Clause>();

  constructor(readonly clauses: Clause[]) {
    for (const c of clauses) this.byId.set(c.id, c);
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Clause ids matching a filter: an exact id, or a prefix pattern ending in `*` (`blocked-caller.*`). */
  select(pattern: string): string[] {
    if (!pattern.endsWith('*')) return this.byId.has(pattern) ? [pattern] : [];
    const prefix = pattern.slice(0, -1);
    return this.clauses.filter((c) => c.id.startsWith(prefix)).map((c) => c.id);
  }
}

/** Loads and validates a catalogue: the schema, then unique ids. Errors name file and line. */
export function loadClauses(path = CLAUSES_PATH, displayName = path): ClauseCatalogue {
  const source = YamlSource.read(path, displayName);
  const problems: SourceProblem[] = schemaProblems(source, ClauseCatalogueSchema);
  if (problems.length > 0) throw new LoadError(problems);
  const clauses = (source.data as { clauses: Clause[] }).clauses;
  const seen = new Map<string, number>();
  clauses.forEach((c, i) => {
    const first = seen.get(c.id);
    if (first !== undefined) problems.push(source.problem(`/clauses/${i}/id`, `duplicate clause id "${c.id}" (first at entry ${first + 1})`));
    else seen.set(c.id, i);
  });
  if (problems.length > 0) throw new LoadError(problems);
  return new ClauseCatalogue(clauses);
}

/** Matches an id against filter patterns (exact ids or prefixes ending in `*`). */
export function matchesPattern(id: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => (p.endsWith('*') ? id.startsWith(p.slice(0, -1)) : id === p));
}
