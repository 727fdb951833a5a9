// Who places a call on the wire, and as which number (spec Authentication 6). An INVITE without
// Proxy-Authorization from an address that a trunk credential's IP ACL admits is that trunk's
// (the oldest such credential that may present the caller id); any other INVITE answers the
// proxy digest challenge of the realm its From (else its Request-URI) names, as a REGISTER does.
// The caller id is the number in P-Asserted-Identity, P-Preferred-Identity or From (in that
// order); a From that names a username instead presents the credential's first allowed number.
// It must be one the credential may present (allowedNumbers, or with none any number of its
// account), else 403.
import { tryNormalizePhone } from '../../core/phone.ts';
import { authenticate, realmFor, type AuthParts } from './authenticate.ts';
import type { Flow, SipListening } from './flow.ts';
import type { SipRequest } from './message.ts';
import type { SipLoginView, SipLogins } from './ports.ts';
import { warning, type Answer } from './response.ts';

export interface WhoParts extends AuthParts {
  listening(): SipListening | null;
}

const forbid = (why: string): Answer => ({ status: 403, reason: 'Forbidden', headers: [['Warning', warning(why)]] });

/** The credentials a request speaks for: the one that answered the challenge, or the trunks of its address. */
export function callerOf(p: WhoParts, req: SipRequest, flow: Flow): { ok: true; logins: SipLoginView[] } | { ok: false; answer: Answer } {
  if (req.headers('proxy-authorization').length === 0) {
    const trunks = p.logins.trunksAt(flow.address);
    if (trunks.length > 0) return { ok: true, logins: trunks };
  }
  const realm = realmFor(p.logins, req.from.uri) ?? realmFor(p.logins, req.uri);
  if (realm === undefined) return { ok: false, answer: forbid(`${flow.address} is no trunk address and ${req.from.uri.text} names no account realm; call from sip:<username>@<accountId in lowercase>.sip.claw-ops.com`) };
  const auth = authenticate(p, req, flow, realm, 'proxy');
  return auth.ok ? { ok: true, logins: [auth.login] } : auth;
}

/** The user part of a SIP or tel URI in a header value (name-addr or addr-spec). */
function userOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const m = /(?:sips?:([^@;>]+)@)|(?:tel:([^;>]+))/i.exec(value);
  return m?.[1] ?? m?.[2];
}

const looksLikeNumber = (s: string | undefined): s is string => s !== undefined && /^\+?[\d\-().]+$/.test(s);

/** The caller id the request presents, and the credential it is placed as. */
export function callerNumber(logins: SipLogins, candidates: readonly SipLoginView[], req: SipRequest): { ok: true; number: string; login: SipLoginView } | { ok: false; answer: Answer } {
  const given = [userOf(req.header('p-asserted-identity')), userOf(req.header('p-preferred-identity')), req.from.uri.user].find(looksLikeNumber);
  for (const login of candidates) {
    const raw = given ?? login.allowedNumbers[0];
    if (raw === undefined) continue;
    const n = tryNormalizePhone(raw, 'the caller id');
    if (!n.ok) return { ok: false, answer: forbid(`the caller id is not a domestic number: ${n.message}`) };
    if (logins.mayPresent(login, n.number)) return { ok: true, number: n.number, login };
  }
  if (given === undefined) return { ok: false, answer: forbid('no caller id: put a number of the account in From (or P-Asserted-Identity), or give the credential allowedNumbers') };
  return { ok: false, answer: forbid(`the credential may not present ${given} as its caller id (allowedNumbers)`) };
}
