// SIP messages as the SIP server reads them: JsSIP's RFC 3261 grammar parses the text (the
// choice is recorded in docs/decisions.md, "SIP on the wire"), and this file turns its objects
// into a small typed view. Bytes are read as latin1, so every byte is one character and raw
// header values copied into a response are the bytes that came in. Two gaps of the parser are
// bridged here: `Contact: *` (which it cannot parse) and a Via line holding several hops (it
// merges them; the topmost hop is parsed alone).
import { jssip } from './jssip.ts';
import type { IncomingRequest, IncomingResponse } from 'jssip/lib/SIPMessage.js';
import type { URI } from 'jssip/lib/URI.js';
import type { NameAddrHeader } from 'jssip/lib/NameAddrHeader.js';

export interface SipUri {
  scheme: string;
  user: string | undefined;
  host: string;
  port: number | undefined;
  params: Readonly<Record<string, string | null>>;
  text: string;
}

export interface NameAddr {
  uri: SipUri;
  displayName: string | undefined;
  tag: string | undefined;
  params: Readonly<Record<string, string | null>>;
}

/** The topmost Via hop: where the request came from and its transaction id (branch). */
export interface ViaHop {
  transport: string;
  host: string;
  port: number | undefined;
  branch: string | undefined;
  /** RFC 3581: the client asks for the source port in `rport`. */
  rport: boolean;
}

export interface Contact {
  uri: SipUri;
  params: Readonly<Record<string, string | null>>;
}

interface Common {
  /** Raw Via values, in order (one per header line, as received). */
  vias: readonly string[];
  topVia: ViaHop;
  from: NameAddr;
  to: NameAddr;
  callId: string;
  cseq: { seq: number; method: string };
  body: string;
  /** The first raw value of a header (case-insensitive name; compact forms are expanded by the parser). */
  header(name: string): string | undefined;
  headers(name: string): readonly string[];
}

export interface SipRequest extends Common {
  kind: 'request';
  method: string;
  uri: SipUri;
  /** `*` (remove every binding, RFC 3261 §10.2.2) or the contacts given. */
  contacts: '*' | readonly Contact[];
}

export interface SipResponse extends Common {
  kind: 'response';
  status: number;
  reason: string;
}

export type SipMessage = SipRequest | SipResponse;

/** Why a message could not be read, in words for a Warning header. */
export type ParseResult = { ok: true; message: SipMessage } | { ok: false; problem: string };

const STAR_CONTACT = /^(contact|m)[ \t]*:[ \t]*\*[ \t]*$/im;
const STAR_STAND_IN = 'X-Sim-Contact-Star: *';
/** Refer-To (compact `r`) is read raw: the grammar knows no `tel:` URI there and keeps one value of several (RFC 3515 wants exactly one). */
const REFER_TO = /^(?:refer-to|r)[ \t]*:/gim;
const REFER_TO_STAND_IN = 'X-Sim-Refer-To:';

function uriOf(u: URI): SipUri {
  const params = (u as unknown as { _parameters?: Record<string, string | null> })._parameters ?? {};
  return { scheme: u.scheme, user: u.user ?? undefined, host: u.host, port: u.port ?? undefined, params: { ...params }, text: u.toString() };
}

function nameAddrOf(h: NameAddrHeader): NameAddr {
  const params = (h as unknown as { _parameters?: Record<string, string | null> })._parameters ?? {};
  return { uri: uriOf(h.uri), displayName: h.display_name || undefined, tag: h.getParam('tag') ?? undefined, params: { ...params } };
}

/** Where the first comma outside quotes is in a header value (-1: none): the end of its first element. */
export function firstComma(value: string): number {
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '"') quoted = !quoted;
    else if (c === '\\' && quoted) i++;
    else if (c === ',' && !quoted) return i;
  }
  return -1;
}

/** The first hop of a Via value. */
export function firstHop(value: string): string {
  const end = firstComma(value);
  return (end < 0 ? value : value.slice(0, end)).trim();
}

function topViaOf(raw: string): ViaHop | undefined {
  const hop = firstHop(raw);
  const v = jssip().Grammar.parse(hop, 'Via');
  if (v === -1 || typeof v !== 'object') return undefined;
  return { transport: String(v.transport).toUpperCase(), host: v.host, port: v.port, branch: v.branch, rport: /;\s*rport(?=\s*(?:[;=]|$))/i.test(hop) };
}

const standIn = (name: string) => (name.toLowerCase() === 'refer-to' ? REFER_TO_STAND_IN.slice(0, -1) : name);

/** What a request or response must carry to be answered or matched (RFC 3261 §8.1.1). */
function missing(m: IncomingRequest | IncomingResponse): string | undefined {
  for (const name of ['via', 'from', 'to', 'call-id', 'cseq']) if (!m.hasHeader(name)) return `missing ${name === 'call-id' ? 'Call-ID' : name === 'cseq' ? 'CSeq' : name.charAt(0).toUpperCase() + name.slice(1)} header`;
  return undefined;
}

/** Parses one whole message (framing is the transport's: UDP datagram, TCP Content-Length, WebSocket frame). */
export function parseSipMessage(text: string): ParseResult {
  const star = STAR_CONTACT.test(text);
  const starred = star ? text.replace(STAR_CONTACT, STAR_STAND_IN) : text;
  const headEnd = starred.indexOf('\r\n\r\n');
  const input = headEnd < 0 ? starred.replace(REFER_TO, REFER_TO_STAND_IN) : starred.slice(0, headEnd).replace(REFER_TO, REFER_TO_STAND_IN) + starred.slice(headEnd);
  let m: IncomingRequest | IncomingResponse | undefined;
  try {
    m = jssip().Parser.parseMessage(input, undefined);
  } catch {
    m = undefined; // the grammar's actions throw on a few inputs: the same as unparseable
  }
  if (!m) return { ok: false, problem: 'malformed start line or header' };
  const absent = missing(m);
  if (absent) return { ok: false, problem: absent };
  const vias = m.getHeaders('via');
  const topVia = topViaOf(vias[0]!);
  if (!topVia) return { ok: false, problem: 'malformed Via header' };
  const cseq = m.parseHeader<{ value: number; method: string }>('cseq');
  const common = {
    vias,
    topVia,
    from: nameAddrOf(m.from),
    to: nameAddrOf(m.to),
    callId: m.getHeader('call-id'),
    cseq: { seq: cseq.value, method: cseq.method },
    body: m.body ?? '',
    header: (name: string) => (m.hasHeader(standIn(name)) ? m.getHeader(standIn(name)) : undefined),
    headers: (name: string) => m.getHeaders(standIn(name)),
  };
  if ('status_code' in m && typeof m.status_code === 'number') {
    return { ok: true, message: { kind: 'response', status: m.status_code, reason: m.reason_phrase ?? '', ...common } };
  }
  const req = m as IncomingRequest;
  if (cseq.method !== req.method) return { ok: false, problem: `CSeq method ${cseq.method} differs from the request method ${req.method}` };
  const contacts = star ? '*' : contactsOf(req);
  return { ok: true, message: { kind: 'request', method: req.method, uri: uriOf(req.ruri), contacts, ...common } };
}

function contactsOf(m: IncomingRequest): Contact[] {
  const raw = (m as unknown as { headers: Record<string, { parsed?: NameAddrHeader }[]> }).headers.Contact ?? [];
  return raw.flatMap((h) => (h.parsed ? [{ uri: uriOf(h.parsed.uri), params: { ...((h.parsed as unknown as { _parameters?: Record<string, string | null> })._parameters ?? {}) } }] : []));
}
