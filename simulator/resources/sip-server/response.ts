// Responses the SIP server writes (RFC 3261 §8.2.6): the request's Via values in order, the
// topmost one marked with `received` and `rport` (RFC 3261 §18.2.1, RFC 3581), From, To (with
// the server's tag on a final or provisional answer above 100), Call-ID and CSeq copied, then the
// answer's own headers and a Content-Length. A malformed request whose Via, From, To, Call-ID and
// CSeq can still be found gets its 400 here too, copied as they came.
import { jssip } from './jssip.ts';
import type { Flow } from './flow.ts';
import { firstComma, firstHop, type SipRequest } from './message.ts';

export const SERVER_NAME = 'platform-simulator';

/** A Warning header value (RFC 3261 §20.43, code 399: miscellaneous) saying why in words. */
export function warning(text: string): string {
  return `399 ${SERVER_NAME} "${text.replace(/["\\\r\n]/g, '')}"`;
}

/** A response to write: status, reason phrase, extra headers in order, an optional body. */
export interface Answer {
  status: number;
  reason: string;
  headers?: readonly (readonly [string, string])[];
  body?: { type: string; text: string };
  /** The tag to put in To when the request had none (the dialog's, or the server's for this transaction). */
  toTag?: string;
}

/** The topmost Via hop marked with where it really came from. */
function markVia(value: string, flow: Flow): string {
  const comma = firstComma(value);
  const hop = comma < 0 ? value : value.slice(0, comma);
  const rest = comma < 0 ? '' : value.slice(comma);
  const rport = /;\s*rport(?=\s*(?:;|$))/i;
  let marked = hop.replace(/;\s*received=[^;]*/i, '');
  marked = rport.test(marked) ? marked.replace(rport, `;rport=${flow.port}`) : marked;
  return `${marked};received=${flow.address}${rest}`;
}

interface Copied {
  vias: readonly string[];
  from: string;
  to: string;
  toHasTag: boolean;
  callId: string;
  cseq: string;
}

function write(c: Copied, flow: Flow, a: Answer): string {
  const lines = [`SIP/2.0 ${a.status} ${a.reason}`];
  c.vias.forEach((v, i) => lines.push(`Via: ${i === 0 ? markVia(v, flow) : v}`));
  lines.push(`From: ${c.from}`);
  lines.push(`To: ${c.to}${!c.toHasTag && a.status > 100 && a.toTag ? `;tag=${a.toTag}` : ''}`);
  lines.push(`Call-ID: ${c.callId}`, `CSeq: ${c.cseq}`);
  for (const [k, v] of a.headers ?? []) lines.push(`${k}: ${v}`);
  lines.push(`Server: ${SERVER_NAME}`);
  const body = a.body?.text ?? '';
  if (a.body) lines.push(`Content-Type: ${a.body.type}`);
  lines.push(`Content-Length: ${Buffer.byteLength(body, 'latin1')}`);
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The text of a response to a parsed request. */
export function responseTo(req: SipRequest, flow: Flow, a: Answer): string {
  return write(
    { vias: req.vias, from: req.header('from')!, to: req.header('to')!, toHasTag: req.to.tag !== undefined, callId: req.callId, cseq: req.header('cseq')! },
    flow,
    a,
  );
}

const NAMES: Record<string, keyof Omit<Copied, 'toHasTag' | 'vias'> | 'vias'> = {
  via: 'vias', v: 'vias', from: 'from', f: 'from', to: 'to', t: 'to', 'call-id': 'callId', i: 'callId', cseq: 'cseq',
};

/**
 * The 400 for a request the parser refused, when its start line is a request line and the five
 * headers a response copies are present with a readable topmost Via; otherwise undefined, and
 * the message is dropped unanswered (RFC 3261 §18.3: a malformed message is discarded).
 */
export function badRequestForUnparsed(text: string, flow: Flow, problem: string, toTag: string): string | undefined {
  const head = text.split('\r\n\r\n', 1)[0]!;
  const lines = head.split('\r\n');
  const start = jssip().Grammar.parse(lines[0] ?? '', 'Request_Response');
  if (start === -1 || typeof start !== 'object' || start.status_code || start.method === 'ACK') return undefined;
  const found: Partial<Copied> & { vias: string[] } = { vias: [] };
  for (let i = 1; i < lines.length; i++) {
    let line = lines[i]!;
    while (i + 1 < lines.length && /^[ \t]/.test(lines[i + 1]!)) line += ` ${lines[++i]!.trim()}`;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const field = NAMES[line.slice(0, colon).trim().toLowerCase()];
    const value = line.slice(colon + 1).trim();
    if (field === 'vias') found.vias.push(value);
    else if (field !== undefined && found[field] === undefined) found[field] = value;
  }
  const { from, to, callId, cseq } = found;
  if (found.vias.length === 0 || from === undefined || to === undefined || callId === undefined || cseq === undefined) return undefined;
  if (jssip().Grammar.parse(firstHop(found.vias[0]!), 'Via') === -1) return undefined;
  return write({ vias: found.vias, from, to, toHasTag: /;\s*tag=/i.test(to), callId, cseq }, flow, { status: 400, reason: 'Bad Request', headers: [['Warning', warning(problem)]], toTag });
}

/** A Reason header (RFC 3326) for a BYE the server sends because the media cannot flow: SIP cause 488 and why. */
export const reasonHeader = (why: string): string => `SIP;cause=488;text="${why.replace(/["\\]/g, "'")}"`;
