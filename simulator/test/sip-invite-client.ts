// INVITE dialogs for the SIP call tests, on top of the test client (sip-client.ts, written apart
// from the server): an offer, an INVITE answered through the proxy challenge, ACK, BYE, CANCEL,
// and reading the SDP of an answer.
import { expect } from 'vitest';
import { challengeParams, digestAnswer, type SipReply, type SipTestClient } from './sip-client.ts';

export const REALM = 'ac1a2b3c4d.sip.claw-ops.com';

/** A PCMU offer (with telephone-event) from the client's loopback address. */
export function offer(port = 40000, formats = '0 101', extra: string[] = ['a=rtpmap:101 telephone-event/8000']): string {
  return ['v=0', 'o=test 1 1 IN IP4 127.0.0.1', 's=test', 'c=IN IP4 127.0.0.1', 't=0 0', `m=audio ${port} RTP/AVP ${formats}`, 'a=rtpmap:0 PCMU/8000', ...extra, ''].join('\r\n');
}

let dialogs = 0;

export interface InviteOptions {
  to: string;
  from: string;
  username?: string;
  password?: string;
  body?: string;
  headers?: [string, string][];
}

export interface OpenInvite {
  callId: string;
  fromHeader: string;
  toUri: string;
  branch: string;
  cseq: number;
  /** The server's first answer to the authenticated INVITE (100 when the call was placed). */
  first: SipReply;
}

/** INVITE; with a username it answers the 407 (ACKing it) and sends the INVITE again with credentials. */
export async function invite(c: SipTestClient, o: InviteOptions): Promise<OpenInvite> {
  const n = ++dialogs;
  const callId = `call-${n}@test`;
  const toUri = `sip:${o.to}@${REALM}`;
  const fromHeader = `<sip:${o.from}@${REALM}>;tag=f${n}`;
  const body = o.body ?? offer();
  const headers: [string, string][] = [['Contact', `<sip:${o.from}@127.0.0.1:${c.localPort}>`], ['Content-Type', 'application/sdp'], ...(o.headers ?? [])];
  const base = { method: 'INVITE', uri: toUri, from: fromHeader, to: `<${toUri}>`, callId, body };
  let branch = `z9hG4bK-inv-${n}-1`;
  let cseq = 1;
  let first = await c.request({ ...base, cseq, branch, headers });
  if (o.username !== undefined && first.status === 407) {
    c.sendRaw(c.build({ method: 'ACK', uri: toUri, from: fromHeader, to: first.get('to')!, callId, cseq, branch }));
    const challenge = first.all('proxy-authenticate').find((v) => challengeParams(v).algorithm === 'SHA-256')!;
    const auth = digestAnswer({ challenge, username: o.username, password: o.password!, method: 'INVITE', uri: toUri });
    branch = `z9hG4bK-inv-${n}-2`;
    cseq = 2;
    first = await c.request({ ...base, cseq, branch, headers: [...headers, ['Proxy-Authorization', auth]] });
  }
  return { callId, fromHeader, toUri, branch, cseq, first };
}

/** The To header of a reply (with the server's tag). */
export const toOf = (r: SipReply) => r.get('to')!;

// A Via branch is an RFC 3261 token: the Call-ID's '@' (and anything else outside the token set)
// would make the server drop the ACK as malformed, so it is replaced.
const tokenOf = (text: string) => text.replace(/[^A-Za-z0-9.!%*_+`'~-]/g, '-');

export function ack(c: SipTestClient, d: OpenInvite, to: string, branch = `z9hG4bK-ack-${tokenOf(d.callId)}`): void {
  c.sendRaw(c.build({ method: 'ACK', uri: d.toUri, from: d.fromHeader, to, callId: d.callId, cseq: d.cseq, branch }));
}

export function bye(c: SipTestClient, d: OpenInvite, to: string): Promise<SipReply> {
  return c.request({ method: 'BYE', uri: d.toUri, from: d.fromHeader, to, callId: d.callId, cseq: d.cseq + 1 });
}

export function cancel(c: SipTestClient, d: OpenInvite): Promise<SipReply> {
  return c.request({ method: 'CANCEL', uri: d.toUri, from: d.fromHeader, to: `<${d.toUri}>`, callId: d.callId, cseq: d.cseq, branch: d.branch });
}

/** The audio port and formats of an SDP answer. */
export function answerMedia(r: SipReply): { port: number; formats: string; version: string } {
  expect(r.get('content-type')).toBe('application/sdp');
  const body = r.text.split('\r\n\r\n')[1]!;
  const m = /m=audio (\d+) RTP\/AVP ([\d ]+)/.exec(body)!;
  return { port: Number(m[1]), formats: m[2]!.trim(), version: /^o=\S+ \S+ (\d+)/m.exec(body)![1]! };
}
