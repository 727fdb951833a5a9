// Requests the server sends as a user agent client (RFC 3261 §8.1.1, §12.2.1.1): an INVITE that
// dials a SIP URI, its ACK, CANCEL and BYE, a NOTIFY about a REFER. One writer so every request
// carries the same mandatory headers (Via with the listener's address and rport, Max-Forwards,
// From with the server's tag, To, Call-ID, CSeq, Content-Length) and the server's User-Agent.
import { createHash } from '../../core/node-crypto.ts';
import { SERVER_NAME } from './response.ts';
import type { SipListening } from './flow.ts';

export interface UacRequest {
  method: string;
  /** Request-URI: the remote target. */
  target: string;
  /** From (the server's side, with its tag) and To (the remote side, with its tag once known), whole header values. */
  from: string;
  to: string;
  callId: string;
  cseq: number;
  branch: string;
  transport: 'UDP' | 'TCP' | 'WS';
  /** The port the Via names (the listener's port of that transport). */
  viaPort: number | undefined;
  headers?: readonly [string, string][];
  body?: { type: string; text: string };
}

/** A branch with RFC 3261's magic cookie, derived from what makes the transaction unique. */
export const branchOf = (...parts: (string | number)[]) => `z9hG4bK${createHash('sha256').update(parts.join('|')).digest('hex').slice(0, 16)}`;

export function uacRequest(r: UacRequest, l: SipListening | null): string {
  const body = r.body?.text ?? '';
  const lines = [
    `${r.method} ${r.target} SIP/2.0`,
    `Via: SIP/2.0/${r.transport} ${l?.host ?? '127.0.0.1'}:${r.viaPort ?? 5060};branch=${r.branch};rport`,
    'Max-Forwards: 70',
    `From: ${r.from}`,
    `To: ${r.to}`,
    `Call-ID: ${r.callId}`,
    `CSeq: ${r.cseq} ${r.method}`,
    ...(r.headers ?? []).map(([k, v]) => `${k}: ${v}`),
    `User-Agent: ${SERVER_NAME}`,
    ...(r.body ? [`Content-Type: ${r.body.type}`] : []),
    `Content-Length: ${Buffer.byteLength(body, 'latin1')}`,
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
