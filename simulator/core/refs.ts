// Cross-resource references ("is CF41b8 a call flow of this account?"). A resource family
// registers a lookup for its kind; a kind no family has registered yet answers `undefined`,
// which callers treat as "cannot check here" (accepted, and listed in docs/decisions.md).
// The kinds are the families' (`RefKind` in resources/index.ts).

/** true: exists and usable; false: unknown to the account; a string: exists but unusable (the reason). */
export type RefCheck = (accountId: string, id: string) => boolean | string;

export class References<Kind extends string = string> {
  private readonly checks = new Map<Kind, RefCheck>();

  register(kind: Kind, check: RefCheck): void {
    this.checks.set(kind, check);
  }

  check(kind: Kind, accountId: string, id: string): boolean | string | undefined {
    return this.checks.get(kind)?.(accountId, id);
  }
}
