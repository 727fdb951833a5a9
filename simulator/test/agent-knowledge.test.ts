// The knowledge pipeline alone: intake (JSON text, text/markdown files, text-based PDFs through
// the PDF library), its refusals naming the field, chunking and the lexical ranking.
import { describe, expect, it } from 'vitest';
import { readKnowledge, KNOWLEDGE_FILE_MAX_BYTES, KNOWLEDGE_TEXT_MAX_CHARS, type KnowledgeUpload } from '../resources/agents/knowledge/intake.ts';
import { chunkText, CHUNK_MAX } from '../resources/agents/knowledge/chunk.ts';
import { LexicalIndex, terms } from '../resources/agents/knowledge/rank.ts';
import { ApiError } from '../core/errors.ts';
import { imageOnlyPdf, textPdf } from './pdf-fixture.ts';

const file = (fileName: string, content: string | Uint8Array, title?: string): KnowledgeUpload => ({
  kind: 'file',
  fileName,
  bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content,
  ...(title === undefined ? {} : { title }),
});

async function refusal(upload: KnowledgeUpload): Promise<{ status: number; code: string; path: string }> {
  try {
    await readKnowledge(upload);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    return { status: err.status, code: err.code, path: (err.extra.errors as { path: string }[])[0]!.path };
  }
  throw new Error('accepted');
}

describe('knowledge intake', () => {
  it('reads JSON text, titling it after its first line when untitled', async () => {
    expect(await readKnowledge({ kind: 'json', text: '\n  환불 정책\n7일 이내' })).toEqual({ title: '환불 정책', sourceType: 'text', text: '\n  환불 정책\n7일 이내' });
    expect((await readKnowledge({ kind: 'json', title: ' FAQ ', text: 'x' })).title).toBe('FAQ');
  });

  it('reads text and markdown files by extension, titled after the file name', async () => {
    expect(await readKnowledge(file('notes.TXT', 'a\r\nb'))).toEqual({ title: 'notes.TXT', sourceType: 'text', text: 'a\nb' });
    expect((await readKnowledge(file('guide.markdown', '# H\nbody', 'Guide'))).sourceType).toBe('markdown');
  });

  it('extracts the text layer of a PDF, Hangul included', async () => {
    const pdf = textPdf([['환불은 결제일로부터 7일 이내', 'Refunds within 7 days'], ['둘째 쪽']]);
    const doc = await readKnowledge(file('policy.pdf', pdf));
    expect(doc.sourceType).toBe('pdf');
    expect(doc.text).toBe('환불은 결제일로부터 7일 이내\nRefunds within 7 days\n\n둘째 쪽');
  });

  it.each<[string, KnowledgeUpload, number, string, string]>([
    ['another type', file('sheet.xlsx', 'x'), 400, 'knowledge_file_type', 'file'],
    ['no extension', file('README', 'x'), 400, 'knowledge_file_type', 'file'],
    ['a .pdf that is not one', file('fake.pdf', 'hello'), 400, 'knowledge_file_type', 'file'],
    ['a broken PDF', file('broken.pdf', '%PDF-1.7\ngarbage'), 400, 'knowledge_unreadable', 'file'],
    ['a scanned PDF (no text layer)', file('scan.pdf', imageOnlyPdf()), 400, 'knowledge_unreadable', 'file'],
    ['text that is not UTF-8', file('latin.txt', new Uint8Array([0x66, 0xe9, 0x65])), 400, 'knowledge_unreadable', 'file'],
    ['an empty file', file('empty.md', '   \n'), 400, 'knowledge_unreadable', 'file'],
    ['empty JSON text', { kind: 'json', text: '  ' }, 400, 'VALIDATION', 'text'],
    ['a title too long', { kind: 'json', text: 'x', title: 'ㄱ'.repeat(201) }, 400, 'VALIDATION', 'title'],
    ['a file over 10 MB', file('big.txt', new Uint8Array(KNOWLEDGE_FILE_MAX_BYTES + 1).fill(0x61)), 413, 'knowledge_too_large', 'file'],
    ['over 200,000 characters of text', file('long.txt', '가'.repeat(KNOWLEDGE_TEXT_MAX_CHARS + 1)), 413, 'knowledge_too_large', 'file'],
  ])('refuses %s', async (_, upload, status, code, path) => {
    expect(await refusal(upload)).toEqual({ status, code, path });
  });

  it('accepts exactly 200,000 characters (counted as code points)', async () => {
    const doc = await readKnowledge(file('max.txt', '😀'.repeat(KNOWLEDGE_TEXT_MAX_CHARS)));
    expect([...doc.text].length).toBe(KNOWLEDGE_TEXT_MAX_CHARS);
  });
});

describe('knowledge chunks', () => {
  it('joins short paragraphs up to the limit and splits long ones at sentences', () => {
    const para = (n: number) => `${'word '.repeat(n).trim()}.`;
    const text = [para(10), para(10), 'x'.repeat(10) + '. ' + para(200), para(5)].join('\n\n');
    const chunks = chunkText(text, 'text');
    expect(chunks.every((c) => [...c].length <= CHUNK_MAX)).toBe(true);
    expect(chunks[0]).toContain(`${para(10)}\n\n${para(10)}`);
    expect(chunks.join(' ').replace(/\s+/g, ' ')).toBe(text.replace(/\s+/g, ' '));
    expect(chunkText(text, 'text')).toEqual(chunks); // deterministic
  });

  it('starts a new chunk at each markdown heading', () => {
    expect(chunkText('# A\nalpha\n## B\nbeta', 'markdown')).toEqual(['# A\nalpha', '## B\nbeta']);
    expect(chunkText('# A\nalpha\n## B\nbeta', 'text')).toEqual(['# A\nalpha\n## B\nbeta']);
  });

  it('hard-splits a block with no sentence end or space', () => {
    const chunks = chunkText('가'.repeat(CHUNK_MAX * 2 + 5), 'text');
    expect(chunks.map((c) => [...c].length)).toEqual([CHUNK_MAX, CHUNK_MAX, 5]);
  });
});

describe('lexical ranking', () => {
  it('gives Hangul words their bigrams so particles do not hide a word', () => {
    expect(terms('환불은 OK')).toEqual(['환불은', '환불', '불은', 'ok']);
  });

  const index = new LexicalIndex([
    { documentId: 'd1', index: 0, text: '배송은 보통 2일 걸립니다.' },
    { documentId: 'd1', index: 1, text: '환불은 결제일로부터 7일 이내에 요청할 수 있습니다.' },
    { documentId: 'd2', index: 0, text: '환불 환불 환불: 영수증이 필요합니다.' },
    { documentId: 'd2', index: 1, text: 'Opening hours are 9 to 6.' },
  ]);

  it('ranks by BM25, best first, within k', () => {
    const hits = index.search('환불 받고 싶어요', 5);
    expect(hits.map((h) => `${h.documentId}:${h.index}`)).toEqual(['d2:0', 'd1:1']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(index.search('환불', 1)).toHaveLength(1);
    expect(index.search('opening HOURS', 3)[0]!.documentId).toBe('d2');
  });

  it('finds nothing for a query sharing no term', () => {
    expect(index.search('날씨', 5)).toEqual([]);
  });

  it('breaks ties by document order, then chunk order', () => {
    const tied = new LexicalIndex([
      { documentId: 'old', index: 1, text: 'same text' },
      { documentId: 'new', index: 0, text: 'same text' },
    ]);
    expect(tied.search('same', 2).map((h) => h.documentId)).toEqual(['old', 'new']);
  });
});
