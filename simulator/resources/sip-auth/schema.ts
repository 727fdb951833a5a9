// SIP IP ACLs and SIP credentials (spec "SIP IP ACL", "SIP credential", "States and transitions /
// SIP endpoint, route and credential"; shapes after the public API document). Passwords are never
// stored: a credential keeps only its digest HA1 (docs/decisions.md, "SIP IP ACLs and credentials").
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { atLeastOneField } from '../../core/schema-rules.ts';
import { sharedErrors } from '../../rules/errors.ts';

const NOTHING = sharedErrors.NOTHING_TO_UPDATE.info.code;

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const SIP_AUTH_IDS = {
  sipIpAcl: { prefix: 'SA', hex: 32 },
  sipCredential: { prefix: 'SC', hex: 32 },
  webrtcToken: { prefix: 'WT', hex: 32 },
} as const satisfies Record<string, IdFormat>;

export const ACL_STATUSES = ['active', 'disabled'] as const;
export const CREDENTIAL_STATUSES = ['active', 'disabled', 'deleted'] as const;
/** What PUT and the list filter accept; `deleted` is reached only by DELETE. */
export const SETTABLE_STATUSES = ['active', 'disabled'] as const;

export const MAX_CIDRS = 50; // spec Limits: IP ACL entries
export const MAX_ALLOWED_NUMBERS = 100; // reference: createSipCredential allowedNumbers
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 128;
export const GENERATED_PASSWORD_LENGTH = 32; // reference: "random 32 characters" when not given

const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Display name, 1 to 200 characters, not blank.' });
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
/** An IPv4 network: four octets without leading zeros, a prefix length 0 to 32 (cidr.ts; host bits are the description's). */
const CIDR_PATTERN = `^${OCTET}(?:\\.${OCTET}){3}/(?:3[0-2]|[12]?\\d)$`;
const Cidrs = Type.Array(Type.String({ maxLength: 18, pattern: CIDR_PATTERN, description: 'IPv4 CIDR, e.g. 203.0.113.0/24, without host bits set (203.0.113.1/24 is refused, naming the network).' }), {
  maxItems: MAX_CIDRS,
  description: `IPv4 CIDRs in a.b.c.d/n notation (n 0 to 32, no host bits set), at most ${MAX_CIDRS}; repeated entries are kept once.`,
});
const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, description: `${PASSWORD_MIN} to ${PASSWORD_MAX} characters.` });
const AllowedNumbers = Type.Array(PhoneNumber(), {
  maxItems: MAX_ALLOWED_NUMBERS,
  description: `Caller numbers the credential may present (From), stored in domestic notation, each once; empty allows every number of the account. At most ${MAX_ALLOWED_NUMBERS}.`,
});
const IpAclId = Nullable(Type.String({ minLength: 1, description: 'A live SIP IP ACL of the account; null means no IP restriction (digest only).' }));

export const SipIpAcl = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    cidrs: Type.Array(Type.String(), { description: 'IPv4 CIDRs, at most 50.' }),
    status: StringEnum(ACL_STATUSES),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { $id: 'SipIpAcl', additionalProperties: false },
);

const credentialFields = {
  id: Type.String(),
  accountId: Type.String(),
  name: Type.String(),
  username: Type.String(),
  realm: Type.String({ description: '{accountId in lowercase}.sip.claw-ops.com' }),
  enabled: Type.Boolean({ description: 'Whether SIP authentication is allowed; false once disabled or deleted.' }),
  status: StringEnum(CREDENTIAL_STATUSES),
  ipAclId: Nullable(Type.String()),
  allowedNumbers: Type.Array(Type.String()),
  lastUsedAt: Nullable(DateTime()),
  dateCreated: DateTime(),
  dateUpdated: DateTime(),
};

export const SipCredential = Type.Object(credentialFields, { $id: 'SipCredential', additionalProperties: false });

export const SipCredentialCreateResponse = Type.Object(
  {
    ...credentialFields,
    password: Type.Optional(Type.String({ description: 'The generated plain password, present only when the request sent none; shown in this answer only. A password the client sent is never echoed.' })),
  },
  { $id: 'SipCredentialCreateResponse', additionalProperties: false },
);

export const SipIpAclList = Type.Object(
  { data: Type.Array(SipIpAcl), meta: ListMetaSchema },
  { $id: 'SipIpAclListResponse', additionalProperties: false },
);
export const SipCredentialList = Type.Object(
  { data: Type.Array(SipCredential), meta: ListMetaSchema },
  { $id: 'SipCredentialListResponse', additionalProperties: false },
);

export const OkResponse = Type.Object({ ok: Type.Boolean() }, { $id: 'SipDeleteResponse', additionalProperties: false });

export const CreateSipIpAclBody = Type.Object(
  { name: Name, cidrs: Type.Optional(Cidrs) },
  { $id: 'CreateSipIpAclRequest', additionalProperties: false },
);

export const UpdateSipIpAclBody = atLeastOneField(
  Type.Object(
    { name: Type.Optional(Name), cidrs: Type.Optional(Cidrs), status: Type.Optional(StringEnum(SETTABLE_STATUSES)) },
    { $id: 'UpdateSipIpAclRequest', additionalProperties: false },
  ),
  NOTHING,
);

export const CreateSipCredentialBody = Type.Object(
  {
    name: Name,
    username: Type.String({ pattern: '^[A-Za-z0-9_-]{3,64}$', description: 'Letters, digits, _ and -, 3 to 64 characters; unique among the account\'s credentials that are not deleted.' }),
    password: Type.Optional(Password),
    ipAclId: Type.Optional(IpAclId),
    allowedNumbers: Type.Optional(AllowedNumbers),
  },
  { $id: 'CreateSipCredentialRequest', additionalProperties: false },
);

export const UpdateSipCredentialBody = atLeastOneField(
  Type.Object(
    {
      name: Type.Optional(Name),
      password: Type.Optional(Password),
      ipAclId: Type.Optional(IpAclId),
      allowedNumbers: Type.Optional(AllowedNumbers),
      status: Type.Optional(StringEnum(SETTABLE_STATUSES, { description: 'disabled sets enabled=false at once; active sets enabled=true.' })),
    },
    { $id: 'UpdateSipCredentialRequest', additionalProperties: false },
  ),
  NOTHING,
);

export type CreateSipIpAclInput = Static<typeof CreateSipIpAclBody>;
export type UpdateSipIpAclInput = Static<typeof UpdateSipIpAclBody>;
export type CreateSipCredentialInput = Static<typeof CreateSipCredentialBody>;
export type UpdateSipCredentialInput = Static<typeof UpdateSipCredentialBody>;

// --- stored state ---

export const SipIpAclRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    cidrs: Type.Array(Type.String()),
    status: StringEnum(ACL_STATUSES),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
    /** Soft delete: the row stays, every operation answers 404 for it. */
    deletedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type SipIpAclRow = Static<typeof SipIpAclRowSchema>;

export const SipCredentialRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    name: Type.String(),
    username: Type.String(),
    realm: Type.String(),
    /** Digest HA1 = md5(username:realm:password) in lowercase hex; the password itself is never kept. */
    ha1: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    enabled: Type.Boolean(),
    status: StringEnum(CREDENTIAL_STATUSES),
    ipAclId: Nullable(Type.String()),
    allowedNumbers: Type.Array(Type.String()),
    lastUsedAt: Nullable(DateTime()),
    dateCreated: DateTime(),
    dateUpdated: DateTime(),
  },
  { additionalProperties: false },
);
export type SipCredentialRow = Static<typeof SipCredentialRowSchema>;

/** A short-lived WebRTC token: an ephemeral SIP username/password derived from a credential. */
export const WebrtcTokenRowSchema = Type.Object(
  {
    id: Type.String({ description: 'The jti, which is also the ephemeral credential id.' }),
    accountId: Type.String(),
    credentialId: Type.String({ description: 'The parent (permanent) credential.' }),
    username: Type.String(),
    realm: Type.String(),
    ha1: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    subject: Type.String(),
    issuedAt: DateTime(),
    expiresAt: DateTime(),
    revokedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type WebrtcTokenRow = Static<typeof WebrtcTokenRowSchema>;

export const CreateWebrtcTokenBody = Type.Object(
  {
    ttl_seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86400, default: 3600, description: 'Lifetime in seconds, 1 to 86400.' })),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The JWT `sub`; default `user:<credentialId>`.' })),
  },
  { $id: 'CreateWebrtcTokenRequest', additionalProperties: false },
);
export type CreateWebrtcTokenInput = Static<typeof CreateWebrtcTokenBody>;

export const WebrtcTokenResponse = Type.Object(
  {
    token: Type.String({ description: 'HS256 JWT whose payload carries the ephemeral SIP username and password, realm, ws_url, allowed_caller_ids, jti, iat, exp.' }),
    token_type: Type.Literal('Bearer'),
    expires_at: DateTime(),
    ws_url: Type.String(),
    sip_uri: Type.String({ description: '<ephemeral username>@<realm>' }),
  },
  { $id: 'WebrtcTokenResponse', additionalProperties: false },
);

export const SipAuthStateSchema = Type.Object(
  { acls: Type.Array(SipIpAclRowSchema), credentials: Type.Array(SipCredentialRowSchema), tokens: Type.Array(WebrtcTokenRowSchema) },
  { additionalProperties: false },
);
export type SipAuthState = Static<typeof SipAuthStateSchema>;
