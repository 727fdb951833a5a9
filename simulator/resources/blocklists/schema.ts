// Block lists: inbound caller blocks and recipient opt-outs (spec "Blocked caller", "Blocked
// recipient"). Recipient shapes follow the public API document exactly; caller shapes are
// shaped after them (the reference has no caller block operations).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, PhoneNumber, StringEnum, StringEnumRefusedBy, StringRefusedBy, withDescription } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import type { IdFormat } from '../../core/ids.ts';
import { withRules, type SchemaRule } from '../../core/schema-rules.ts';
import { PHONE_PATTERN } from '../../core/phone.ts';
import { HOST_NAME_BODY } from '../../core/domain.ts';

/** Id formats of this family's rows (core/ids.ts; listed in resources/index.ts). */
export const BLOCKLIST_IDS = {
  blockedCaller: { prefix: 'bc_', hex: 24 },
  blockedRecipient: { prefix: 'blk_', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const CALLER_SOURCES = ['console', 'api', 'mcp'] as const;
/** Values the public API may register (spec); internal intake adds ars, sms and agent. */
export const RECIPIENT_API_SOURCES = ['api', 'console', 'import'] as const;
export const RECIPIENT_SOURCES = ['api', 'console', 'import', 'ars', 'sms', 'agent'] as const;
export const CHANNELS = ['call', 'message', 'email'] as const;
/** The channels an outbound call or text checks (an `email` entry never blocks either). */
export type PhoneChannel = 'call' | 'message';
export const STATUS_FILTER = ['active', 'released', 'all'] as const;

const Note = Type.String({ maxLength: 500, description: 'Free memo, at most 500 characters.' });

export const BlockedCaller = Type.Object(
  {
    id: Type.String(),
    number: Type.String({ description: 'Blocked caller number, domestic notation.' }),
    active: Type.Boolean({ description: 'false for released entries, which stay as history.' }),
    source: Type.String({ description: 'Registration path: console, api, mcp.' }),
    note: Nullable(Type.String()),
    createdBy: Nullable(Type.String({ description: 'null when registered by API key.' })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    unblockedAt: Nullable(DateTime({ description: 'null means currently blocked.' })),
    unblockedSource: Nullable(Type.String()),
    unblockedBy: Nullable(Type.String({ description: 'null when released by API key.' })),
    unblockedNote: Nullable(Type.String()),
  },
  { $id: 'BlockedCaller', additionalProperties: false },
);

export const BlockedRecipient = Type.Object(
  {
    id: Type.String(),
    number: Type.String({ description: 'Opted-out number in domestic notation, or the lowercased address for the email channel.' }),
    // Optional in the contract: the spec's shape has no such field, so a target without it is not faulted.
    recipient: Type.Optional(Type.String({ description: 'The same value as `number`: the name the real service uses since 2026-09 (docs/compatibility.md). Always sent by the simulator.' })),
    channel: StringEnum(CHANNELS, { description: 'call, message (SMS, LMS and MMS) or email; each channel is a separate entry.' }),
    active: Type.Boolean(),
    source: Type.String({ description: 'api, console or import from the public API; ars, sms, agent from internal intake.' }),
    sourceRef: Nullable(Type.String({ description: 'Evidence link (a call or message id).' })),
    note: Nullable(Type.String()),
    createdBy: Nullable(Type.String({ description: 'null for automatic intake and API keys.' })),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    unblockedAt: Nullable(DateTime()),
    unblockedSource: Nullable(Type.String()),
    unblockedBy: Nullable(Type.String({ description: 'null for automatic release and API keys.' })),
    unblockedNote: Nullable(Type.String()),
  },
  { $id: 'BlockedRecipient', additionalProperties: false },
);

export const BlockedCallerList = Type.Object(
  { data: Type.Array(BlockedCaller), meta: ListMetaSchema },
  { $id: 'BlockedCallerList', additionalProperties: false },
);
export const BlockedRecipientList = Type.Object(
  { data: Type.Array(BlockedRecipient), meta: ListMetaSchema },
  { $id: 'BlockedRecipientList', additionalProperties: false },
);

export const CreateBlockedCallerBody = Type.Object(
  {
    number: PhoneNumber({ description: 'Hyphens and +82 accepted; stored in domestic notation.' }),
    note: Type.Optional(Nullable(Note)),
  },
  { $id: 'CreateBlockedCallerRequest', additionalProperties: false },
);

/** An email address at most 254 characters long (RFC 5321's path limit). */
const LOCAL_ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]{1,64}";
/** recipient.ts normalizeEmail: a dot-atom local part, "@", a host name; 64 and 254 characters at most (said in words). */
const EMAIL_PATTERN = `^\\s*${LOCAL_ATOM}(?:\\.${LOCAL_ATOM})*@${HOST_NAME_BODY}\\s*$`;

/** A phone number, or an email address (holding "@"); which one a channel takes is a rule of the body. */
export const RecipientValue = StringRefusedBy('INVALID_PHONE_NUMBER', {
  minLength: 1,
  maxLength: 254,
  pattern: `${PHONE_PATTERN}|${EMAIL_PATTERN}`,
  description: 'A phone number (hyphens and +82 accepted; stored in domestic notation), or an email address for the email channel (stored lowercased; local part at most 64 characters, the address at most 254; 400 VALIDATION otherwise).',
});

const recipientAs = (pattern: string) => ({ properties: { number: { pattern }, recipient: { pattern } } });
const channelIs = (...channels: string[]) => ({ required: ['channel'], properties: { channel: { enum: channels } } });
/** createBlockedRecipient across fields (recipient.ts recipientFromAliases and normalizeRecipient). */
const RECIPIENT_RULES: SchemaRule[] = [
  { description: 'number or its alias recipient is required.', code: 'VALIDATION', schema: { anyOf: [{ required: ['number'] }, { required: ['recipient'] }] } },
  { description: 'The email channel takes an email address.', code: 'VALIDATION', schema: { anyOf: [{ not: channelIs('email') }, recipientAs(EMAIL_PATTERN)] } },
  { description: 'The call and message channels take a phone number.', code: 'INVALID_PHONE_NUMBER', schema: { anyOf: [{ not: channelIs('call', 'message') }, recipientAs(PHONE_PATTERN)] } },
];

export const CreateBlockedRecipientBody = withRules(
  Type.Object(
    {
      number: Type.Optional(RecipientValue),
      recipient: Type.Optional(withDescription(RecipientValue, 'Alias of `number` (the real service renamed it); when both are sent they must agree.')),
      channel: StringEnum(CHANNELS),
      source: Type.Optional(StringEnum(RECIPIENT_API_SOURCES, { default: 'api' })),
      sourceRef: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
      note: Type.Optional(Nullable(Note)),
    },
    { $id: 'CreateBlockedRecipientRequest', additionalProperties: false },
  ),
  RECIPIENT_RULES,
);

export const UpdateBlockedRecipientBody = Type.Object(
  { note: Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'null or "" clears the note; omitted leaves it.' }))) },
  { $id: 'UpdateBlockedRecipientRequest', additionalProperties: false },
);

export const ReleaseBody = Type.Object(
  { note: Type.Optional(Nullable(Type.String({ maxLength: 500, description: 'Release memo, stored as unblockedNote.' }))) },
  { $id: 'ReleaseBlockRequest', additionalProperties: false },
);

// --- stored state: one row shape for both lists (channel and sourceRef null for callers) ---

export const BlockRowSchema = Type.Object(
  {
    id: Type.String(),
    accountId: Type.String(),
    number: Type.String(),
    channel: Nullable(StringEnum(CHANNELS)),
    active: Type.Boolean(),
    source: Type.String(),
    sourceRef: Nullable(Type.String()),
    note: Nullable(Type.String()),
    createdBy: Nullable(Type.String()),
    createdAt: DateTime(),
    updatedAt: DateTime(),
    unblockedAt: Nullable(DateTime()),
    unblockedSource: Nullable(Type.String()),
    unblockedBy: Nullable(Type.String()),
    unblockedNote: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
export type BlockRow = Static<typeof BlockRowSchema>;

export const BlockListsStateSchema = Type.Object(
  { callers: Type.Array(BlockRowSchema), recipients: Type.Array(BlockRowSchema) },
  { additionalProperties: false },
);
export type BlockListsState = Static<typeof BlockListsStateSchema>;

// --- control plane: intake through paths other than the API key ---

export const IntakeBlockedCallerBody = Type.Object(
  {
    number: PhoneNumber(),
    note: Type.Optional(Nullable(Note)),
    source: Type.Optional(StringEnum(CALLER_SOURCES, { default: 'console' })),
    createdBy: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
  },
  { additionalProperties: false },
);

export const IntakeBlockedRecipientBody = withRules(
  Type.Object(
    {
      number: withDescription(RecipientValue, 'A phone number, or an email address for the email channel (local part at most 64 characters, the address at most 254).'),
      channel: StringEnum(CHANNELS),
      note: Type.Optional(Nullable(Note)),
      source: Type.Optional(StringEnum(RECIPIENT_SOURCES, { default: 'ars' })),
      sourceRef: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
      createdBy: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    },
    { additionalProperties: false },
  ),
  RECIPIENT_RULES.slice(1), // the channel rules; `number` is required here
);

/** The release body of the caller list or the recipient list: `source` takes that list's sources. */
export const intakeReleaseBody = (sources: readonly string[]) =>
  Type.Object(
    {
      note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
      source: Type.Optional(StringEnumRefusedBy('VALIDATION', sources, { description: 'unblockedSource; the same value set as the list\'s source.' })),
      by: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    },
    { additionalProperties: false },
  );
