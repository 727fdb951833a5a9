// Writing a member of a plain record by a name that comes from outside (a variable's name, a
// key of a stored row): `record[name] = value` with the name `__proto__` sets the record's
// prototype (or, for a text, does nothing) instead of adding a member. Variable names allow it
// (^[A-Za-z_][A-Za-z0-9_]*$), so it is written as an own member like any other.

/** Sets `name` on `target` as an own, enumerable member (what a spread or JSON.parse makes). */
export function setMember(target: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
