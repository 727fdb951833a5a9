// Interned strings: each distinct string gets a small number, so columns of a million rows hold
// numbers (an Int32Array) instead of a pointer and a string each, and equal strings compare as
// equal numbers. Ids count from 0 in order of first sight; a string once interned keeps its id.

export class Interner {
  private readonly ids = new Map<string, number>();
  /** maps an id to its string */
  readonly names: string[] = [];

  /** The id of `s`, giving it the next one when new. */
  id(s: string): number {
    let id = this.ids.get(s);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(s, id);
      this.names.push(s);
    }
    return id;
  }

  /** The id of `s` if it was interned, else undefined (nothing is added). */
  find(s: string): number | undefined {
    return this.ids.get(s);
  }

  name(id: number): string {
    return this.names[id]!;
  }

  get size(): number {
    return this.names.length;
  }
}
