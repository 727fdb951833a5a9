// Where the tasks of each status are, for pages of one status without a scan: one Fenwick tree
// (binary indexed tree) per status over task positions. Moving a task between statuses is two
// O(log n) updates; the k-th task of a status is found in O(log n), so a page of 500 costs about
// 500 x 17 steps on a 100,000-task batch whatever the batch just did.
export class StatusIndex<S extends string> {
  private trees = new Map<S, Int32Array>();
  private capacity = 0;
  private size = 0;

  constructor(private readonly statuses: readonly S[]) {
    for (const s of statuses) this.trees.set(s, new Int32Array(1));
  }

  /** Appends a task at the next position. */
  push(status: S): void {
    if (this.size === this.capacity) this.grow();
    this.size++;
    this.update(status, this.size - 1, 1);
  }

  move(pos: number, from: S, to: S): void {
    if (from === to) return;
    this.update(from, pos, -1);
    this.update(to, pos, 1);
  }

  /** Position of the k-th (0-based) task in `status`, or undefined past the last. */
  kth(status: S, k: number): number | undefined {
    const tree = this.trees.get(status)!;
    let pos = 0;
    let rest = k + 1;
    for (let step = highestPowerOfTwo(this.capacity); step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.capacity && tree[next]! < rest) {
        pos = next;
        rest -= tree[next]!;
      }
    }
    return pos < this.size ? pos : undefined;
  }

  private update(status: S, pos: number, delta: number): void {
    const tree = this.trees.get(status)!;
    for (let i = pos + 1; i <= this.capacity; i += i & -i) tree[i]! += delta;
  }

  /**
   * Doubles the capacity (always a power of two). A Fenwick tree's nodes up to the old capacity
   * keep their ranges; of the new ones only the last covers a position held (it covers all of
   * them: the old last node's total), the others cover positions not pushed yet (zero). So the
   * old tree is copied and one node set, instead of a rebuild of every status's tree.
   */
  private grow(): void {
    const capacity = Math.max(1024, this.capacity * 2);
    for (const s of this.statuses) {
      const old = this.trees.get(s)!;
      const tree = new Int32Array(capacity + 1);
      tree.set(old);
      if (this.capacity > 0) tree[capacity] = old[this.capacity]!;
      this.trees.set(s, tree);
    }
    this.capacity = capacity;
  }
}

function highestPowerOfTwo(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return n === 0 ? 0 : p;
}
