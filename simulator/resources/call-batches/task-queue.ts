// Pending tasks of one round, ordered by the time they may be dialed, then by their place in
// the batch: a binary heap over two parallel number arrays (no object per entry), so 100,000
// recipients cost two arrays and every push or pop is O(log n).
export class TaskQueue {
  private readonly due: number[] = [];
  private readonly pos: number[] = [];

  /** Due time of the first entry, or undefined when empty. */
  peekDue(): number | undefined {
    return this.due[0];
  }

  clear(): void {
    this.due.length = 0;
    this.pos.length = 0;
  }

  push(due: number, pos: number): void {
    const d = this.due;
    const p = this.pos;
    let i = d.length;
    d.push(due);
    p.push(pos);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(d[i]!, p[i]!, d[parent]!, p[parent]!)) break;
      swap(d, p, i, parent);
      i = parent;
    }
  }

  /** Removes the first entry and returns its position. */
  pop(): number | undefined {
    const d = this.due;
    const p = this.pos;
    if (d.length === 0) return undefined;
    const top = p[0]!;
    const lastDue = d.pop()!;
    const lastPos = p.pop()!;
    if (d.length > 0) {
      d[0] = lastDue;
      p[0] = lastPos;
      let i = 0;
      const n = d.length;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && less(d[l]!, p[l]!, d[m]!, p[m]!)) m = l;
        if (r < n && less(d[r]!, p[r]!, d[m]!, p[m]!)) m = r;
        if (m === i) break;
        swap(d, p, i, m);
        i = m;
      }
    }
    return top;
  }
}

function less(da: number, pa: number, db: number, pb: number): boolean {
  return da < db || (da === db && pa < pb);
}

function swap(d: number[], p: number[], i: number, j: number): void {
  const td = d[i]!;
  d[i] = d[j]!;
  d[j] = td;
  const tp = p[i]!;
  p[i] = p[j]!;
  p[j] = tp;
}
