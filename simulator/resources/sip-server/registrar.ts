// REGISTER (RFC 3261 §10.3), in the registrar's order: option tags the server does not support
// (420), the address-of-record's realm (404 when it names none), the digest exchange
// (authenticate.ts), the right to bind this address-of-record (a login binds only its own), the
// contacts (`*` with Expires 0 removes them all; each expiry from its `expires` parameter, the
// Expires header or 3600, at least 60 (423) and at most 3600; a Call-ID seen before with a CSeq
// not higher is refused), then the change, lastUsedAt, and 200 listing every binding with the
// seconds it has left. Every check runs before the first write.
import { authenticate, realmFor, type AuthParts } from './authenticate.ts';
import { bindingId, type Bindings } from './bindings.ts';
import type { Flow } from './flow.ts';
import type { Contact, SipRequest } from './message.ts';
import { warning, type Answer } from './response.ts';
import { DEFAULT_EXPIRES, MAX_CONTACTS_PER_LOGIN, MAX_EXPIRES, MIN_EXPIRES } from './schema.ts';

export interface RegistrarParts extends AuthParts {
  bindings: Bindings;
}

const bad = (why: string): Answer => ({ status: 400, reason: 'Bad Request', headers: [['Warning', warning(why)]] });

/** The expiry a contact asks for: its parameter, else the Expires header, else the default; undefined when malformed. */
function askedExpiry(contact: Contact | undefined, header: string | undefined): number | undefined {
  const text = contact?.params.expires ?? header ?? String(DEFAULT_EXPIRES);
  if (text === null || !/^\d{1,10}$/.test(text.trim())) return undefined;
  return Number(text.trim());
}

export function register(p: RegistrarParts, req: SipRequest, flow: Flow): Answer {
  const required = req.header('require');
  if (required !== undefined) {
    return { status: 420, reason: 'Bad Extension', headers: [['Unsupported', required]] };
  }
  const realm = realmFor(p.logins, req.to.uri);
  if (realm === undefined) {
    return { status: 404, reason: 'Not Found', headers: [['Warning', warning(`no account realm for ${req.to.uri.text}; register as sip:<username>@<accountId in lowercase>.sip.claw-ops.com`)]] };
  }
  const auth = authenticate(p, req, flow, realm, 'www');
  if (!auth.ok) return auth.answer;
  const login = auth.login;
  if (req.to.uri.user !== login.username) {
    return { status: 403, reason: 'Forbidden', headers: [['Warning', warning(`${login.username} may register only sip:${login.username}@${realm}`)]] };
  }
  const mine = p.bindings.of(login.credentialId, login.username);
  const aor = `sip:${login.username}@${realm}`;

  // What the request asks, each contact checked before anything changes.
  const changes: { contact: string; expires: number }[] = [];
  if (req.contacts === '*') {
    if (req.header('expires')?.trim() !== '0') return bad('Contact: * needs Expires: 0');
    for (const b of mine) changes.push({ contact: b.contact, expires: 0 });
  } else {
    for (const c of req.contacts) {
      const asked = askedExpiry(c, req.header('expires'));
      if (asked === undefined) return bad(`the expiry of ${c.uri.text} is not a number of seconds`);
      if (asked > 0 && asked < MIN_EXPIRES) {
        return { status: 423, reason: 'Interval Too Brief', headers: [['Min-Expires', String(MIN_EXPIRES)]] };
      }
      changes.push({ contact: c.uri.text, expires: Math.min(asked, MAX_EXPIRES) });
    }
  }
  for (const ch of changes) {
    const existing = p.bindings.rows.get(bindingId(login.credentialId, ch.contact));
    if (existing && existing.callId === req.callId && existing.cseq >= req.cseq.seq) {
      return bad(`CSeq ${req.cseq.seq} is not higher than ${existing.cseq}, the binding's last`);
    }
  }
  const kept = new Set(mine.map((b) => b.contact));
  for (const ch of changes) (ch.expires === 0 ? kept.delete(ch.contact) : kept.add(ch.contact));
  if (kept.size > MAX_CONTACTS_PER_LOGIN) {
    return { status: 403, reason: 'Forbidden', headers: [['Warning', warning(`at most ${MAX_CONTACTS_PER_LOGIN} contacts may be registered per credential`)]] };
  }

  for (const ch of changes) {
    if (ch.expires === 0) {
      p.bindings.remove(bindingId(login.credentialId, ch.contact));
      continue;
    }
    p.bindings.keep({
      accountId: login.accountId,
      credentialId: login.credentialId,
      username: login.username,
      aor,
      contact: ch.contact,
      callId: req.callId,
      cseq: req.cseq.seq,
      expires: ch.expires,
      transport: flow.transport,
      sourceAddress: flow.address,
      sourcePort: flow.port,
      userAgent: req.header('user-agent') ?? null,
    });
  }
  p.logins.markUsed(login.credentialId);
  const now = p.bindings.of(login.credentialId, login.username);
  return {
    status: 200,
    reason: 'OK',
    headers: [...now.map((b) => ['Contact', `<${b.contact}>;expires=${p.bindings.remaining(b)}`] as const), ['Date', new Date(p.now()).toUTCString()]],
  };
}
