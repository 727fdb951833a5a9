// Phone numbers the account owns, shaped after the public API document (NumberResponse,
// registerNumber, updateNumber): camelCase bodies, the number itself is the id.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, StringEnum, StringRefusedBy, wordListPattern } from '../../core/schema.ts';
import { PHONE_PATTERN } from '../../core/phone.ts';
import { atLeastOneField } from '../../core/schema-rules.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { ExtraHeaders } from '../../peers/webhooks/schema.ts';

const NOTHING = sharedErrors.NOTHING_TO_UPDATE.info.code;

export const ROUTING_TYPES = ['webhook', 'sip', 'softphone', 'forward', 'callflow', 'agent'] as const;
export type RoutingType = (typeof ROUTING_TYPES)[number];

/** Inbound status-callback events a number can subscribe to (reference: numbers guide). */
export const STATUS_CALLBACK_EVENTS = ['initiated', 'ringing', 'answered', 'completed', 'transfer'] as const;

const WebhookHeaders = ExtraHeaders('Headers added to inbound webhook requests. Keys start with "X-"; X-Signature, X-Forwarded-* and X-Real-IP are refused; at most 10 entries, key at most 64 bytes, value at most 2048 bytes, printable ASCII.');

/** What a number holds besides its identity: the same fields on the wire and in storage. */
const numberSettings = {
  source: Type.String({ description: '"pool" for numbers issued from the pool.' }),
  numberType: StringEnum(['did', 'representative']),
  routingType: StringEnum(ROUTING_TYPES),
  webhookUrl: Nullable(Type.String({ description: 'With routingType webhook, each inbound call requests it (webhookMethod, webhookHeaders, X-Signature) and runs the VoiceML it answers; without it the call is rejected.' })),
  webhookMethod: StringEnum(['POST', 'GET']),
  webhookHeaders: Nullable(WebhookHeaders),
  callContextUrl: Nullable(Type.String()),
  statusCallback: Nullable(Type.String()),
  statusCallbackEvents: Nullable(Type.String()),
  agentId: Nullable(Type.String()),
  callFlowId: Nullable(Type.String()),
  forwardTo: Nullable(Type.String()),
  sipEndpointId: Nullable(Type.String()),
  sipCredentialId: Nullable(Type.String()),
  dictionaryId: Nullable(Type.String()),
  createdAt: DateTime(),
};

export const PhoneNumber = Type.Object(
  { number: Type.String({ description: 'The number in domestic notation; also its id.' }), ...numberSettings },
  { $id: 'PhoneNumber', additionalProperties: false },
);
export type PhoneNumberWire = Static<typeof PhoneNumber>;

export const NumberList = Type.Object({ data: Type.Array(PhoneNumber) }, { $id: 'PhoneNumberList', additionalProperties: false });

const UrlString = HttpUrl({ emptyClears: true });
const EventList = Type.String({ maxLength: 200, pattern: wordListPattern(STATUS_CALLBACK_EVENTS), description: `Space-separated: ${STATUS_CALLBACK_EVENTS.join(' ')}; duplicates are kept once, "" clears.` });

export const RegisterNumberBody = Type.Object(
  {
    webhookUrl: Type.Optional(Nullable(UrlString)),
    webhookMethod: Type.Optional(StringEnum(['POST', 'GET'])),
    webhookHeaders: Type.Optional(Nullable(WebhookHeaders)),
    statusCallback: Type.Optional(Nullable(UrlString)),
    statusCallbackEvents: Type.Optional(Nullable(EventList)),
  },
  { $id: 'RegisterNumberRequest', additionalProperties: false },
);
export type RegisterNumberInput = Static<typeof RegisterNumberBody>;

export const UpdateNumberBody = atLeastOneField(
  Type.Object(
    {
      routingType: Type.Optional(StringEnum(ROUTING_TYPES)),
      webhookUrl: Type.Optional(Nullable(UrlString)),
      webhookMethod: Type.Optional(StringEnum(['POST', 'GET'])),
      webhookHeaders: Type.Optional(Nullable(WebhookHeaders)),
      callContextUrl: Type.Optional(Nullable(UrlString)),
      statusCallback: Type.Optional(Nullable(UrlString)),
      statusCallbackEvents: Type.Optional(Nullable(EventList)),
      agentId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
      callFlowId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
      forwardTo: Type.Optional(Nullable(StringRefusedBy('INVALID_FORWARD_TO', { maxLength: 40, pattern: PHONE_PATTERN, description: 'Another number of the account (routingType forward).' }))),
      sipEndpointId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
      sipCredentialId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
      dictionaryId: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
    },
    { $id: 'UpdateNumberRequest', additionalProperties: false },
  ),
  NOTHING,
);
export type UpdateNumberInput = Static<typeof UpdateNumberBody>;

// --- stored state ---

export const NumberRowSchema = Type.Object(
  {
    id: Type.String(), // the number
    accountId: Type.String(), // the owner
    ...numberSettings,
  },
  { additionalProperties: false },
);
export type NumberRow = Static<typeof NumberRowSchema>;

/** One holding of a number by an account: the usage `number` axis is cut at these boundaries. */
export const AssignmentRowSchema = Type.Object(
  {
    id: Type.String(),
    number: Type.String(),
    accountId: Type.String(),
    linkId: Nullable(Type.String()),
    from: DateTime(),
    to: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type AssignmentRow = Static<typeof AssignmentRowSchema>;

const PoolSchema = Type.Object(
  {
    first: Type.String(),
    size: Type.Integer({ minimum: 1 }),
    nextOffset: Type.Integer({ minimum: 0 }),
    returned: Type.Array(Type.String()),
  },
  { additionalProperties: false },
);
export type Pool = Static<typeof PoolSchema>;

export const NumbersStateSchema = Type.Object(
  {
    numbers: Type.Array(NumberRowSchema),
    assignments: Type.Array(AssignmentRowSchema),
    pool: PoolSchema,
    representativePool: Nullable(PoolSchema), // null: the fixture has none, so none can be issued
  },
  { additionalProperties: false },
);
export type NumbersState = Static<typeof NumbersStateSchema>;
