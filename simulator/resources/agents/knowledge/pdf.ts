// Text of a text-based PDF through a maintained PDF library (unpdf, a packaging of Mozilla's
// pdf.js; docs/decisions.md "Dependencies"), never a hand-written parser. No OCR: a scanned PDF
// has no text layer and yields the empty string. Loaded on the first PDF, since it is large and
// most runs never read one.

type Unpdf = typeof import('unpdf');
let loading: Promise<Unpdf> | undefined;
const load = () => (loading ??= import('unpdf'));

export type PdfText = { ok: true; text: string; pages: number } | { ok: false; reason: string };

/** The PDF's text, pages separated by a blank line; a refusal says why the file is unreadable. */
export async function pdfText(bytes: Uint8Array): Promise<PdfText> {
  const { getDocumentProxy, extractText } = await load();
  let doc: Awaited<ReturnType<Unpdf['getDocumentProxy']>> | undefined;
  try {
    // A copy: pdf.js may transfer (detach) the buffer it is given.
    doc = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
    const { text, totalPages } = await extractText(doc, { mergePages: false });
    const pages = (text as string[]).map((p) => p.replace(/[ \t]+\n/g, '\n').trim());
    return { ok: true, text: pages.filter((p) => p !== '').join('\n\n'), pages: totalPages };
  } catch (e) {
    const name = (e as { name?: string }).name ?? 'Error';
    if (name === 'PasswordException') return { ok: false, reason: 'the PDF is encrypted with a password' };
    return { ok: false, reason: `the PDF cannot be read (${name}: ${(e as Error).message ?? 'unknown'})` };
  } finally {
    await doc?.destroy().catch(() => undefined);
  }
}
