// HTTP surface of SIP IP ACLs and SIP credentials, as the public API document shapes it: paged
// lists with a status filter, 201 on create, PUT as a partial update, DELETE answering 200
// {ok: true}. Changes need the sip_trunk add-on (403 SIP_TRUNK_REQUIRED); reads do not.
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { sipAuthErrors, type StatusFilter } from './model.ts';
import { operation } from './scope.ts';
import {
  CreateWebrtcTokenBody,
  WebrtcTokenResponse,
  CreateSipCredentialBody,
  CreateSipIpAclBody,
  OkResponse,
  SETTABLE_STATUSES,
  SipCredential,
  SipCredentialCreateResponse,
  SipCredentialList,
  SipIpAcl,
  SipIpAclList,
  UpdateSipCredentialBody,
  UpdateSipIpAclBody,
} from './schema.ts';

const TAG_ACLS = 'SIP IP ACLs';
const TAG_CREDENTIALS = 'SIP credentials';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const aclParams = { ...account, aclId: Type.String({ description: 'SIP IP ACL id.' }) };
const credentialParams = { ...account, credentialId: Type.String({ description: 'SIP credential id.' }) };
const listQuery = (what: string) => ({
  status: StringEnum(SETTABLE_STATUSES, { description: `Only ${what} with this status; both active and disabled when omitted.` }),
  ...standardPagingParams,
});
const phoneErrors = [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY];
const OK = '{"ok":true}';

function paging(ctx: { query: unknown }) {
  return parsePaging(ctx.query as PagingQuery);
}

export const operations = [
  // --- IP ACLs ---
  operation({
    operationId: 'listSipIpAcls',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-ip-acls',
    tag: TAG_ACLS,
    summary: 'List SIP IP ACLs',
    description: 'Newest first; deleted ACLs never appear. `total` counts ACLs matching the filter before paging.',
    origin: 'reference',
    auth: 'account',
    params: account,
    query: listQuery('ACLs'),
    responses: { 200: { description: 'A page of ACLs.', schema: SipIpAclList } },
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      const page = pageOf(m.listAcls(ctx.accountId, ctx.query.status as StatusFilter | undefined), paging(ctx));
      return reply.json(200, m.aclWire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'createSipIpAcl',
    method: 'POST',
    path: '/v1/accounts/{accountId}/sip-ip-acls',
    tag: TAG_ACLS,
    summary: 'Create a SIP IP ACL',
    description: 'An IPv4 allow list that credentials refer to (ipAclId) to check the source address. A bad CIDR or more than 50 answer 400 VALIDATION with `errors` naming each entry.',
    origin: 'spec',
    auth: 'account',
    params: account,
    body: CreateSipIpAclBody,
    bodyRequired: true,
    responses: { 201: { description: 'The new ACL (status active).', schema: SipIpAcl } },
    errors: [SIP_TRUNK_REQUIRED],
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      return reply.json(201, m.aclWire.json(m.createAcl(ctx.accountId, ctx.body)));
    },
  }),
  operation({
    operationId: 'getSipIpAcl',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-ip-acls/{aclId}',
    tag: TAG_ACLS,
    summary: 'Get a SIP IP ACL',
    description: 'A deleted ACL answers 404 like an unknown one.',
    origin: 'reference',
    auth: 'account',
    params: aclParams,
    responses: { 200: { description: 'The ACL.', schema: SipIpAcl } },
    errors: [sipAuthErrors.SIP_IP_ACL_NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      return reply.json(200, m.aclWire.json(m.getAcl(ctx.accountId, ctx.params.aclId)));
    },
  }),
  operation({
    operationId: 'updateSipIpAcl',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/sip-ip-acls/{aclId}',
    tag: TAG_ACLS,
    summary: 'Change a SIP IP ACL',
    description: 'Partial update: omitted fields keep their values; `cidrs` replaces the whole list.',
    origin: 'reference',
    auth: 'account',
    params: aclParams,
    body: UpdateSipIpAclBody,
    bodyRequired: true,
    responses: { 200: { description: 'The ACL.', schema: SipIpAcl } },
    errors: [SIP_TRUNK_REQUIRED, sipAuthErrors.SIP_IP_ACL_NOT_FOUND, sipAuthErrors.NOTHING_TO_UPDATE],
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      return reply.json(200, m.aclWire.json(m.updateAcl(ctx.accountId, ctx.params.aclId, ctx.body)));
    },
  }),
  operation({
    operationId: 'deleteSipIpAcl',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/sip-ip-acls/{aclId}',
    tag: TAG_ACLS,
    summary: 'Delete a SIP IP ACL',
    description: 'Soft delete: afterwards every operation answers 404 for it. Refused with 409 IN_USE while a credential that is not deleted refers to it.',
    origin: 'reference',
    auth: 'account',
    params: aclParams,
    responses: { 200: { description: '{ ok: true }', schema: OkResponse } },
    errors: [SIP_TRUNK_REQUIRED, sipAuthErrors.SIP_IP_ACL_NOT_FOUND, sipAuthErrors.IN_USE],
    handler: (ctx) => {
      ctx.scope.sipAuth.deleteAcl(ctx.accountId, ctx.params.aclId);
      return reply.json(200, OK);
    },
  }),

  // --- credentials ---
  operation({
    operationId: 'listSipCredentials',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-credentials',
    tag: TAG_CREDENTIALS,
    summary: 'List SIP credentials',
    description: 'Newest first; deleted credentials are left out (they stay readable by id). Never carries a password or hash.',
    origin: 'reference',
    auth: 'account',
    params: account,
    query: listQuery('credentials'),
    responses: { 200: { description: 'A page of credentials.', schema: SipCredentialList } },
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      const page = pageOf(m.listCredentials(ctx.accountId, ctx.query.status as StatusFilter | undefined), paging(ctx));
      return reply.json(200, m.credentialWire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'createSipCredential',
    method: 'POST',
    path: '/v1/accounts/{accountId}/sip-credentials',
    tag: TAG_CREDENTIALS,
    summary: 'Issue a SIP credential',
    description:
      'Digest credential for a SIP client (realm {accountId in lowercase}.sip.claw-ops.com). Without `password` one of 32 letters and digits is generated and returned in this answer only (field `password`); a password the client sent is never echoed (spec: the password is never returned). Only the digest HA1 is stored. The username must be unused among the account\'s credentials that are not deleted (409 USERNAME_TAKEN).',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: CreateSipCredentialBody,
    bodyRequired: true,
    responses: { 201: { description: 'The credential, with `password` only when it was generated.', schema: SipCredentialCreateResponse } },
    errors: [SIP_TRUNK_REQUIRED, sipAuthErrors.INVALID_ACL, sipAuthErrors.USERNAME_TAKEN, ...phoneErrors],
    handler: (ctx) => {
      const { row, generatedPassword } = ctx.scope.sipAuth.createCredential(ctx.accountId, ctx.body);
      const body = generatedPassword === null ? (ctx.scope.sipAuth.credentialWire.wire(row) as object) : { ...(ctx.scope.sipAuth.credentialWire.wire(row) as object), password: generatedPassword };
      return reply.json(201, JSON.stringify(body));
    },
  }),
  operation({
    operationId: 'getSipCredential',
    method: 'GET',
    path: '/v1/accounts/{accountId}/sip-credentials/{credentialId}',
    tag: TAG_CREDENTIALS,
    summary: 'Get a SIP credential',
    description: 'Never carries the password or its hash. A deleted credential is returned with status deleted and enabled false.',
    origin: 'reference',
    auth: 'account',
    params: credentialParams,
    responses: { 200: { description: 'The credential.', schema: SipCredential } },
    errors: [sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      return reply.json(200, m.credentialWire.json(m.getCredential(ctx.accountId, ctx.params.credentialId)));
    },
  }),
  operation({
    operationId: 'updateSipCredential',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/sip-credentials/{credentialId}',
    tag: TAG_CREDENTIALS,
    summary: 'Change a SIP credential',
    description:
      'Partial update. A `password` regenerates the stored hash; status=disabled sets enabled=false at once (authentication blocked), status=active sets it true. ipAclId null removes the IP restriction. The username cannot change. A deleted credential answers 404.',
    origin: 'spec',
    auth: 'account',
    params: credentialParams,
    body: UpdateSipCredentialBody,
    bodyRequired: true,
    immutable: { fields: ['username'], advice: 'issue a new credential and delete this one' },
    responses: { 200: { description: 'The credential (without password).', schema: SipCredential } },
    errors: [SIP_TRUNK_REQUIRED, sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND, sipAuthErrors.INVALID_ACL, sipAuthErrors.NOTHING_TO_UPDATE, errorCodes.IMMUTABLE_FIELD, ...phoneErrors],
    handler: (ctx) => {
      const m = ctx.scope.sipAuth;
      return reply.json(200, m.credentialWire.json(m.updateCredential(ctx.accountId, ctx.params.credentialId, ctx.body)));
    },
  }),
  operation({
    operationId: 'deleteSipCredential',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/sip-credentials/{credentialId}',
    tag: TAG_CREDENTIALS,
    summary: 'Retire a SIP credential',
    description: 'status becomes deleted and enabled false; the credential leaves the list but stays readable by id. Deleting again answers 404.',
    origin: 'reference',
    auth: 'account',
    params: credentialParams,
    responses: { 200: { description: '{ ok: true }', schema: OkResponse } },
    errors: [SIP_TRUNK_REQUIRED, sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.sipAuth.deleteCredential(ctx.accountId, ctx.params.credentialId);
      return reply.json(200, OK);
    },
  }),

  // --- WebRTC tokens ---
  operation({
    operationId: 'createWebrtcToken',
    method: 'POST',
    path: '/v1/accounts/{accountId}/sip-credentials/{credentialId}/tokens',
    tag: TAG_CREDENTIALS,
    summary: 'Issue a short-lived WebRTC token',
    description:
      'An HS256 JWT (signed with the simulator\'s documented key; clients only decode it) carrying a random ephemeral SIP username and password for the credential\'s realm, ws_url and allowed_caller_ids. The parent must be active and enabled (400 CREDENTIAL_INACTIVE). The ephemeral credential authenticates like its parent (same ACL and numbers) until it expires or is revoked, and stops when the parent is disabled or deleted.',
    origin: 'reference',
    auth: 'account',
    params: credentialParams,
    body: CreateWebrtcTokenBody,
    responses: { 201: { description: 'The token.', schema: WebrtcTokenResponse } },
    errors: [sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND, sipAuthErrors.CREDENTIAL_INACTIVE],
    handler: (ctx) => reply.created(ctx.scope.sipAuth.createToken(ctx.accountId, ctx.params.credentialId, ctx.body)),
  }),
  operation({
    operationId: 'revokeWebrtcToken',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/sip-credentials/{credentialId}/tokens/{jti}',
    tag: TAG_CREDENTIALS,
    summary: 'Revoke a WebRTC token before it expires',
    description: 'Its ephemeral credential stops authenticating at once. An unknown, expired or already revoked token answers 404.',
    origin: 'reference',
    auth: 'account',
    params: { ...credentialParams, jti: Type.String({ description: 'The token\'s jti claim.' }) },
    responses: { 204: { description: 'Revoked; no body.' } },
    errors: [sipAuthErrors.SIP_CREDENTIAL_NOT_FOUND, sipAuthErrors.WEBRTC_TOKEN_NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.sipAuth.revokeToken(ctx.accountId, ctx.params.credentialId, ctx.params.jti);
      return reply.noContent();
    },
  }),
];
