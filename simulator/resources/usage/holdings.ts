// The numbers and links of one usage query and the (number, link) pairs its rows are cut at
// (usage rule 6: with the number axis, the same number held through another link is another
// row), interned as they are met; then their order in the answer: linkId (null first) and
// phoneNumber in string order as the axes ask, equal ones in runs (ties go by first appearance).

export class Holdings {
  readonly numberNames: string[] = [];
  readonly linkNames: (string | null)[] = [null];
  readonly number: number[] = [];
  readonly link: number[] = [];
  private readonly numberIds = new Map<string, number>();
  private readonly linkIds = new Map<string, number>();
  private readonly pairs = new Map<string, number>();

  get size(): number {
    return this.number.length;
  }

  numberId(name: string): number {
    let id = this.numberIds.get(name);
    if (id === undefined) this.numberIds.set(name, (id = this.numberNames.push(name) - 1));
    return id;
  }

  /** 0 is null. */
  linkId(name: string): number {
    let id = this.linkIds.get(name);
    if (id === undefined) this.linkIds.set(name, (id = this.linkNames.push(name) - 1));
    return id;
  }

  /** The holding of a number id and a link id (asked once per distinct pair of a source's indexes). */
  of(number: number, link: number): number {
    const key = `${number} ${link}`;
    let id = this.pairs.get(key);
    if (id === undefined) {
      this.number.push(number);
      this.pairs.set(key, (id = this.link.push(link) - 1));
    }
    return id;
  }
}

/** Where each holding goes in the answer, given the axes. */
export class HoldingOrder {
  /** per holding: the rank of its link (link axis) and of its number (number axis), else 0 */
  readonly linkRank: Int32Array;
  readonly numberRank: Int32Array;
  readonly linkRanks: number;
  readonly numberRanks: number;
  /** holdings by (link rank, number rank) */
  readonly order: Int32Array;
  /** for each position of `order`, where its run of equal ranks ends (exclusive) */
  readonly runEnd: Int32Array;

  constructor(h: Holdings, axes: { linkId: boolean; number: boolean }) {
    const n = h.size;
    const links = axes.linkId ? ranks(h.linkNames) : undefined;
    const numbers = axes.number ? ranks(h.numberNames) : undefined;
    this.linkRank = new Int32Array(n);
    this.numberRank = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      if (links) this.linkRank[i] = links.rank[h.link[i]!]!;
      if (numbers) this.numberRank[i] = numbers.rank[h.number[i]!]!;
    }
    this.linkRanks = links?.count ?? 1;
    this.numberRanks = numbers?.count ?? 1;
    const same = (a: number, b: number) => this.linkRank[a] === this.linkRank[b] && this.numberRank[a] === this.numberRank[b];
    this.order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => this.linkRank[a]! - this.linkRank[b]! || this.numberRank[a]! - this.numberRank[b]! || a - b);
    this.runEnd = new Int32Array(n);
    for (let end = n, p = n - 1; p >= 0; p--) {
      if (p + 1 < n && !same(this.order[p]!, this.order[p + 1]!)) end = p + 1;
      this.runEnd[p] = end;
    }
  }
}

/** Ranks of names in string order (`null` reads as ''), equal names equal ranks; and how many ranks. */
function ranks(names: readonly (string | null)[]): { rank: Int32Array; count: number } {
  const order = names.map((_, i) => i).sort((a, b) => cmp(names[a] ?? '', names[b] ?? ''));
  const rank = new Int32Array(names.length);
  let r = -1;
  let last: string | undefined;
  for (const i of order) {
    const name = names[i] ?? '';
    if (name !== last) r++;
    rank[i] = r;
    last = name;
  }
  return { rank, count: r + 1 };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
