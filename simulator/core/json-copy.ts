// A copy of a value exactly as a JSON round trip gives it (what a snapshot holds), without one
// string of the whole: a snapshot of a million calls is larger than the longest string V8 can
// make. The members of the state (and its arrays, a slice at a time) go through JSON one by one;
// JSON's rules (toJSON, undefined and functions dropped from objects, null in arrays) hold.

/** Elements per JSON round trip of a long array. */
const SLICE = 10_000;

export function jsonCopy<T>(value: T, depth = 2): T {
  if (value === null || typeof value !== 'object' || depth === 0 || typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return JSON.parse(JSON.stringify(value) ?? 'null') as T;
  }
  if (Array.isArray(value)) {
    if (value.length <= SLICE) return JSON.parse(JSON.stringify(value)) as T;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i += SLICE) for (const x of JSON.parse(JSON.stringify(value.slice(i, i + SLICE))) as unknown[]) out.push(x);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    Object.defineProperty(out, key, { value: jsonCopy(member, depth - 1), enumerable: true, writable: true, configurable: true });
  }
  return out as T;
}
