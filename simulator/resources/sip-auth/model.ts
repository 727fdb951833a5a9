// SIP IP ACLs and SIP credentials (spec "SIP IP ACL", "SIP credential", Authentication rule 6).
// An ACL is soft-deleted (kept, answers 404) and cannot be deleted while a credential that is not
// deleted refers to it. A credential stores only its digest HA1; DELETE retires it (status
// deleted, enabled false) and it stays readable by id. Every check runs before the first write, so
// a refused request changes nothing, not even the random state (docs/decisions.md). The runtime
// snapshots and restores its three tables (the descriptor's state part).
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { cidrProblem } from './cidr.ts';
import { digestHa1, realmOf, signJwt, WS_URL } from './digest.ts';
import { Table } from '../../core/store.ts';
import { iso } from '../../core/clock.ts';
import { ApiError, defineError, errorCodes } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { normalizePhone } from '../../core/phone.ts';
import { WireCache } from '../../core/wire.ts';
import { sharedErrors } from '../../rules/errors.ts';
import type { SipAuthModelScope } from './ports.ts';
import {
  GENERATED_PASSWORD_LENGTH,
  type CreateSipCredentialInput,
  type CreateSipIpAclInput,
  type SipCredentialRow,
  type SipIpAclRow,
  type CreateWebrtcTokenInput,
  type WebrtcTokenRow,
  type UpdateSipCredentialInput,
  type UpdateSipIpAclInput,
  SIP_AUTH_IDS,
} from './schema.ts';

export const sipAuthErrors = {
  SIP_IP_ACL_NOT_FOUND: defineError({
    code: 'sip_ip_acl_not_found', status: 404, origin: 'simulator',
    description: 'No SIP IP ACL with this id in the account, or it was deleted.',
  }),
  SIP_CREDENTIAL_NOT_FOUND: defineError({
    code: 'sip_credential_not_found', status: 404, origin: 'simulator',
    description: 'No SIP credential with this id in the account (for PUT and DELETE: or it was deleted).',
  }),
  INVALID_ACL: defineError({
    code: 'INVALID_ACL', status: 400, origin: 'reference',
    description: 'ipAclId is not a SIP IP ACL of this account (unknown, another account\'s, or deleted).',
  }),
  USERNAME_TAKEN: defineError({
    code: 'USERNAME_TAKEN', status: 409, origin: 'reference',
    description: 'Another credential of the account that is not deleted already has this username (one realm per account).',
  }),
  CREDENTIAL_INACTIVE: defineError({
    code: 'CREDENTIAL_INACTIVE', status: 400, origin: 'simulator',
    description: 'A WebRTC token needs a parent credential with status active and enabled true.',
  }),
  WEBRTC_TOKEN_NOT_FOUND: defineError({
    code: 'webrtc_token_not_found', status: 404, origin: 'simulator',
    description: 'No WebRTC token with this jti under the credential, or it has expired or was revoked.',
  }),
  IN_USE: errorCodes.IN_USE,
  NOTHING_TO_UPDATE: sharedErrors.NOTHING_TO_UPDATE,
};

const ID_TAIL = 2; // the ephemeral username is "ephem_" + the jti without its "WT" prefix
const PASSWORD_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Checks every CIDR (all problems at once) and keeps each once, in the order given. */
function checkCidrs(cidrs: readonly string[]): string[] {
  const errors = cidrs.flatMap((c, i) => {
    const p = cidrProblem(c);
    return p === null ? [] : [{ path: `cidrs[${i}]`, message: `"${c}" ${p}` }];
  });
  if (errors.length > 0) throw ApiError.validation(`invalid CIDR: ${errors.map((e) => e.message).join('; ')}`, errors);
  return [...new Set(cidrs)];
}

/** Normalises every number (first bad one raises INVALID_PHONE_NUMBER / UNSUPPORTED_COUNTRY), each kept once. */
function checkNumbers(numbers: readonly string[]): string[] {
  return [...new Set(numbers.map((n, i) => normalizePhone(n, `allowedNumbers[${i}]`)))];
}

export function aclWire(r: SipIpAclRow) {
  return { id: r.id, accountId: r.accountId, name: r.name, cidrs: r.cidrs, status: r.status, dateCreated: r.dateCreated, dateUpdated: r.dateUpdated };
}

export function credentialWire(r: SipCredentialRow) {
  return {
    id: r.id,
    accountId: r.accountId,
    name: r.name,
    username: r.username,
    realm: r.realm,
    enabled: r.enabled,
    status: r.status,
    ipAclId: r.ipAclId,
    allowedNumbers: r.allowedNumbers,
    lastUsedAt: r.lastUsedAt,
    dateCreated: r.dateCreated,
    dateUpdated: r.dateUpdated,
  };
}

export type StatusFilter = 'active' | 'disabled';

export class SipAuthModel {
  readonly acls = new Table<SipIpAclRow>(); // maps an ACL id to the ACL (deleted ones stay with deletedAt set)
  readonly tokens = new Table<WebrtcTokenRow>(); // maps a jti to a WebRTC token's ephemeral credential (expired and revoked ones stay)
  readonly credentials = new Table<SipCredentialRow>(); // maps a credential id to the credential (deleted ones stay)
  readonly aclWire = new WireCache(aclWire);
  readonly credentialWire = new WireCache(credentialWire);

  constructor(private readonly rt: SipAuthModelScope) {
    rt.refs.register('sipCredential', (accountId, id) => {
      const row = this.credentials.get(id);
      if (!row || row.accountId !== accountId) return false;
      if (row.status === 'deleted') return 'the SIP credential is deleted';
      if (row.status === 'disabled' || !row.enabled) return 'the SIP credential is disabled';
      return true;
    });
  }

  /** A successful registration: the credential's lastUsedAt becomes now (spec Authentication 6). */
  markUsed(credentialId: string): void {
    const row = this.credentials.get(credentialId);
    if (row) this.credentials.replace({ ...row, lastUsedAt: this.rt.clock.nowIso() });
  }

  private requireAddon(accountId: string, what: string): void {
    if (!this.rt.accounts.hasAddon(accountId, 'sip_trunk')) throw SIP_TRUNK_REQUIRED(`${what} needs the sip_trunk add-on`);
  }

  // --- IP ACLs ---

  listAcls(accountId: string, status?: StatusFilter): SipIpAclRow[] {
    return this.acls.newestFirst((r) => r.accountId === accountId && r.deletedAt === null && (status === undefined || r.status === status));
  }

  getAcl(accountId: string, id: string): SipIpAclRow {
    const row = this.acls.get(id);
    if (!row || row.accountId !== accountId || row.deletedAt !== null) throw sipAuthErrors.SIP_IP_ACL_NOT_FOUND(`no SIP IP ACL ${id} in this account`);
    return row;
  }

  createAcl(accountId: string, input: CreateSipIpAclInput): SipIpAclRow {
    this.requireAddon(accountId, 'creating a SIP IP ACL');
    const cidrs = checkCidrs(input.cidrs ?? []);
    const now = this.rt.clock.nowIso();
    const id = freshId(this.rt.random, SIP_AUTH_IDS.sipIpAcl, (x) => this.acls.has(x));
    return this.acls.insert({ id, accountId, name: input.name, cidrs, status: 'active', dateCreated: now, dateUpdated: now, deletedAt: null });
  }

  updateAcl(accountId: string, id: string, input: UpdateSipIpAclInput): SipIpAclRow {
    this.requireAddon(accountId, 'changing a SIP IP ACL');
    const current = this.getAcl(accountId, id);
    if (input.name === undefined && input.cidrs === undefined && input.status === undefined) {
      throw sipAuthErrors.NOTHING_TO_UPDATE('the body has no field to update (name, cidrs, status)');
    }
    const next: SipIpAclRow = { ...current, dateUpdated: this.rt.clock.nowIso() };
    if (input.name !== undefined) next.name = input.name;
    if (input.cidrs !== undefined) next.cidrs = checkCidrs(input.cidrs);
    if (input.status !== undefined) next.status = input.status;
    return this.acls.replace(next);
  }

  deleteAcl(accountId: string, id: string): void {
    this.requireAddon(accountId, 'deleting a SIP IP ACL');
    const current = this.getAcl(accountId, id);
    const users = this.credentials.all().filter((c) => c.accountId === accountId && c.status !== 'deleted' && c.ipAclId === id);
    if (users.length > 0) {
      throw sipAuthErrors.IN_USE(`SIP IP ACL ${id} is used by credential ${users.map((c) => c.id).join(', ')}; clear their ipAclId first`);
    }
    const now = this.rt.clock.nowIso();
    this.acls.replace({ ...current, deletedAt: now, dateUpdated: now });
  }

  private checkAclRef(accountId: string, id: string | null | undefined): void {
    if (id === undefined || id === null) return;
    const acl = this.acls.get(id);
    if (!acl || acl.accountId !== accountId || acl.deletedAt !== null) {
      throw sipAuthErrors.INVALID_ACL(`ipAclId ${id} is not a SIP IP ACL of this account`, { errors: [{ path: 'ipAclId', message: 'unknown or deleted SIP IP ACL' }] });
    }
  }

  // --- credentials ---

  listCredentials(accountId: string, status?: StatusFilter): SipCredentialRow[] {
    return this.credentials.newestFirst((r) => r.accountId === accountId && r.status !== 'deleted' && (status === undefined || r.status === status));
  }

  /** Deleted credentials are still returned here (status deleted); `live` refuses them with 404. */
  getCredential(accountId: string, id: string, live = false): SipCredentialRow {
    const row = this.credentials.get(id);
    if (!row || row.accountId !== accountId || (live && row.status === 'deleted')) {
      throw sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND(`no ${live ? 'live ' : ''}SIP credential ${id} in this account`);
    }
    return row;
  }

  /** The new credential and, when generated here, its plain password (returned once, never stored). */
  createCredential(accountId: string, input: CreateSipCredentialInput): { row: SipCredentialRow; generatedPassword: string | null } {
    this.requireAddon(accountId, 'issuing a SIP credential');
    const allowedNumbers = checkNumbers(input.allowedNumbers ?? []);
    this.checkAclRef(accountId, input.ipAclId);
    const taken = this.credentials.all().find((c) => c.accountId === accountId && c.status !== 'deleted' && c.username === input.username);
    if (taken) throw sipAuthErrors.USERNAME_TAKEN(`username "${input.username}" is already used by credential ${taken.id} in this account`, { errors: [{ path: 'username', message: 'already taken' }] });
    // Random draws only after every check, so a refused request leaves the random state alone.
    const generatedPassword = input.password === undefined ? this.generatePassword() : null;
    const password = input.password ?? generatedPassword!;
    const realm = realmOf(accountId);
    const now = this.rt.clock.nowIso();
    const id = freshId(this.rt.random, SIP_AUTH_IDS.sipCredential, (x) => this.credentials.has(x));
    const row = this.credentials.insert({
      id,
      accountId,
      name: input.name,
      username: input.username,
      realm,
      ha1: digestHa1(input.username, realm, password),
      enabled: true,
      status: 'active',
      ipAclId: input.ipAclId ?? null,
      allowedNumbers,
      lastUsedAt: null,
      dateCreated: now,
      dateUpdated: now,
    });
    return { row, generatedPassword };
  }

  updateCredential(accountId: string, id: string, input: UpdateSipCredentialInput): SipCredentialRow {
    this.requireAddon(accountId, 'changing a SIP credential');
    const current = this.getCredential(accountId, id, true);
    if (Object.values(input).every((v) => v === undefined)) {
      throw sipAuthErrors.NOTHING_TO_UPDATE('the body has no field to update (name, password, ipAclId, allowedNumbers, status)');
    }
    const next: SipCredentialRow = { ...current, dateUpdated: this.rt.clock.nowIso() };
    if (input.allowedNumbers !== undefined) next.allowedNumbers = checkNumbers(input.allowedNumbers);
    if (input.ipAclId !== undefined) {
      this.checkAclRef(accountId, input.ipAclId);
      next.ipAclId = input.ipAclId;
    }
    if (input.name !== undefined) next.name = input.name;
    if (input.password !== undefined) next.ha1 = digestHa1(current.username, current.realm, input.password);
    if (input.status !== undefined) {
      next.status = input.status;
      next.enabled = input.status === 'active';
    }
    return this.credentials.replace(next);
  }

  /** Retires the credential: status deleted, enabled false; the row stays readable by id. */
  deleteCredential(accountId: string, id: string): void {
    this.requireAddon(accountId, 'deleting a SIP credential');
    const current = this.getCredential(accountId, id, true);
    this.credentials.replace({ ...current, status: 'deleted', enabled: false, dateUpdated: this.rt.clock.nowIso() });
  }

  // --- WebRTC tokens ---

  /** Issues a short-lived JWT carrying an ephemeral SIP username and password for the credential. */
  createToken(accountId: string, credentialId: string, input: CreateWebrtcTokenInput | undefined) {
    const parent = this.getCredential(accountId, credentialId, true);
    if (parent.status !== 'active' || !parent.enabled) {
      throw sipAuthErrors.CREDENTIAL_INACTIVE(`credential ${credentialId} is ${parent.status}; a token needs an active, enabled credential`);
    }
    const ttl = input?.ttl_seconds ?? 3600;
    const now = this.rt.clock.now();
    const password = this.generatePassword();
    const id = freshId(this.rt.random, SIP_AUTH_IDS.webrtcToken, (x) => this.tokens.has(x));
    const username = `ephem_${id.slice(ID_TAIL)}`;
    const row: WebrtcTokenRow = {
      id,
      accountId,
      credentialId,
      username,
      realm: parent.realm,
      ha1: digestHa1(username, parent.realm, password),
      subject: input?.subject ?? `user:${credentialId}`,
      issuedAt: this.rt.clock.nowIso(),
      expiresAt: iso(now + ttl * 1000),
      revokedAt: null,
    };
    this.tokens.insert(row);
    const iat = Math.floor(now / 1000);
    const claims = {
      account_id: accountId,
      credential_id: id,
      parent_credential_id: credentialId,
      sub: row.subject,
      sip_username: username,
      sip_password: password,
      realm: parent.realm,
      ws_url: WS_URL,
      allowed_caller_ids: parent.allowedNumbers,
      jti: id,
      iat,
      exp: iat + ttl,
    };
    return { token: signJwt(claims), token_type: 'Bearer' as const, expires_at: row.expiresAt, ws_url: WS_URL, sip_uri: `${username}@${parent.realm}` };
  }

  /** A token that can still authenticate: not revoked, not expired. */
  liveToken(row: WebrtcTokenRow | undefined): row is WebrtcTokenRow {
    return row !== undefined && row.revokedAt === null && Date.parse(row.expiresAt) > this.rt.clock.now();
  }

  revokeToken(accountId: string, credentialId: string, jti: string): void {
    this.getCredential(accountId, credentialId);
    const row = this.tokens.get(jti);
    if (!row || row.accountId !== accountId || row.credentialId !== credentialId || !this.liveToken(row)) {
      throw sipAuthErrors.WEBRTC_TOKEN_NOT_FOUND(`no live token ${jti} under credential ${credentialId}`);
    }
    this.tokens.replace({ ...row, revokedAt: this.rt.clock.nowIso() });
  }

  private generatePassword(): string {
    let out = '';
    for (let i = 0; i < GENERATED_PASSWORD_LENGTH; i++) out += PASSWORD_ALPHABET[this.rt.random.int(0, PASSWORD_ALPHABET.length - 1)];
    return out;
  }
}
