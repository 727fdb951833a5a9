// What createAgentKnowledgeDocument accepts (public API document, guides "Managed agents"):
// JSON `{ title?, text }` or one multipart file (.txt .text .md .markdown, or a text-based
// .pdf) with an optional title; at most 10 MB per file and 200,000 extracted characters.
// Returns the document's title, source type and text, or a refusal naming the field; nothing
// here stores anything.
import { ApiError, defineError } from '../../../core/errors.ts';
import { pdfText } from './pdf.ts';

export const KNOWLEDGE_FILE_MAX_BYTES = 10 * 1024 * 1024;
export const KNOWLEDGE_TEXT_MAX_CHARS = 200_000;
export const KNOWLEDGE_TITLE_MAX = 200;

export const SOURCE_TYPES = ['text', 'markdown', 'pdf'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

const EXTENSIONS: Record<string, SourceType> = { txt: 'text', text: 'text', md: 'markdown', markdown: 'markdown', pdf: 'pdf' };

export const knowledgeErrors = {
  FILE_TYPE: defineError({
    code: 'knowledge_file_type', status: 400, origin: 'simulator',
    description: 'The knowledge file is not .txt, .text, .md, .markdown or .pdf (judged by its name; a .pdf must also start like one).',
  }),
  UNREADABLE: defineError({
    code: 'knowledge_unreadable', status: 400, origin: 'simulator',
    description: 'The knowledge file has no text to index: a text file that is not UTF-8, a PDF that cannot be read or is encrypted, or one without a text layer (no OCR).',
  }),
  TOO_LARGE: defineError({
    code: 'knowledge_too_large', status: 413, origin: 'reference',
    description: `The knowledge file is over ${KNOWLEDGE_FILE_MAX_BYTES} bytes, or its extracted text over ${KNOWLEDGE_TEXT_MAX_CHARS} characters (reference: 413).`,
  }),
};

export interface KnowledgeSource {
  title: string;
  sourceType: SourceType;
  text: string;
}

export type KnowledgeUpload =
  | { kind: 'json'; title?: string; text: string }
  | { kind: 'file'; title?: string; fileName: string; bytes: Uint8Array };

const fieldError = (path: string, message: string) => ({ errors: [{ path, message }] });

/** Characters as people count them (code points), the unit of the 200,000 limit. */
export function charCount(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A JSON document without a title is named after its first line. */
export function titleOf(text: string): string {
  const first = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? 'Untitled';
  return [...first].slice(0, 80).join('');
}

function checkTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const t = title.trim();
  if (t === '') return undefined;
  if (charCount(t) > KNOWLEDGE_TITLE_MAX) throw ApiError.validation(`title is longer than ${KNOWLEDGE_TITLE_MAX} characters`, [{ path: 'title', message: `at most ${KNOWLEDGE_TITLE_MAX} characters` }]);
  return t;
}

export function sourceTypeOf(fileName: string): SourceType | undefined {
  const ext = /\.([A-Za-z]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return ext === undefined ? undefined : EXTENSIONS[ext];
}

/** Reads the upload: title, source type and text; refusals name `title`, `text` or `file`. */
export async function readKnowledge(upload: KnowledgeUpload): Promise<KnowledgeSource> {
  const title = checkTitle(upload.title);
  if (upload.kind === 'json') {
    if (upload.text.trim() === '') throw ApiError.validation('text is empty', [{ path: 'text', message: 'must hold some text' }]);
    return { title: title ?? titleOf(upload.text), sourceType: 'text', text: upload.text };
  }
  const sourceType = sourceTypeOf(upload.fileName);
  if (sourceType === undefined) {
    throw knowledgeErrors.FILE_TYPE(`file "${upload.fileName}" is not .txt, .text, .md, .markdown or .pdf`, fieldError('file', 'unsupported file type'));
  }
  if (upload.bytes.length > KNOWLEDGE_FILE_MAX_BYTES) {
    throw knowledgeErrors.TOO_LARGE(`file is ${upload.bytes.length} bytes; at most ${KNOWLEDGE_FILE_MAX_BYTES}`, fieldError('file', 'too large'));
  }
  const text = sourceType === 'pdf' ? await fromPdf(upload.bytes) : fromText(upload.bytes);
  if (text.trim() === '') {
    const why = sourceType === 'pdf' ? 'the PDF has no text layer (scanned pages are not read: no OCR)' : 'the file is empty';
    throw knowledgeErrors.UNREADABLE(`file has no text: ${why}`, fieldError('file', 'no text'));
  }
  const chars = charCount(text);
  if (chars > KNOWLEDGE_TEXT_MAX_CHARS) {
    throw knowledgeErrors.TOO_LARGE(`file holds ${chars} characters of text; at most ${KNOWLEDGE_TEXT_MAX_CHARS}`, fieldError('file', 'too much text'));
  }
  return { title: title ?? [...upload.fileName].slice(0, KNOWLEDGE_TITLE_MAX).join(''), sourceType, text };
}

function fromText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes).replace(/\r\n?/g, '\n');
  } catch {
    throw knowledgeErrors.UNREADABLE('file is not UTF-8 text', fieldError('file', 'not UTF-8'));
  }
}

async function fromPdf(bytes: Uint8Array): Promise<string> {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw knowledgeErrors.FILE_TYPE('file is named .pdf but is not a PDF', fieldError('file', 'not a PDF'));
  const r = await pdfText(bytes);
  if (!r.ok) throw knowledgeErrors.UNREADABLE(`file: ${r.reason}`, fieldError('file', 'unreadable PDF'));
  return r.text;
}
