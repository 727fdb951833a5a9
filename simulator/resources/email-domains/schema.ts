// Email sender domains (spec "Email domain", its DNS record table and status enums). The wire
// shape is exactly the spec's field table; the stored row adds what the rules need (owner,
// region, DKIM tokens, the MAIL FROM detection window, whether a DMARC record was seen).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum, StringRefusedBy } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { HOST_NAME_BODY } from '../../core/domain.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const EMAIL_DOMAIN_IDS = {
  emailDomain: { prefix: 'ed_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const DOMAIN_STATUSES = ['pending', 'verified', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
export const RECEIVING_STATUSES = ['pending', 'verified', 'not_found', 'not_lowest_priority', 'unsupported_region'] as const;
export type ReceivingStatus = (typeof RECEIVING_STATUSES)[number];
export const MAIL_FROM_STATUSES = ['pending', 'verified', 'failed'] as const;
export type MailFromStatus = (typeof MAIL_FROM_STATUSES)[number];
export const DMARC_STATUSES = ['not_found', 'spf_strict', 'monitor', 'enforced'] as const;
export type DmarcStatus = (typeof DMARC_STATUSES)[number];
export const RECORD_PURPOSES = ['dkim', 'mail_from_mx', 'mail_from_spf', 'dmarc', 'inbound'] as const;
export type RecordPurpose = (typeof RECORD_PURPOSES)[number];
export const RECORD_REQUIREMENTS = ['required', 'recommended', 'optional'] as const;

/** AWS-style region names (ap-northeast-2, us-east-1). */
export const REGION_PATTERN = '^[a-z]{2}(-[a-z]+)+-[0-9]{1,2}$';

export const EmailDnsRecord = Type.Object(
  {
    purpose: Type.String({
      description: `${RECORD_PURPOSES.join(', ')}. The set may grow: for an unknown value decide by requirement.`,
      examples: ['dkim'],
    }),
    requirement: StringEnum(RECORD_REQUIREMENTS, { description: 'Fixed set of three. required: sending stays closed until planted.' }),
    type: StringEnum(['CNAME', 'MX', 'TXT']),
    name: Type.String({ description: 'Full host name; DNS hosts that append the zone want only the part before the domain.' }),
    value: Type.String({ description: 'TXT values carry no quotes.' }),
    priority: Nullable(Type.Integer(), { description: 'null for CNAME and TXT; always present for MX, which must be strictly the lowest among the name\'s MX.' }),
  },
  { $id: 'EmailDnsRecord', additionalProperties: false },
);
export type EmailDnsRecordWire = Static<typeof EmailDnsRecord>;

export const EmailDomain = Type.Object(
  {
    id: Type.String({ description: 'Used for get, verify, update and delete.' }),
    domain: Type.String({ description: 'Normalised: lowercase, no trailing dot, internationalised names in punycode.' }),
    status: StringEnum(DOMAIN_STATUSES, { description: 'pending: awaits DNS setup or a check; verified: DKIM confirmed, sending allowed; failed: DKIM records no longer found.' }),
    dnsRecords: Type.Array(EmailDnsRecord, { description: 'Order is not part of the contract.' }),
    receivingEnabled: Type.Boolean({ description: 'Can be turned on only for verified domains.' }),
    receivingStatus: Nullable(StringEnum(RECEIVING_STATUSES), { description: 'null when receiving is off.' }),
    receivingCheckedAt: Nullable(DateTime({ description: 'Last successful MX lookup.' })),
    mailFromStatus: Nullable(StringEnum(MAIL_FROM_STATUSES), { description: 'null until the custom MAIL FROM was first attempted.' }),
    dmarcStatus: Nullable(StringEnum(DMARC_STATUSES), { description: 'null until DMARC was first checked.' }),
    lastCheckedAt: Nullable(DateTime({ description: 'Last successful provider lookup.' })),
    verifiedAt: Nullable(DateTime({ description: 'First verification only.' })),
    pendingExpiresAt: Nullable(DateTime({ description: 'After this instant another account may register the domain; null unless pending.' })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'EmailDomain', additionalProperties: false },
);
export type EmailDomainWire = Static<typeof EmailDomain>;

export const EmailDomainList = Type.Object(
  { data: Type.Array(EmailDomain), meta: ListMetaSchema },
  { $id: 'EmailDomainList', additionalProperties: false },
);

/** Surrounding spaces allowed, as the handler trims them (core/domain.ts HOST_NAME). */
const HOST_NAME_PATTERN = `^\\s*${HOST_NAME_BODY}\\s*$`;

export const CreateEmailDomainBody = Type.Object(
  {
    domain: StringRefusedBy('invalid_email_domain', {
      minLength: 1,
      maxLength: 1024,
      pattern: HOST_NAME_PATTERN,
      description:
        'The domain only (not an address or URL): two or more labels of letters, digits and inner hyphens, the last not numeric (not an IP address), at most 253 characters once normalised. Case, surrounding spaces, a trailing dot are normalised; internationalised names are accepted too and stored in punycode.',
      examples: ['mail.example.com'],
    }),
  },
  { $id: 'CreateEmailDomainRequest', additionalProperties: false },
);

export const UpdateEmailDomainBody = Type.Object(
  { receivingEnabled: Type.Boolean({ description: 'Turn inbound receiving on (verified domains only) or off.' }) },
  { $id: 'UpdateEmailDomainRequest', additionalProperties: false },
);

// --- stored state ---

export const EmailDomainRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    domain: Type.String(),
    region: Type.String({ pattern: REGION_PATTERN }),
    dkimTokens: Type.Array(Type.String({ pattern: '^[a-z0-9]{32}$' }), { minItems: 3, maxItems: 3 }),
    status: StringEnum(DOMAIN_STATUSES),
    receivingEnabled: Type.Boolean(),
    receivingStatus: Nullable(StringEnum(RECEIVING_STATUSES)),
    receivingCheckedAt: Nullable(DateTime()),
    mailFromStatus: Nullable(StringEnum(MAIL_FROM_STATUSES)),
    mailFromSince: Nullable(DateTime()),
    dmarcStatus: Nullable(StringEnum(DMARC_STATUSES)),
    dmarcRecordSeen: Type.Boolean(),
    lastCheckedAt: Nullable(DateTime()),
    verifiedAt: Nullable(DateTime()),
    pendingExpiresAt: Nullable(DateTime()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { additionalProperties: false },
);
export type EmailDomainRow = Static<typeof EmailDomainRowSchema>;

export const EmailProviderSettingsSchema = Type.Object(
  {
    region: Type.String({ pattern: REGION_PATTERN, description: 'Region given to newly registered domains.' }),
    receivingRegions: Type.Array(Type.String({ pattern: REGION_PATTERN }), { description: 'Regions that support inbound receiving; other regions give receivingStatus unsupported_region.' }),
  },
  { $id: 'SimEmailProviderSettings', additionalProperties: false },
);
export type EmailProviderSettings = Static<typeof EmailProviderSettingsSchema>;

export const UpdateEmailProviderSettingsBody = Type.Object(
  {
    region: Type.Optional(Type.String({ pattern: REGION_PATTERN, description: 'Region for domains registered from now on.' })),
    receivingRegions: Type.Optional(Type.Array(Type.String({ pattern: REGION_PATTERN }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);

export const EmailDomainsStateSchema = Type.Object(
  { settings: EmailProviderSettingsSchema, domains: Type.Array(EmailDomainRowSchema) },
  { additionalProperties: false },
);
export type EmailDomainsState = Static<typeof EmailDomainsStateSchema>;
