// What a number's dictionary does to what a managed agent hears: every enabled term that has a
// canonical form is replaced by it, exact (case-sensitive) matches only, longest term first and
// in one pass (a replacement is never rewritten again). A term whose edge is a Latin letter or
// digit matches only where the text has no Latin letter or digit beside it, so "cat" leaves
// "category" alone; Hangul terms match inside words, since particles attach to them.

export interface Replacement {
  term: string;
  canonical: string;
}

const ASCII_WORD = /[A-Za-z0-9]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function pattern(term: string): string {
  const chars = [...term];
  const before = ASCII_WORD.test(chars[0]!) ? '(?<![A-Za-z0-9])' : '';
  const after = ASCII_WORD.test(chars[chars.length - 1]!) ? '(?![A-Za-z0-9])' : '';
  return `${before}${escape(term)}${after}`;
}

/** A rewriter for these replacements (compiled once; apply it to each utterance). */
export function rewriter(replacements: readonly Replacement[]): (text: string) => string {
  const usable = replacements.filter((r) => r.term !== '' && r.canonical !== '');
  if (usable.length === 0) return (text) => text;
  // Longest first so that a term containing another wins; equal lengths keep their order.
  const sorted = usable.map((r, i) => ({ ...r, i })).sort((a, b) => [...b.term].length - [...a.term].length || a.i - b.i);
  const byTerm = new Map<string, string>();
  for (const r of sorted) if (!byTerm.has(r.term)) byTerm.set(r.term, r.canonical);
  const re = new RegExp([...byTerm.keys()].map(pattern).join('|'), 'gu');
  return (text) => text.replace(re, (m) => byTerm.get(m) ?? m);
}
