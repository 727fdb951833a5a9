// The fake messenger's /_sim routes: the channels that exist on its side and their managers, a
// provider failure mode, and the tokens a manager's phone received. Documented in
// docs/control-plane.md, "Messenger".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { PhoneNumber, StringEnum } from '../../core/schema.ts';
import { normalizePhone } from '../../core/phone.ts';
import { FAILURE_MODES, MessengerChannelSchema, type FakeMessenger } from './model.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const MessengerView = Type.Object(
  { channels: Type.Array(MessengerChannelSchema), failure: StringEnum(FAILURE_MODES) },
  { $id: 'SimMessenger', additionalProperties: false },
);
/** A channel search id as the messenger reads it (model.ts normalizeSearchId). */
const SEARCH_ID_PATTERN = '^\\s*@?[A-Za-z0-9][A-Za-z0-9_.-]{0,63}\\s*$';
const PutChannelBody = Type.Object(
  {
    channelId: Type.String({ pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The messenger\'s channel id (templates name it).' }),
    name: Type.String({ minLength: 1, maxLength: 100 }),
    managers: Type.Array(PhoneNumber(), { minItems: 1, maxItems: 20, description: 'Phones registered as managers; any accepted spelling.' }),
  },
  { $id: 'SimMessengerChannelRequest', additionalProperties: false },
);
const FailureBody = Type.Object(
  { mode: StringEnum(FAILURE_MODES, { description: 'none; outage (503 KAKAO_PROVIDER_UNAVAILABLE); rate_limited (429 KAKAO_RATE_LIMITED).' }) },
  { $id: 'SimMessengerFailureRequest', additionalProperties: false },
);
const TokenView = Type.Object(
  {
    searchId: Type.String(),
    phoneNumber: Type.String(),
    token: Type.String(),
    sentAt: Type.String(),
    expiresAt: Type.String(),
    usedAt: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);
const TokenList = Type.Object({ phoneNumber: Type.String(), tokens: Type.Array(TokenView) }, { $id: 'SimMessengerTokens', additionalProperties: false });

function messengerView(messenger: FakeMessenger) {
  return { channels: messenger.listChannels(), failure: messenger.failure };
}

export const operations = [
  operation({
    operationId: 'simGetMessenger',
    method: 'GET',
    path: '/_sim/messenger',
    tag: TAG,
    summary: 'Channels at the fake messenger and its failure mode',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The messenger.', schema: MessengerView } },
    handler: ({ scope }) => reply.ok(messengerView(scope.messenger)),
  }),
  operation({
    operationId: 'simPutMessengerChannel',
    method: 'PUT',
    path: '/_sim/messenger/channels/{searchId}',
    tag: TAG,
    summary: 'Create or replace a channel at the messenger',
    description: 'Connections to it are unaffected until getKakaoChannel checks them.',
    origin: 'simulator',
    auth: 'control',
    params: { searchId: Type.String({ pattern: SEARCH_ID_PATTERN, description: 'A leading @ is dropped; compared in lowercase.' }) },
    body: PutChannelBody,
    bodyRequired: true,
    responses: { 200: { description: 'The channel.', schema: MessengerChannelSchema } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params, body }) => reply.ok(scope.messenger.putChannel({ searchId: params.searchId, ...body })),
  }),
  operation({
    operationId: 'simRemoveMessengerChannel',
    method: 'DELETE',
    path: '/_sim/messenger/channels/{searchId}',
    tag: TAG,
    summary: 'Remove a channel at the messenger',
    description: 'A connection to it shows needs_attention at its next getKakaoChannel.',
    origin: 'simulator',
    auth: 'control',
    params: { searchId: Type.String({ pattern: SEARCH_ID_PATTERN }) },
    responses: { 204: { description: 'Removed (or there was none).' } },
    handler: ({ scope, params }) => {
      scope.messenger.removeChannel(params.searchId);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simSetMessengerFailure',
    method: 'PUT',
    path: '/_sim/messenger/failure',
    tag: TAG,
    summary: 'Make the messenger fail (or work again)',
    description: 'While failing, categories, token requests, connects and disconnects are refused and change nothing; getKakaoChannel answers needs_attention.',
    origin: 'simulator',
    auth: 'control',
    body: FailureBody,
    bodyRequired: true,
    responses: { 200: { description: 'The messenger.', schema: MessengerView } },
    handler: ({ scope, body }) => {
      scope.messenger.failure = body.mode;
      return reply.ok(messengerView(scope.messenger));
    },
  }),
  operation({
    operationId: 'simGetMessengerTokens',
    method: 'GET',
    path: '/_sim/messenger/tokens/{phoneNumber}',
    tag: TAG,
    summary: 'The tokens a manager\'s phone received, newest first',
    description: 'The only place a channel token is shown.',
    origin: 'simulator',
    auth: 'control',
    params: { phoneNumber: PhoneNumber({ description: 'Any accepted spelling.' }) },
    responses: { 200: { description: 'The tokens.', schema: TokenList } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params }) => {
      const phoneNumber = normalizePhone(params.phoneNumber, 'phoneNumber');
      return reply.ok({ phoneNumber, tokens: scope.messenger.tokensSentTo(phoneNumber) });
    },
  }),
];
