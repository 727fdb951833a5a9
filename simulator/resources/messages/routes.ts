// HTTP surface of messages: sendMessage, listMessages and getMessage with the public API
// document's paths, operationIds, wire names and statuses (201 for a send).
import { Type } from '@sinclair/typebox';
import { apiOrigin, reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { PhoneNumber, StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { messageErrors as E } from './errors.ts';
import { MESSAGE_STATUSES, MESSAGE_TYPES, Message, MessageList, SendMessageBody } from './schema.ts';
import { operation } from './scope.ts';

const TAG = 'Messages';
const account = { accountId: Type.String({ description: 'Account id.' }) };

export const operations = [
  operation({
    operationId: 'sendMessage',
    method: 'POST',
    path: '/v1/accounts/{accountId}/messages',
    tag: TAG,
    summary: 'Send an sms, lms, mms or ata message',
    description:
      'Accepted messages answer 201 with status `queued`; the carrier reports `sent` or `failed` later (message.sent / message.failed). `From` must be a number the account owns. With `Kakao` the message is `ata`: the approved template with `Variables` substituted; `Fallback` says which text replaces it if it fails. A refused send stores and counts nothing. A repeated `IdempotencyKey` returns the first message without sending.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: SendMessageBody,
    bodyRequired: true,
    responses: { 201: { description: 'Accepted (or the message first sent with this IdempotencyKey).', schema: Message } },
    errors: [
      errorCodes.INVALID_PHONE_NUMBER,
      errorCodes.UNSUPPORTED_COUNTRY,
      E.FROM_NOT_REGISTERED,
      E.INVALID_INPUT,
      E.BODY_TOO_LONG,
      E.SMS_NO_SUBJECT,
      E.SMS_NO_MEDIA,
      E.LMS_NO_MEDIA,
      E.INVALID_MEDIA_EXT,
      E.MEDIA_DOWNLOAD_FAILED,
      E.KAKAO_TYPE_MISMATCH,
      E.KAKAO_BODY_NOT_ALLOWED,
      E.KAKAO_FIELD_NOT_ALLOWED,
      E.FALLBACK_WITHOUT_KAKAO,
      E.KAKAO_TEMPLATE_NOT_FOUND,
      E.KAKAO_VARIABLE_MISSING,
      E.KAKAO_VARIABLE_UNKNOWN,
      E.NO_SUBSCRIPTION,
      E.MESSAGING_BLOCKED,
      E.RECIPIENT_BLOCKED,
      E.KAKAO_TEMPLATE_NOT_SENDABLE,
      E.TYPE_NOT_SUPPORTED,
      E.QUOTA_EXCEEDED,
      E.OVERRIDE_QUOTA_EXCEEDED,
      E.KAKAO_BRAND_REQUIRED,
      E.KAKAO_FALLBACK_NOT_ALLOWED,
      E.KAKAO_BRAND_TEMPLATE_NOT_FOUND,
      E.KAKAO_BRAND_BODY_EMPTY,
      E.KAKAO_BRAND_IMAGE_NOT_FOUND,
      E.KAKAO_BRAND_NIGHT_BLOCKED,
    ],
    handler: (ctx) => {
      const { row } = ctx.scope.messages.send(ctx.accountId, ctx.body);
      return reply.json(201, ctx.scope.messages.wireAt(apiOrigin(ctx.request)).json(row));
    },
  }),
  operation({
    operationId: 'listMessages',
    method: 'GET',
    path: '/v1/accounts/{accountId}/messages',
    tag: TAG,
    summary: 'List sent and received messages',
    description: 'Sent and received messages together, newest first, told apart by `direction`. `total` counts the messages matching the filter.',
    origin: 'reference',
    auth: 'account',
    params: account,
    query: {
      type: StringEnum(MESSAGE_TYPES, { description: 'sms, lms, mms or ata.' }),
      status: StringEnum(MESSAGE_STATUSES),
      number: PhoneNumber({ description: 'Sender or recipient (either side), compared after normalisation (hyphens and +82 accepted).' }),
      ...standardPagingParams,
    },
    responses: { 200: { description: 'A page of messages.', schema: MessageList } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const rows = ctx.scope.messages.list(ctx.accountId, { type: ctx.query.type, status: ctx.query.status, number: ctx.query.number });
      const page = pageOf(rows, paging);
      return reply.json(200, ctx.scope.messages.wireAt(apiOrigin(ctx.request)).list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'getMessage',
    method: 'GET',
    path: '/v1/accounts/{accountId}/messages/{messageId}',
    tag: TAG,
    summary: 'Get a message',
    origin: 'spec',
    auth: 'account',
    params: { ...account, messageId: Type.String() },
    responses: { 200: { description: 'The message.', schema: Message } },
    errors: [E.MESSAGE_NOT_FOUND],
    handler: (ctx) => reply.json(200, ctx.scope.messages.wireAt(apiOrigin(ctx.request)).json(ctx.scope.messages.get(ctx.accountId, ctx.params.messageId))),
  }),
  operation({
    operationId: 'getMessageMedia',
    method: 'GET',
    path: '/v1/accounts/{accountId}/messages/{messageId}/media/{index}',
    tag: TAG,
    summary: 'Get an image of a message',
    description:
      'The stored image at `index` (from 0) of `mediaUrl`, as bytes. JPEG originals come back untouched; the service re-encodes PNG and BMP to JPEG (the simulator does for its default images only, see docs/decisions.md).',
    origin: 'reference',
    auth: 'account',
    params: { ...account, messageId: Type.String(), index: Type.String({ description: 'Position in mediaUrl, from 0.' }) },
    responses: { 200: { description: 'The image.', contentType: 'image/*' } },
    errors: [E.MESSAGE_NOT_FOUND, E.MEDIA_NOT_FOUND],
    handler: (ctx) => {
      const media = ctx.scope.messages.media(ctx.accountId, ctx.params.messageId, ctx.params.index);
      return { status: 200, headers: { 'content-type': media.contentType }, bytes: Buffer.from(media.base64, 'base64') };
    },
  }),
];
