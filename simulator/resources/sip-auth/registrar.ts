// The fake SIP registrar behind the control plane: what a SIP client presenting these credentials
// would get (spec Authentication 6).
import { normalizePhone } from '../../core/phone.ts';
import { ipInCidr } from './cidr.ts';
import { digestHa1 } from './digest.ts';
import type { SipAuthModel } from './model.ts';
import type { NumberOwner } from './ports.ts';

export type SipAuthOutcome = 'ok' | 'unknown_user' | 'credential_disabled' | 'wrong_password' | 'ip_not_allowed' | 'number_not_allowed';

export interface SipAuthAttempt {
  username: string;
  realm: string;
  password: string;
  sourceIp?: string;
  fromNumber?: string;
}

/**
 * Spec Authentication 6: username, realm and password, then the ACL (a disabled ACL admits no
 * address) and allowedNumbers (empty: any number the account holds). Success records lastUsedAt.
 */
export function authenticateSip(m: SipAuthModel, numbers: NumberOwner, a: SipAuthAttempt): { outcome: SipAuthOutcome; credentialId: string | null } {
  // A WebRTC token's ephemeral username stands for its parent credential while it lives.
  const token = m.tokens.all().find((t) => t.realm === a.realm && t.username === a.username);
  const row = token
    ? m.liveToken(token) ? m.credentials.get(token.credentialId) : undefined
    : m.credentials.all().find((c) => c.realm === a.realm && c.username === a.username && c.status !== 'deleted');
  if (!row || row.status === 'deleted') return { outcome: 'unknown_user', credentialId: null };
  const refuse = (outcome: SipAuthOutcome) => ({ outcome, credentialId: row.id });
  if (!row.enabled || row.status !== 'active') return refuse('credential_disabled');
  const expected = token ? token.ha1 : row.ha1;
  if (digestHa1(a.username, a.realm, a.password) !== expected) return refuse('wrong_password');
  if (row.ipAclId !== null) {
    const acl = m.acls.get(row.ipAclId);
    const ip = a.sourceIp;
    if (!acl || acl.status !== 'active' || ip === undefined || !acl.cidrs.some((c) => ipInCidr(ip, c))) return refuse('ip_not_allowed');
  }
  if (a.fromNumber !== undefined) {
    const from = normalizePhone(a.fromNumber, 'fromNumber');
    const allowed = row.allowedNumbers.length > 0 ? row.allowedNumbers.includes(from) : numbers.ownerOf(from) === row.accountId;
    if (!allowed) return refuse('number_not_allowed');
  }
  m.markUsed(row.id);
  return { outcome: 'ok', credentialId: row.id };
}
