// Small text-based PDFs for tests, made on the fly: one Type0 font with Identity-H encoding and
// a ToUnicode map, so any text (Hangul included) has a real text layer a PDF reader extracts,
// without embedding glyphs. `imageOnly` gives a page with no text at all (a "scanned" PDF).

/** A PDF whose pages hold these lines of text. */
export function textPdf(pages: readonly (readonly string[])[]): Buffer {
  const chars = [...new Set(pages.flatMap((p) => p.flatMap((l) => [...l])))];
  const cid = new Map(chars.map((c, i) => [c, i + 1]));
  const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();
  const utf16 = (c: string) => {
    const cp = c.codePointAt(0)!;
    if (cp < 0x10000) return hex4(cp);
    const v = cp - 0x10000;
    return hex4(0xd800 + (v >> 10)) + hex4(0xdc00 + (v & 0x3ff));
  };
  const cmap = [
    '/CIDInit /ProcSet findresource begin', '12 dict begin', 'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def', '/CMapName /Adobe-Identity-UCS def', '/CMapType 2 def',
    '1 begincodespacerange', '<0000> <FFFF>', 'endcodespacerange',
    `${chars.length} beginbfchar`, ...chars.map((c) => `<${hex4(cid.get(c)!)}> <${utf16(c)}>`), 'endbfchar',
    'endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end',
  ].join('\n');
  const objs: string[] = [];
  const add = (s: string) => objs.push(s);
  add(''); // 1: catalog, filled below
  add(''); // 2: pages, filled below
  const stream = (body: string) => `<< /Length ${Buffer.byteLength(body)} >>\nstream\n${body}\nendstream`;
  const cmapId = add(stream(cmap));
  const descId = add('<< /Type /FontDescriptor /FontName /Sim /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 1000 /Descent 0 /CapHeight 1000 /StemV 80 >>');
  const cidFont = add(`<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Sim /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor ${descId} 0 R /DW 1000 >>`);
  const font = add(`<< /Type /Font /Subtype /Type0 /BaseFont /Sim /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${cmapId} 0 R >>`);
  const kids: number[] = [];
  for (const lines of pages) {
    const content = lines.map((l, i) => `BT /F1 12 Tf 50 ${750 - i * 20} Td <${[...l].map((c) => hex4(cid.get(c)!)).join('')}> Tj ET`).join('\n');
    const cs = add(stream(content));
    kids.push(add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${cs} 0 R >>`));
  }
  objs[0] = '<< /Type /Catalog /Pages 2 0 R >>';
  objs[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'utf8');
}

/** A one-page PDF without a text layer, as a scan would be. */
export function imageOnlyPdf(): Buffer {
  return textPdf([[]]);
}
