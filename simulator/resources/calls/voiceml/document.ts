// A VoiceML document (docs/decisions.md "VoiceML"): the customer's answer, XML with a <Response> root holding verbs.
// Parsed with fast-xml-parser (docs/decisions.md "VoiceML") under hard limits, because the text
// comes from a server we do not control: a size cap, a nesting cap, no DOCTYPE at all (so no
// entity declarations and no external references can exist), only the five predefined entities
// and numeric character references decoded, and nothing ever fetched while parsing. Pure.
import { createRequire } from 'node:module';
import type { XMLParser as Parser, XMLValidator as Validator } from 'fast-xml-parser';
import { Type, type Static } from '@sinclair/typebox';

/** Characters of a document we read; the fetcher reads no more, so a longer one is "too large". */
export const MAX_DOCUMENT_CHARS = 65_536;
/** Elements nested inside each other (Response > Gather > Say is 3). */
export const MAX_DEPTH = 8;
/** Verbs in one document. */
export const MAX_VERBS = 100;

const NestedSchema = Type.Object(
  { name: Type.String(), attrs: Type.Record(Type.String(), Type.String()), text: Type.String() },
  { additionalProperties: false },
);
export const VerbSchema = Type.Object(
  {
    name: Type.String(), // the element name, as written (verbs are case-sensitive, like the XML)
    attrs: Type.Record(Type.String(), Type.String()),
    text: Type.String(), // the text inside, trimmed, entities decoded
    children: Type.Array(NestedSchema), // Gather's Say/Play/Pause, Dial's Number/Sip, Connect's Stream
  },
  { additionalProperties: false },
);
export type Verb = Static<typeof VerbSchema>;
export type Nested = Static<typeof NestedSchema>;

export type ParsedDocument = { ok: true; verbs: Verb[] } | { ok: false; reason: string };

/**
 * The parser, required on the first document rather than imported: evaluating fast-xml-parser
 * and its helpers (about 110 KB) is start-up CPU a simulator that never fetches a document need
 * not pay (docs/decisions.md, start-up).
 */
let loaded: { parser: Parser; validator: typeof Validator } | undefined;

function xml(): { parser: Parser; validator: typeof Validator } {
  if (loaded) return loaded;
  const fxp = createRequire(import.meta.url)('fast-xml-parser') as { XMLParser: typeof Parser; XMLValidator: typeof Validator };
  return (loaded = { parser: newParser(fxp.XMLParser), validator: fxp.XMLValidator });
}

const newParser = (XMLParser: typeof Parser) => new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  processEntities: false, // we decode the predefined ones ourselves, after the DOCTYPE refusal
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: MAX_DEPTH,
});

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The five predefined entities and numeric references; any other `&name;` is left as written. */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-z]{2,4});/g, (all, ref: string) => {
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : all;
    }
    return PREDEFINED[ref] ?? all;
  });
}

type RawNode = Record<string, unknown> & { ':@'?: Record<string, unknown> };

function elementName(n: RawNode): string | undefined {
  return Object.keys(n).find((k) => k !== ':@' && k !== '#text');
}

/** Own properties only (fromEntries defines them), so an attribute named __proto__ is just a name. */
function attrsOf(n: RawNode): Record<string, string> {
  return Object.fromEntries(Object.entries(n[':@'] ?? {}).map(([k, v]) => [k, decodeEntities(String(v))]));
}

function textOf(children: RawNode[]): string {
  return decodeEntities(children.filter((c) => '#text' in c).map((c) => String(c['#text'])).join(' ')).trim();
}

/** Parses a document; every refusal carries the reason the call's trace shows. */
export function parseDocument(text: string): ParsedDocument {
  if (text.length >= MAX_DOCUMENT_CHARS) return { ok: false, reason: `document too large (at least ${MAX_DOCUMENT_CHARS} characters)` };
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) return { ok: false, reason: 'document has a DOCTYPE or entity declaration (refused: no DTDs, entities or external references)' };
  if (text.trim() === '') return { ok: false, reason: 'document is empty' };
  let raw: RawNode[];
  try {
    const { parser, validator } = xml();
    const valid = validator.validate(text);
    if (valid !== true) return { ok: false, reason: `invalid XML: ${valid.err.msg} (line ${valid.err.line})` };
    raw = parser.parse(text) as RawNode[];
  } catch (e) {
    return { ok: false, reason: `invalid XML: ${(e as Error).message}` };
  }
  const roots = raw.filter((n) => elementName(n) !== undefined);
  if (roots.length !== 1 || elementName(roots[0]!) !== 'Response') return { ok: false, reason: 'the root element must be <Response>' };
  const body = roots[0]!.Response as RawNode[];
  const verbs: Verb[] = [];
  for (const node of body) {
    const name = elementName(node);
    if (name === undefined) {
      if (String(node['#text'] ?? '').trim() !== '') return { ok: false, reason: '<Response> holds text outside any verb' };
      continue;
    }
    const inner = (node[name] as RawNode[]) ?? [];
    const children: Nested[] = [];
    for (const c of inner) {
      const cn = elementName(c);
      if (cn === undefined) continue;
      const grand = (c[cn] as RawNode[]) ?? [];
      if (grand.some((g) => elementName(g) !== undefined)) return { ok: false, reason: `<${cn}> inside <${name}> may hold only text` };
      children.push({ name: cn, attrs: attrsOf(c), text: textOf(grand) });
    }
    verbs.push({ name, attrs: attrsOf(node), text: textOf(inner), children });
    if (verbs.length > MAX_VERBS) return { ok: false, reason: `more than ${MAX_VERBS} verbs in one document` };
  }
  return { ok: true, verbs };
}
