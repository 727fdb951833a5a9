// What a family whose model is built on first use (resources/family.ts `wire`, docs/decisions.md
// "Models built on first use") hands others before its model exists: an object with the same
// methods as the one its model would give, each building that object (and so the model) on its
// first call and calling through. The methods are named, not discovered: which optional methods
// an object has (a call handler's `offer`, `claims`) is part of what its users read.

/** An object with `methods`, each calling the same method of `make()`, which runs once, on the first call. */
export function onFirstCall<T extends object>(make: () => T, methods: readonly (keyof T & string)[]): T {
  let made: T | undefined;
  const target = () => (made ??= make());
  const out: Record<string, unknown> = {};
  for (const name of methods) {
    out[name] = (...args: unknown[]) => {
      const t = target();
      return (t[name] as (...a: unknown[]) => unknown).apply(t, args);
    };
  }
  return out as T;
}

/**
 * The `wire` of a family built on first use that registers nothing with others (nobody needs it,
 * or those who do reach it through their need, which builds it): declaring it is what makes the
 * model wait for its first use.
 */
export function nothingToWire(): void {}
