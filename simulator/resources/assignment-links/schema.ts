// Assignment links (spec "Assignment link", public API document AssignmentLink*) and the end
// user's issuing session behind each link (the document's AssignmentSessions): wire shapes,
// request bodies and the stored form.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, StringEnum, StringEnumRefusedBy } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { ExtraHeaders } from '../../peers/webhooks/schema.ts';

/** Ids of the session's records (the link token itself is 43 URL-safe characters, model.ts). */
export const ASSIGNMENT_IDS = {
  kycSnapshot: { prefix: 'kyc_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const LINK_STATUSES = ['pending', 'consumed', 'expired', 'revoked'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** Steps of the end user's session, in order (the document's `step` enum; businessInfo unused). */
export const SESSION_STEPS = ['selectType', 'consents', 'verify', 'businessInfo', 'ready', 'done'] as const;
export type SessionStep = (typeof SESSION_STEPS)[number];
export const SUBSCRIBER_TYPES = ['individual', 'corporate'] as const;

/** Spec Limits: ttlSeconds 60 to 604800, default 7 days; note at most 200 characters. */
export const TTL_MIN = 60;
export const TTL_MAX = 604800;
export const NOTE_MAX = 200;

const WebhookHeaders = ExtraHeaders('Prefilled on the issued number. Keys start with "X-"; X-Signature, X-Forwarded-*, X-Real-IP refused; at most 10; key at most 64 bytes, value at most 2048 bytes, printable ASCII.');

export const AssignmentLinkAssignment = Type.Object(
  {
    number: Type.String({ description: 'The issued number, domestic notation.' }),
    name: Nullable(Type.String({ description: 'The end user\'s name as identity verification returned it.' })),
    consumedAt: DateTime(),
    releasedAt: Nullable(DateTime({ description: 'When the number was returned; null while the account holds it.' })),
  },
  { $id: 'AssignmentLinkAssignment', additionalProperties: false },
);

export const AssignmentLink = Type.Object(
  {
    linkId: Type.String({ description: 'Equals the create-time token and the LinkId of assignment.completed. Keep it inside your systems: it opens the issuing page.' }),
    url: Type.String({ description: 'The end user\'s issuing page.' }),
    status: StringEnum(LINK_STATUSES),
    createdAt: DateTime(),
    expiresAt: DateTime(),
    consumedAt: Nullable(DateTime()),
    webhookUrl: Nullable(Type.String()),
    webhookMethod: Nullable(StringEnum(['POST', 'GET'])),
    note: Nullable(Type.String()),
    returnUrl: Nullable(Type.String()),
    webhookHeaders: Nullable(WebhookHeaders),
    assignment: Nullable(AssignmentLinkAssignment),
  },
  { $id: 'AssignmentLink', additionalProperties: false },
);
export type AssignmentLinkWire = Static<typeof AssignmentLink>;

export const AssignmentLinkList = Type.Object({ data: Type.Array(AssignmentLink), meta: ListMetaSchema }, { $id: 'AssignmentLinkListResponse', additionalProperties: false });

export const AssignmentLinkCreated = Type.Object(
  { token: Type.String({ description: 'Equals linkId.' }), url: Type.String(), expiresAt: DateTime() },
  { $id: 'AssignmentLinkCreateResponse', additionalProperties: false },
);

export const CreateLinkBody = Type.Object(
  {
    webhookUrl: Type.Optional(HttpUrl({ description: 'Receives calls and messages of the issued number.' })),
    webhookMethod: Type.Optional(StringEnum(['POST', 'GET'], { default: 'POST' })),
    note: Type.Optional(Type.String({ maxLength: NOTE_MAX, description: 'Internal memo, returned in assignment.completed.' })),
    ttlSeconds: Type.Optional(Type.Integer({ minimum: TTL_MIN, maximum: TTL_MAX, description: 'Default 604800 (7 days).' })),
    returnUrl: Type.Optional(HttpUrl({ description: 'Its host must equal a registered issuing-page domain exactly (subdomains are not implied; else 400).' })),
    webhookHeaders: Type.Optional(Nullable(WebhookHeaders)),
  },
  { $id: 'AssignmentLinkCreateRequest', additionalProperties: false },
);
export type CreateLinkInput = Static<typeof CreateLinkBody>;

export const OkResult = Type.Object({ ok: Type.Boolean() }, { $id: 'OkResponse', additionalProperties: false });

// --- the session ---

export const ConsentItem = Type.Object(
  { clauseKey: Type.String({ minLength: 1, maxLength: 100 }), agreed: Type.Boolean() },
  { additionalProperties: false },
);
export const ConsentsBody = Type.Object(
  { items: Type.Array(ConsentItem, { minItems: 1, maxItems: 20 }) },
  { $id: 'AssignmentSessionConsentsRequest', additionalProperties: false },
);
export const SubscriberTypeBody = Type.Object(
  // A value outside the enum is the document's 422, not a 400 of the schema.
  { subscriberType: StringEnumRefusedBy('INVALID_SUBSCRIBER_TYPE', SUBSCRIBER_TYPES, { description: 'individual or corporate; any other value is 422 INVALID_SUBSCRIBER_TYPE.' }) },
  { $id: 'AssignmentSessionSubscriberTypeRequest', additionalProperties: false },
);
export const EmptyBody = Type.Object({}, { additionalProperties: false });

export const AssignmentSession = Type.Object(
  {
    status: StringEnum(['pending', 'consumed', 'revoked']),
    step: StringEnum(SESSION_STEPS),
    orgName: Type.String(),
    brandLogoUrl: Nullable(Type.String()),
    brandServiceName: Nullable(Type.String()),
    brandColor: Nullable(Type.String()),
    returnUrl: Nullable(Type.String()),
    subscriberType: Nullable(StringEnum(SUBSCRIBER_TYPES)),
    assignedNumber: Nullable(Type.String()),
  },
  { $id: 'AssignmentSession', additionalProperties: false },
);
export type AssignmentSessionWire = Static<typeof AssignmentSession>;

// --- stored form ---

const KycSnapshot = Type.Object(
  { id: Type.String(), name: Type.String(), birthDate: Type.String(), verifiedAt: DateTime() },
  { additionalProperties: false },
);

export const LinkRowSchema = Type.Object(
  {
    id: Type.String(), // the token
    accountId: Type.String(),
    url: Type.String(),
    status: StringEnum(LINK_STATUSES),
    createdAt: DateTime(),
    expiresAt: DateTime(),
    consumedAt: Nullable(DateTime()),
    revokedAt: Nullable(DateTime()),
    webhookUrl: Nullable(Type.String()),
    webhookMethod: StringEnum(['POST', 'GET']),
    webhookHeaders: Nullable(WebhookHeaders),
    note: Nullable(Type.String()),
    returnUrl: Nullable(Type.String()),
    number: Nullable(Type.String()), // the number issued at finalize
    // The session behind the link.
    step: StringEnum(SESSION_STEPS),
    subscriberType: Nullable(StringEnum(SUBSCRIBER_TYPES)),
    consents: Type.Array(ConsentItem),
    verificationIds: Type.Array(Type.String()), // identity verifications started, oldest first
    kyc: Nullable(KycSnapshot),
  },
  { additionalProperties: false },
);
export type LinkRow = Static<typeof LinkRowSchema>;

/** An organisation's issuing-page settings (the console's; the control plane or fixture here). */
export const IssuingPageSchema = Type.Object(
  {
    domains: Type.Array(Type.String({ description: 'A host name, lowercase.' }), { description: 'Hosts a returnUrl may use, matched exactly.' }),
    brandServiceName: Nullable(Type.String({ maxLength: 50, description: 'Shown on the issuing page instead of the organisation name.' })),
    brandColor: Nullable(Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: 'Accent colour of the page, #rrggbb.' })),
    brandLogoUrl: Nullable(Type.String({ format: 'uri', maxLength: 2048, pattern: '^https://', description: 'An https image shown on the page.' })),
  },
  { additionalProperties: false },
);
export type IssuingPage = Static<typeof IssuingPageSchema>;

export const AssignmentLinksStateSchema = Type.Object(
  {
    links: Type.Array(LinkRowSchema),
    issuingPages: Type.Record(Type.String(), IssuingPageSchema),
  },
  { additionalProperties: false },
);
export type AssignmentLinksState = Static<typeof AssignmentLinksStateSchema>;
