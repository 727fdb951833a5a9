// Serialised JSON of stored rows, cached per row object. Rows are replaced, not mutated
// (store.ts), so a cached string stays right until the row is replaced or its owner, changing
// it in place, forgets it; lists are then built by joining
// cached strings instead of re-serialising every row on every request.
import type { ListMeta } from './paging.ts';

export class WireCache<T extends object> {
  private readonly cache = new WeakMap<T, string>();

  constructor(private readonly toWire: (row: T) => unknown) {}

  json(row: T): string {
    let s = this.cache.get(row);
    if (s === undefined) {
      s = JSON.stringify(this.toWire(row));
      this.cache.set(row, s);
    }
    return s;
  }

  /** Drops the cached text of a row its owner changed in place. */
  forget(row: T): void {
    this.cache.delete(row);
  }

  wire(row: T): unknown {
    return this.toWire(row);
  }

  /** The list envelope `{ data, meta }` (spec Conventions 5) as JSON text. */
  list(rows: readonly T[], meta: ListMeta): string {
    let out = '{"data":[';
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) out += ',';
      out += this.json(rows[i]!);
    }
    return `${out}],"meta":{"page":${meta.page},"pageSize":${meta.pageSize},"total":${meta.total}}}`;
  }

  /** `{ data }` without meta, for the few lists the reference leaves unpaged. */
  dataOnly(rows: readonly T[]): string {
    return `{"data":[${rows.map((r) => this.json(r)).join(',')}]}`;
  }
}
