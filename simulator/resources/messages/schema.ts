// Messages (spec "Message"), shaped exactly after the public API document: the send body is
// PascalCase (To, From, Body, Type, Subject, MediaUrl, IdempotencyKey, Kakao, Fallback), the
// response camelCase (MessageResponse). `ata` (messenger notification template) is sent with
// `Kakao: {ChannelId, TemplateId, Variables}`; its templates live in the fixture and the
// control plane.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HTTP_URL_PATTERN, Nullable, PhoneNumber, StringEnum, withDescription } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import { present, withRules } from '../../core/schema-rules.ts';
import { SEND_RULES } from './send-rules.ts';
import type { IdFormat } from '../../core/ids.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const MESSAGE_IDS = {
  message: { prefix: 'MG', hex: 32 },
  kakaoTemplate: { prefix: 'KA01TP', hex: 26 },
  brandTemplate: { prefix: 'BT', hex: 24 },
  brandImage: { prefix: 'bimg_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

/** bms (messenger brand message) since the real service added it in 2026-09 (docs/compatibility.md). */
export const MESSAGE_TYPES = ['sms', 'lms', 'mms', 'ata', 'bms'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];
export const TEXT_TYPES = ['sms', 'lms', 'mms'] as const;
export type TextType = (typeof TEXT_TYPES)[number];
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'received'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const DIRECTIONS = ['outbound', 'inbound'] as const;

/** Template review states; only APPROVED templates can be sent. */
export const TEMPLATE_STATUSES = ['APPROVED', 'PENDING', 'REJECTED', 'DORMANT'] as const;

export const Message = Type.Object(
  {
    messageId: Type.String({ description: '"MG" followed by 32 hex digits.' }),
    status: StringEnum(MESSAGE_STATUSES, { description: 'queued (accepted), then sent or failed; inbound messages are received.' }),
    type: StringEnum(MESSAGE_TYPES, { description: 'For ata the body is the template with its variables substituted.' }),
    subject: Nullable(Type.String({ description: 'LMS and MMS only.' })),
    to: Type.String({ description: 'Domestic notation.' }),
    from: Type.String({ description: 'Domestic notation.' }),
    body: Nullable(Type.String()),
    numMedia: Type.Integer({ description: 'Attached images.' }),
    mediaUrl: Type.Array(Type.String(), { description: 'Absolute API URLs of the stored images (getMessageMedia, index from 0); they need the API key.' }),
    direction: StringEnum(DIRECTIONS),
    accountId: Type.String(),
    dateCreated: DateTime(),
    dateUpdated: Nullable(DateTime({ description: 'When the carrier reported the outcome; null while queued and for inbound messages.' })),
  },
  { $id: 'Message', additionalProperties: false },
);
export type MessageWire = Static<typeof Message>;

export const MessageList = Type.Object({ data: Type.Array(Message), meta: ListMetaSchema }, { $id: 'MessageList', additionalProperties: false });

const KakaoBody = Type.Object(
  {
    ChannelId: Type.String({ minLength: 1, description: 'The connected messenger channel.' }),
    TemplateId: Type.String({ minLength: 1, description: 'An approved template of that channel.' }),
    Variables: Type.Optional(
      Nullable(
        Type.Record(Type.String(), Type.String(), {
          description: 'Template variables; a key may be written as "name" or "#{name}". Every variable of the template is required and none other is accepted.',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

/** One chat bubble of a free-form brand message; bubble types carry more fields, which pass through. */
const BrandFreeBody = Type.Object(
  {
    chatBubbleType: Type.String({ minLength: 1, maxLength: 40, description: 'TEXT, IMAGE, WIDE, WIDE_ITEM_LIST, CAROUSEL_FEED, COMMERCE, CAROUSEL_COMMERCE (an open set).' }),
    content: Type.Optional(Nullable(Type.String({ maxLength: 1300, description: 'The bubble text; required (non-empty) for TEXT.' }))),
    imageId: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'An uploaded brand image (createKakaoBrandImage); required for IMAGE and WIDE.' }))),
  },
  { additionalProperties: true },
);

const BrandBody = withRules(
  Type.Object(
    {
      ChannelId: Type.String({ minLength: 1, description: 'The connection\'s own id or the messenger\'s channel id.' }),
      TemplateId: Type.Optional(Nullable(Type.String({ minLength: 1, description: 'A brand template of that channel (exclusive with Free).' }))),
      Variables: Type.Optional(Nullable(Type.Record(Type.String(), Type.String(), { description: 'The brand template\'s variables, as for Kakao.' }))),
      Free: Type.Optional(Nullable(BrandFreeBody)),
    },
    { additionalProperties: false },
  ),
  [{ description: 'Exactly one of TemplateId and Free.', code: 'VALIDATION', schema: { oneOf: [present('TemplateId'), present('Free')] } }],
);

const FallbackBody = Type.Object(
  {
    Body: Type.Optional(Nullable(Type.String({ description: 'Text sent instead; default: the rendered template.' }))),
    Subject: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    Type: Type.Optional(Nullable(StringEnum(TEXT_TYPES, { description: 'Default: chosen from the length and subject.' }))),
    Disabled: Type.Optional(Nullable(Type.Boolean({ description: 'true: no text is sent when the ata message fails.' }))),
  },
  { additionalProperties: false },
);

/** An image to fetch: a URL (the pipeline checks), http or https, whose path ends in .jpg, .jpeg, .png or .bmp (content.ts checkMediaUrls). */
const MediaUrlItem = withRules(Type.String({ format: 'uri', maxLength: 2048 }), [
  { description: 'Only http and https URLs can be fetched.', code: 'media_download_failed', schema: { pattern: HTTP_URL_PATTERN } },
  {
    description: 'Its path ends in .jpg, .jpeg, .png or .bmp (any case).',
    code: 'invalid_media_ext',
    schema: { pattern: '^[^:]+://[^/?#]+/[^?#]*\\.(?:[Jj][Pp][Ee]?[Gg]|[Pp][Nn][Gg]|[Bb][Mm][Pp])(?:[?#].*)?$' },
  },
]);

export const SendMessageBody = withRules(
  Type.Object(
    {
      To: PhoneNumber({ description: 'Recipient; hyphens and +82 accepted, stored in domestic notation.' }),
      From: PhoneNumber({ description: 'A number the account owns.' }),
      Body: Type.Optional(Nullable(Type.String({ description: 'Required for sms, lms and mms; refused with Kakao (the template is the body). An sms body is at most 90 EUC-KR bytes (45 Hangul characters; 400 body_too_long), lms and mms 2000 characters.' }))),
      Type: Type.Optional(
        Nullable(
          StringEnum(MESSAGE_TYPES, {
            description: 'Omitted: ata with Kakao, mms with MediaUrl, lms with Subject or a body over 90 EUC-KR bytes, else sms.',
          }),
        ),
      ),
      Subject: Type.Optional(Nullable(Type.String({ maxLength: 2000, description: 'LMS and MMS only.' }))),
      MediaUrl: Type.Optional(
        Nullable(Type.Array(MediaUrlItem, { maxItems: 3, description: 'MMS images (jpg, jpeg, png, bmp), at most 3.' })),
      ),
      IdempotencyKey: Type.Optional(
        Nullable(Type.String({ minLength: 1, maxLength: 255, description: 'A repeated key returns the first message instead of sending again.' })),
      ),
      Kakao: Type.Optional(Nullable(KakaoBody)),
      Brand: Type.Optional(
        Nullable(withDescription(BrandBody, 'A messenger brand message (type bms): exactly one of TemplateId and Free; nothing else beside it, no Fallback (docs/compatibility.md).')),
      ),
      Fallback: Type.Optional(Nullable(FallbackBody)),
    },
    { $id: 'SendMessageRequest', additionalProperties: false },
  ),
  SEND_RULES,
);
export type SendMessageInput = Static<typeof SendMessageBody>;

// --- stored state ---

const FallbackPlanSchema = Type.Object(
  { type: StringEnum(TEXT_TYPES), body: Type.String(), subject: Nullable(Type.String()) },
  { additionalProperties: false },
);
export type FallbackPlan = Static<typeof FallbackPlanSchema>;

export const StoredMediaSchema = Type.Object(
  {
    source: Type.String(), // the URL the image was downloaded from (MediaUrl as given)
    contentType: Type.String(), // what getMessageMedia answers with
    base64: Type.String(), // the stored image
  },
  { additionalProperties: false },
);
export type StoredMedia = Static<typeof StoredMediaSchema>;

export const BrandSentSchema = Type.Object(
  {
    channelId: Type.String(), // the messenger's channel id
    templateId: Nullable(Type.String()), // the brand template, or null for a free-form bubble
    chatBubbleType: Type.String(),
    imageId: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
export type BrandSent = Static<typeof BrandSentSchema>;

export const MessageRowSchema = Type.Object(
  {
    id: Type.String(), // the messageId
    accountId: Type.String(),
    direction: StringEnum(DIRECTIONS),
    type: StringEnum(MESSAGE_TYPES),
    status: StringEnum(MESSAGE_STATUSES),
    from: Type.String(),
    to: Type.String(),
    subject: Nullable(Type.String()),
    body: Nullable(Type.String()),
    mediaUrl: Type.Array(Type.String()), // API paths of the stored images (getMessageMedia); answers put the origin in front
    media: Type.Array(StoredMediaSchema), // the images, in MediaUrl order
    dateCreated: DateTime(),
    dateUpdated: Nullable(DateTime()),
    idempotencyKey: Nullable(Type.String()), // maps a repeated send of the account to this message
    linkId: Nullable(Type.String()), // the assignment link the `from` number was issued through (usage)
    template: Nullable(Type.Object({ channelId: Type.String(), templateId: Type.String() }, { additionalProperties: false })),
    fallback: Nullable(FallbackPlanSchema), // the text to send when this ata message fails
    fallbackFor: Nullable(Type.String()), // the ata message this text replaces
    brand: Type.Optional(BrandSentSchema), // what a bms message was built from; absent for other types
  },
  { additionalProperties: false },
);
export type MessageRow = Static<typeof MessageRowSchema>;

export const TemplateRowSchema = Type.Object(
  {
    id: Type.String(), // the templateId
    accountId: Type.String(),
    channelId: Type.String(),
    name: Type.String(),
    body: Type.String(), // with #{variable} placeholders
    variables: Type.Array(Type.String()), // names without #{}; body placeholders plus those of buttons and highlights
    status: StringEnum(TEMPLATE_STATUSES),
    createdAt: DateTime(),
    updatedAt: Type.Optional(DateTime()), // the last control-plane change; absent until one (and in older snapshots)
  },
  { additionalProperties: false },
);
export type TemplateRow = Static<typeof TemplateRowSchema>;

export const BrandTemplateRowSchema = Type.Object(
  {
    id: Type.String(), // the templateId
    accountId: Type.String(),
    channelId: Type.String(), // the messenger's channel id
    name: Type.String(),
    chatBubbleType: Type.String(),
    content: Nullable(Type.String()), // with #{variable} placeholders; null for bubble types without a text slot
    header: Nullable(Type.String()), // WIDE_ITEM_LIST only
    variables: Type.Array(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { additionalProperties: false },
);
export type BrandTemplateRow = Static<typeof BrandTemplateRowSchema>;

export const BrandImageRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    bubbleType: Type.String(),
    slot: Type.String(), // main or sub (the small items of a wide list)
    name: Type.Optional(Nullable(Type.String())), // the file name the upload gave its image part; optional: older snapshots
    contentType: Type.String(), // image/jpeg or image/png, from the file's own bytes
    size: Type.Integer(), // bytes
    sha256: Type.String(), // of the uploaded bytes, which are not kept (nothing renders them)
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type BrandImageRow = Static<typeof BrandImageRowSchema>;

export const MessagesStateSchema = Type.Object(
  {
    messages: Type.Array(MessageRowSchema),
    templates: Type.Array(TemplateRowSchema),
    brandTemplates: Type.Optional(Type.Array(BrandTemplateRowSchema)), // optional: snapshots from before brand messages
    brandImages: Type.Optional(Type.Array(BrandImageRowSchema)),
  },
  { additionalProperties: false },
);
export type MessagesState = Static<typeof MessagesStateSchema>;

// --- control plane ---

export const KakaoTemplate = Type.Object(
  {
    templateId: Type.String(),
    accountId: Type.String(),
    channelId: Type.String(),
    name: Type.String(),
    body: Type.String(),
    variables: Type.Array(Type.String()),
    status: StringEnum(TEMPLATE_STATUSES),
    sendable: Type.Boolean({ description: 'true only for APPROVED templates.' }),
    createdAt: DateTime(),
  },
  { $id: 'SimKakaoTemplate', additionalProperties: false },
);

const TemplateBodyText = Type.String({ minLength: 1, maxLength: 1000, description: 'Template text with #{variable} placeholders.' });
const VariableNames = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
  maxItems: 100,
  description: 'Every variable the template needs (written with or without #{}); default: the placeholders of `body`. Must include them all; extra names stand for variables in buttons or highlight text.',
});

export const CreateTemplateBody = Type.Object(
  {
    templateId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Default: generated ("KA01TP" + 26 hex digits).' })),
    channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    body: TemplateBodyText,
    variables: Type.Optional(VariableNames),
    status: Type.Optional(StringEnum(TEMPLATE_STATUSES, { default: 'APPROVED' })),
  },
  { $id: 'SimCreateKakaoTemplate', additionalProperties: false },
);
export type CreateTemplateInput = Static<typeof CreateTemplateBody>;

export const UpdateTemplateBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    body: Type.Optional(TemplateBodyText),
    variables: Type.Optional(VariableNames),
    status: Type.Optional(StringEnum(TEMPLATE_STATUSES)),
  },
  { $id: 'SimUpdateKakaoTemplate', additionalProperties: false },
);
export type UpdateTemplateInput = Static<typeof UpdateTemplateBody>;

export const InboundMessageBody = Type.Object(
  {
    from: PhoneNumber({ description: 'The sending phone.' }),
    to: PhoneNumber({ description: 'A number some account owns.' }),
    body: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    subject: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    mediaUrl: Type.Optional(Type.Array(Type.String({ format: 'uri', maxLength: 2048 }), { maxItems: 3 })),
    type: Type.Optional(StringEnum(TEXT_TYPES, { description: 'Default: mms with media, lms with a subject or a long body, else sms.' })),
  },
  { $id: 'SimInboundMessage', additionalProperties: false },
);
export type InboundMessageInput = Static<typeof InboundMessageBody>;

export const UsageRecord = Type.Object(
  {
    messageId: Type.String(),
    meter: StringEnum(MESSAGE_TYPES),
    unit: Type.Literal('count'),
    quantity: Type.Integer(),
    day: Type.String({ format: 'date', description: 'UTC day the message was accepted.' }),
    phoneNumber: Type.String({ description: 'The account\'s number it was sent from.' }),
    linkId: Nullable(Type.String({ description: 'Assignment link that number was issued through; null otherwise.' })),
    at: DateTime(),
  },
  { $id: 'SimMessageUsageRecord', additionalProperties: false },
);
export type UsageRecordWire = Static<typeof UsageRecord>;

const QuotaLine = Type.Object(
  {
    used: Type.Integer({ description: 'Outbound messages of the month not ended in failure.' }),
    limit: Type.Integer({ description: 'The plan\'s monthly cap; 0 means the type is not offered.' }),
    overage: Type.Boolean({ description: 'An overage add-on lifts the cap.' }),
  },
  { additionalProperties: false },
);

export const QuotaView = Type.Object(
  {
    month: Type.String({ description: 'The UTC calendar month, YYYY-MM.' }),
    types: Type.Object({ sms: QuotaLine, lms: QuotaLine, mms: QuotaLine, ata: QuotaLine, bms: QuotaLine }, { additionalProperties: false }),
    operationsCap: Type.Object(
      {
        used: Type.Integer({ description: 'Outbound messages of all types this month that count.' }),
        limit: Nullable(Type.Integer({ description: 'messagingOps.monthlyCap; null: no operations cap.' })),
      },
      { additionalProperties: false },
    ),
  },
  { $id: 'SimMessageQuota', additionalProperties: false },
);

// --- brand templates and images (control plane plants templates; the API uploads images) ---

export const CreateBrandTemplateBody = Type.Object(
  {
    templateId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'Default: generated ("BT" + 24 hex digits).' })),
    channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The messenger\'s channel id.' }),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    chatBubbleType: Type.Optional(Type.String({ minLength: 1, maxLength: 40, default: 'TEXT' })),
    content: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1300, description: 'Text with #{variable} placeholders; null for bubble types without a text slot.' }))),
    header: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 200 }))),
    variables: Type.Optional(VariableNames),
  },
  { $id: 'SimCreateKakaoBrandTemplate', additionalProperties: false },
);
export type CreateBrandTemplateInput = Static<typeof CreateBrandTemplateBody>;
