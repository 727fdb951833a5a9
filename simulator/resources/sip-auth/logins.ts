// Who a SIP login is (spec Authentication 6): the credential a realm and username name, or a
// live WebRTC token standing for its parent credential; whether it may authenticate now; and
// whether its IP ACL admits a source address. The fake registrar (registrar.ts) and the SIP
// server on the wire (through its port on this family) share these rules.
import type { DigestAlgorithm } from './digest.ts';
import { ipInCidr } from './cidr.ts';
import type { SipAuthModel } from './model.ts';
import type { NumberOwner } from './ports.ts';

export interface SipLogin {
  /** The credential that authenticates (for a WebRTC token, its parent). */
  credentialId: string;
  accountId: string;
  username: string;
  realm: string;
  /** The stored HA1 per digest algorithm; SHA-256 is missing only for rows restored from older snapshots. */
  ha1: { readonly [A in DigestAlgorithm]?: string };
  /** Whether it may authenticate now: the credential is active and enabled, the token live. */
  enabled: boolean;
  /** Caller numbers it may present; empty: any number of the account. */
  allowedNumbers: readonly string[];
}

/** The login a realm and username name, or undefined (unknown, deleted, or an expired or revoked token). */
export function findLogin(m: SipAuthModel, realm: string, username: string): SipLogin | undefined {
  const token = m.tokens.all().find((t) => t.realm === realm && t.username === username);
  if (token) {
    const parent = m.liveToken(token) ? m.credentials.get(token.credentialId) : undefined;
    if (!parent || parent.status === 'deleted') return undefined;
    return loginOf(parent, realm, username, token);
  }
  const row = m.credentials.all().find((c) => c.realm === realm && c.username === username && c.status !== 'deleted');
  return row ? loginOf(row, realm, username, row) : undefined;
}

/** The login a credential grants, with the digests of the token or credential the name matched. */
function loginOf(
  credential: { id: string; accountId: string; enabled: boolean; status: string; allowedNumbers: SipLogin['allowedNumbers'] },
  realm: string,
  username: string,
  digests: { ha1: string; ha1Sha256?: string },
): SipLogin {
  return {
    credentialId: credential.id,
    accountId: credential.accountId,
    username,
    realm,
    ha1: { MD5: digests.ha1, 'SHA-256': digests.ha1Sha256 },
    enabled: credential.enabled && credential.status === 'active',
    allowedNumbers: credential.allowedNumbers,
  };
}

/** Whether the credential's IP ACL admits `ip` (no ACL: every address; a disabled or deleted ACL: none). */
export function aclAdmits(m: SipAuthModel, credentialId: string, ip: string | undefined): boolean {
  const row = m.credentials.get(credentialId);
  if (!row) return false;
  if (row.ipAclId === null) return true;
  const acl = m.acls.get(row.ipAclId);
  if (!acl || acl.status !== 'active' || acl.deletedAt !== null || ip === undefined) return false;
  return acl.cidrs.some((c) => ipInCidr(ip, c));
}

/** The realms in which `username` is a live credential's username (a REGISTER whose To host names no realm). */
export function realmsOfUsername(m: SipAuthModel, username: string): string[] {
  const realms = m.credentials.all().filter((c) => c.username === username && c.status !== 'deleted').map((c) => c.realm);
  for (const t of m.tokens.all()) if (t.username === username && m.liveToken(t)) realms.push(t.realm);
  return [...new Set(realms)];
}

/**
 * The trunks a source address speaks for: active, enabled credentials with an IP ACL that admits
 * `ip` (a credential without an ACL is no trunk: it must answer a challenge), oldest first. An
 * INVITE without credentials from such an address is the trunk's (docs/decisions.md).
 */
export function trunksAt(m: SipAuthModel, ip: string): SipLogin[] {
  return m.credentials
    .all()
    .filter((c) => c.ipAclId !== null && c.enabled && c.status === 'active' && aclAdmits(m, c.id, ip))
    .sort((a, b) => (a.dateCreated < b.dateCreated ? -1 : a.dateCreated > b.dateCreated ? 1 : 0))
    .map((c) => findLogin(m, c.realm, c.username)!);
}

/** Whether a login may present `from` as its caller number: in allowedNumbers, or (empty list) a number of its account. */
export function mayPresent(numbers: NumberOwner, login: { accountId: string; allowedNumbers: readonly string[] }, from: string): boolean {
  return login.allowedNumbers.length > 0 ? login.allowedNumbers.includes(from) : numbers.ownerOf(from) === login.accountId;
}
