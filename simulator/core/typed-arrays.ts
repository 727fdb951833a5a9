// Growing typed arrays: columns of a million rows (usage, call batches, ended calls) are typed
// arrays grown by doubling, each grown the same way.

export type NumberColumn = Int8Array | Uint8Array | Uint16Array | Int32Array | Uint32Array | Float64Array;

/** A copy of `old` with room for `size` values (at least double), the new slots set to `fill`. */
export function grown<A extends NumberColumn>(old: A, size: number, fill = 0): A {
  const next = new (old.constructor as new (n: number) => A)(Math.max(size, old.length * 2, 16));
  next.set(old);
  if (fill !== 0) next.fill(fill, old.length);
  return next;
}
