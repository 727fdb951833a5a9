// How deep a request body may nest. A body nested thousands of arrays deep parses (V8's
// JSON.parse is iterative) but overflows the stack of every recursive walk after it (schema
// checks, JSON.stringify), so the pipeline refuses it before anything walks it. The check itself
// recurses at most `limit` + 1 levels (it never looks below the limit), so it cannot overflow.

/** Arrays and objects inside one another, the body's own level counted: plenty for any real body. */
export const MAX_BODY_DEPTH = 32;

/** The path of the first value nested deeper than `limit` levels, or undefined when none is. */
export function tooDeepAt(value: unknown, limit = MAX_BODY_DEPTH): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const keys = deepFrom(value, 1, limit);
  return keys === undefined ? undefined : pathOf(keys);
}

/**
 * The keys down to the first container deeper than `limit` (innermost first), or undefined.
 * Members are looked into last first, the order of the stack walk this replaced (docs/decisions.md
 * "The batch's CPU per call, fifth round"): it made an object per container, two per recipient
 * of a batch's body, and the same value is found. No key or path is written unless one is found.
 */
function deepFrom(v: object, depth: number, limit: number): (string | number)[] | undefined {
  if (depth > limit) return [];
  if (Array.isArray(v)) {
    for (let i = v.length - 1; i >= 0; i--) {
      const kid: unknown = v[i];
      if (!kid || typeof kid !== 'object') continue;
      const keys = deepFrom(kid, depth + 1, limit);
      if (keys !== undefined) return (keys.push(i), keys);
    }
    return undefined;
  }
  const names = Object.keys(v);
  for (let i = names.length - 1; i >= 0; i--) {
    const kid = (v as Record<string, unknown>)[names[i]!];
    if (!kid || typeof kid !== 'object') continue;
    const keys = deepFrom(kid, depth + 1, limit);
    if (keys !== undefined) return (keys.push(names[i]!), keys);
  }
  return undefined;
}

/** `[i]` for an index, `.name` for a member (no dot after an empty path), from the body down. */
function pathOf(innermostFirst: (string | number)[]): string {
  let path = '';
  for (let i = innermostFirst.length - 1; i >= 0; i--) {
    const key = innermostFirst[i]!;
    if (typeof key === 'number') path += `[${key}]`;
    else path = path ? `${path}.${key}` : key;
  }
  return path;
}
