// Deterministic chunking of a knowledge document's text: blocks split at blank lines (and, in
// markdown, before headings), long blocks at sentence ends and then at spaces, then greedily
// joined up to CHUNK_MAX characters. The same text always gives the same chunks, so only the
// text is stored and the chunks are recomputed (docs/decisions.md "Managed agents").
import type { SourceType } from './intake.ts';

export const CHUNK_MAX = 800;

const HEADING = /^#{1,6}\s/;
const SENTENCE_END = /(?<=[.!?。？！]|다\.)\s+/u;

/** Cuts a piece longer than `max` at the last space before the limit (hard cut without one). */
function hardSplit(text: string, max: number): string[] {
  const out: string[] = [];
  let rest = text;
  while ([...rest].length > max) {
    const head = [...rest].slice(0, max).join('');
    const space = head.lastIndexOf(' ');
    const cut = space > max / 2 ? space : head.length;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') out.push(rest);
  return out;
}

function blocksOf(text: string, sourceType: SourceType): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  const flush = () => {
    const b = current.join('\n').trim();
    if (b !== '') blocks.push(b);
    current = [];
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') flush();
    else {
      if (sourceType === 'markdown' && HEADING.test(line)) flush();
      current.push(line.trimEnd());
    }
  }
  flush();
  return blocks;
}

function pieces(block: string): string[] {
  if ([...block].length <= CHUNK_MAX) return [block];
  return block.split(SENTENCE_END).flatMap((s) => hardSplit(s.trim(), CHUNK_MAX));
}

/** The document's chunks, in order. */
export function chunkText(text: string, sourceType: SourceType): string[] {
  const chunks: string[] = [];
  let current = '';
  let length = 0;
  const heading = (p: string) => sourceType === 'markdown' && HEADING.test(p);
  for (const piece of blocksOf(text, sourceType).flatMap(pieces)) {
    const n = [...piece].length;
    // A markdown heading starts its own chunk; otherwise join while it fits.
    if (current !== '' && (heading(piece) || length + 2 + n > CHUNK_MAX)) {
      chunks.push(current);
      current = '';
      length = 0;
    }
    current = current === '' ? piece : `${current}\n\n${piece}`;
    length += (length === 0 ? 0 : 2) + n;
  }
  if (current !== '') chunks.push(current);
  return chunks;
}
