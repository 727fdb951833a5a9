// The fake SIP registrar behind the control plane: what a SIP client presenting these credentials
// would get (spec Authentication 6), with a plain password instead of a digest exchange.
import { normalizePhone } from '../../core/phone.ts';
import { digestHa1 } from './digest.ts';
import { aclAdmits, findLogin, mayPresent } from './logins.ts';
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
  const login = findLogin(m, a.realm, a.username);
  if (!login) return { outcome: 'unknown_user', credentialId: null };
  const refuse = (outcome: SipAuthOutcome) => ({ outcome, credentialId: login.credentialId });
  if (!login.enabled) return refuse('credential_disabled');
  if (digestHa1(a.username, a.realm, a.password) !== login.ha1.MD5) return refuse('wrong_password');
  if (!aclAdmits(m, login.credentialId, a.sourceIp)) return refuse('ip_not_allowed');
  if (a.fromNumber !== undefined && !mayPresent(numbers, login, normalizePhone(a.fromNumber, 'fromNumber'))) return refuse('number_not_allowed');
  m.markUsed(login.credentialId);
  return { outcome: 'ok', credentialId: login.credentialId };
}
