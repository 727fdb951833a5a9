// Who sent a request: the digest exchange the SIP server runs before it registers a device or
// (calls) takes an INVITE (spec Authentication 6; RFC 3261 §22). The realm comes from the
// address-of-record; a request without credentials for it is challenged (401, or 407 as a proxy
// would for calls); then, in order, an unknown user, a credential that is not active and enabled
// (refused at once, spec "States and transitions"), a wrong response, and a source address outside
// the credential's IP ACL are 403 with a Warning saying which; a stale, unknown or replayed nonce
// is challenged again with stale=true. A refusal stores nothing.
import type { Flow } from './flow.ts';
import type { SipRequest, SipUri } from './message.ts';
import type { NonceBook } from './nonces.ts';
import type { SipLoginView, SipLogins } from './ports.ts';
import type { DigestAlgorithm } from '../sip-auth/digest.ts';
import { challengeHeaders, parseDigestCredentials, responseMatches, supportedAlgorithm, type DigestCredentials } from './digest.ts';
import { warning, type Answer } from './response.ts';

/** The account realms' common suffix (sip-auth: `{accountId in lowercase}.sip.claw-ops.com`). */
export const REALM_SUFFIX = '.sip.claw-ops.com';

export type ChallengeKind = 'www' | 'proxy';

export type AuthOutcome = { ok: true; login: SipLoginView } | { ok: false; answer: Answer };

export interface AuthParts {
  logins: SipLogins;
  nonces: NonceBook;
  now(): number;
  /** The challenges offered on a flow, in order (the listener's setting; MD5 alone over WebSocket). */
  algorithms(flow: Flow): readonly DigestAlgorithm[];
}

/**
 * The digest realm of an address-of-record: its host when that is an account realm; otherwise
 * the one realm where its user part is a live login; otherwise undefined (the caller answers 404).
 */
export function realmFor(logins: SipLogins, aor: SipUri): string | undefined {
  const host = aor.host.toLowerCase();
  if (host.endsWith(REALM_SUFFIX)) return host;
  if (!aor.user) return undefined;
  const realms = logins.realmsOf(aor.user);
  return realms.length === 1 ? realms[0] : undefined;
}

export function authenticate(p: AuthParts, req: SipRequest, flow: Flow, realm: string, kind: ChallengeKind): AuthOutcome {
  const refuse = (answer: Answer): AuthOutcome => ({ ok: false, answer });
  const challenge = (stale: boolean, why: string) =>
    refuse({
      status: kind === 'www' ? 401 : 407,
      reason: kind === 'www' ? 'Unauthorized' : 'Proxy Authentication Required',
      headers: [
        ...challengeHeaders(realm, p.nonces.issue(realm, p.now()), stale, p.algorithms(flow)).map((v) => [kind === 'www' ? 'WWW-Authenticate' : 'Proxy-Authenticate', v] as const),
        ['Warning', warning(why)],
      ],
    });
  const forbid = (why: string) => refuse({ status: 403, reason: 'Forbidden', headers: [['Warning', warning(why)]] });

  let creds: DigestCredentials | undefined;
  for (const value of req.headers(kind === 'www' ? 'authorization' : 'proxy-authorization')) {
    const c = parseDigestCredentials(value);
    if (typeof c === 'string') return refuse({ status: 400, reason: 'Bad Request', headers: [['Warning', warning(`malformed credentials: ${c}`)]] });
    if (c.realm === realm) {
      creds = c;
      break;
    }
  }
  if (!creds) return challenge(false, `credentials needed for realm ${realm}`);
  const algorithm = supportedAlgorithm(creds);
  if (!algorithm) return challenge(false, `algorithm ${creds.algorithm} with qop ${creds.qop ?? 'none'} is not offered; answer SHA-256 or MD5 with qop auth`);
  const login = p.logins.login(realm, creds.username);
  if (!login) return forbid(`unknown user ${creds.username} in realm ${realm}`);
  if (!login.enabled) return forbid('the SIP credential is disabled');
  const ha1 = login.ha1[algorithm];
  if (!ha1) return forbid(`no ${algorithm} hash is stored for this credential; answer the MD5 challenge`);
  if (!responseMatches(algorithm, ha1, req.method, creds)) return forbid('wrong password (digest response does not match)');
  const verdict = p.nonces.use(creds.nonce, realm, creds.nc, p.now());
  if (verdict !== 'ok') return challenge(true, `nonce ${verdict}; retry with the fresh one`);
  if (!p.logins.admits(login.credentialId, flow.address)) return forbid(`source address ${flow.address} is outside the credential's IP ACL`);
  return { ok: true, login };
}
