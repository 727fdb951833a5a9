// The deterministic lexical ranking that stands in for embedding search: Okapi BM25 over the
// agent's chunks. Words are runs of letters and digits, lowercased; Hangul words also give
// their character bigrams, so "환불은" (with its particle) still meets "환불". Ties go to the
// older document, then the earlier chunk. Chunks with no word in common with the query never
// rank (docs/decisions.md "Managed agents").

const K1 = 1.2;
const B = 0.75;
const HANGUL = /[\uac00-\ud7a3]/;

/** The terms of a text, with repeats (term frequency counts them). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFC').toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = m[0];
    out.push(word);
    if (HANGUL.test(word)) {
      const chars = [...word];
      for (let i = 0; i + 1 < chars.length; i++) out.push(`${chars[i]}${chars[i + 1]}`);
    }
  }
  return out;
}

export interface IndexedChunk {
  documentId: string;
  index: number;
  text: string;
}

interface Entry extends IndexedChunk {
  tf: Map<string, number>;
  length: number;
}

export interface Hit extends IndexedChunk {
  score: number;
}

/** An index over chunks given in rank-tie order (older documents first, chunks in order). */
export class LexicalIndex {
  private readonly entries: Entry[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;

  constructor(chunks: readonly IndexedChunk[]) {
    this.entries = chunks.map((c) => {
      const tf = new Map<string, number>();
      const ts = terms(c.text);
      for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
      return { ...c, tf, length: ts.length };
    });
    this.avgLength = this.entries.reduce((s, e) => s + e.length, 0) / Math.max(1, this.entries.length);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The best `k` chunks for the query, best first; only chunks sharing a term with it. */
  search(query: string, k: number): Hit[] {
    const q = [...new Set(terms(query))];
    const n = this.entries.length;
    const hits: (Hit & { order: number })[] = [];
    this.entries.forEach((e, order) => {
      let score = 0;
      for (const t of q) {
        const f = e.tf.get(t);
        if (f === undefined) continue;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * e.length) / this.avgLength));
      }
      if (score > 0) hits.push({ documentId: e.documentId, index: e.index, text: e.text, score: Math.round(score * 1e6) / 1e6, order });
    });
    hits.sort((a, b) => b.score - a.score || a.order - b.order);
    return hits.slice(0, k).map(({ order: _, ...h }) => h);
  }
}
