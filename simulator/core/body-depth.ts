// How deep a request body may nest. A body nested thousands of arrays deep parses (V8's
// JSON.parse is iterative) but overflows the stack of every recursive walk after it (schema
// checks, JSON.stringify), so the pipeline refuses it before anything walks it. The check itself
// is iterative for the same reason.

/** Arrays and objects inside one another, the body's own level counted: plenty for any real body. */
export const MAX_BODY_DEPTH = 32;

/** The path of the first value nested deeper than `limit` levels, or undefined when none is. */
export function tooDeepAt(value: unknown, limit = MAX_BODY_DEPTH): string | undefined {
  const stack: { value: unknown; depth: number; path: string }[] = [{ value, depth: 1, path: '' }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (!next.value || typeof next.value !== 'object') continue;
    if (next.depth > limit) return next.path;
    const entries = Array.isArray(next.value) ? next.value.map((v, i) => [`[${i}]`, v] as const) : Object.entries(next.value).map(([k, v]) => [next.path ? `.${k}` : k, v] as const);
    for (const [key, v] of entries) stack.push({ value: v, depth: next.depth + 1, path: next.path + key });
  }
  return undefined;
}
