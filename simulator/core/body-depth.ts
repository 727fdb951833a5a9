// How deep a request body may nest. A body nested thousands of arrays deep parses (V8's
// JSON.parse is iterative) but overflows the stack of every recursive walk after it (schema
// checks, JSON.stringify), so the pipeline refuses it before anything walks it. The check itself
// is iterative for the same reason.

/** Arrays and objects inside one another, the body's own level counted: plenty for any real body. */
export const MAX_BODY_DEPTH = 32;

/** A container waiting to be looked into: its parent and its key there, so a path is only written for the one returned. */
interface Pending {
  value: object;
  depth: number;
  parent: Pending | undefined;
  key: string | number; // a member's name, or an index in an array
}

/** The path of the first value nested deeper than `limit` levels, or undefined when none is. */
export function tooDeepAt(value: unknown, limit = MAX_BODY_DEPTH): string | undefined {
  if (!value || typeof value !== 'object') return undefined;
  // Only objects and arrays are stacked (the rest cannot be too deep), in the order of their
  // members, and a path is written only for the value found: a body of 100,000 recipients
  // makes no text and no pair per member.
  const stack: Pending[] = [{ value, depth: 1, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.depth > limit) return pathOf(next);
    const v = next.value;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const kid: unknown = v[i];
        if (kid && typeof kid === 'object') stack.push({ value: kid, depth: next.depth + 1, parent: next, key: i });
      }
    } else {
      for (const k of Object.keys(v)) {
        const kid = (v as Record<string, unknown>)[k];
        if (kid && typeof kid === 'object') stack.push({ value: kid, depth: next.depth + 1, parent: next, key: k });
      }
    }
  }
  return undefined;
}

/** `[i]` for an index, `.name` for a member (no dot after an empty path), from the body down. */
function pathOf(node: Pending): string {
  if (node.parent === undefined) return '';
  const above = pathOf(node.parent);
  if (typeof node.key === 'number') return `${above}[${node.key}]`;
  return above ? `${above}.${node.key}` : node.key;
}
