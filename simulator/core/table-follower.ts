// Following a table from outside (columns derived from its rows: usage, the list of calls): at
// each look, the positions whose rows changed since the last look, found from the change stamps
// the table keeps; every position again once the table was replaced (a restore) or its
// positions moved (a delete).
import type { Row, Table } from './store.ts';

export class TableFollower<T extends Row> {
  private table: Table<T> | undefined;
  private layout = -1;
  private seen = 0;
  /** positions read so far */
  size = 0;

  /**
   * Calls `grow` with the table's size when it has more rows than read so far, then `read` for
   * each position changed since the last look, in order; `restart` first when every position is
   * read again.
   */
  catchUp(table: Table<T>, grow: (size: number) => void, read: (pos: number) => void, restart?: () => void): void {
    if (table !== this.table || table.layout !== this.layout) {
      restart?.();
      this.table = table;
      this.layout = table.layout;
      this.seen = 0;
      this.size = 0;
    }
    if (table.version === this.seen) return;
    const size = table.size;
    if (size > this.size) grow(size);
    for (let i = 0; i < size; i++) if (i >= this.size || table.changedAt(i) > this.seen) read(i);
    this.size = size;
    this.seen = table.version;
  }
}
