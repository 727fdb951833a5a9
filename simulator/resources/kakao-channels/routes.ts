// HTTP surface of messenger channel connections, as the public API document shapes them:
// categories, the token request (202), connect (201, or 200 when already connected), list,
// get (checks the channel at the messenger) and disconnect (200 with the channel).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { requiredChannelId } from './channel-query.ts';
import { operation } from './scope.ts';
import { RequiredParam, StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { CATEGORIES, messengerErrors } from '../../peers/messenger/model.ts';
import { kakaoChannelErrors as E } from './model.ts';
import { ConnectBody, KakaoCategoryList, KakaoChannel, KakaoChannelList, KakaoTemplateList, TokenRequestBody, TokenRequested } from './schema.ts';
import type { TemplateRow } from '../messages/schema.ts';
import { operations as brandOperations } from './brand-routes.ts';

const TAG = 'Kakao channels';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const channelParams = {
  ...account,
  channelId: Type.String({ description: 'The messenger\'s channel id (channelId of the connection) or, as today\'s SDK sends it, the connection\'s own id.' }),
};
const phoneErrors = [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY];

const channelOperations = [
  operation({
    operationId: 'listKakaoChannelCategories',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/channel-categories',
    tag: TAG,
    summary: 'Business categories a channel can be filed under',
    description: 'Send a `code` as the connect request\'s `categoryCode`. The list is the messenger\'s; do not hard-code it.',
    origin: 'reference',
    auth: 'account',
    params: account,
    responses: { 200: { description: 'Every category (one page).', schema: KakaoCategoryList } },
    errors: [messengerErrors.PROVIDER_UNAVAILABLE],
    handler: (ctx) => {
      ctx.scope.messenger.call();
      return reply.ok({ data: CATEGORIES, meta: { fetchedAt: ctx.scope.clock.nowIso(), cached: false } });
    },
  }),
  operation({
    operationId: 'listKakaoChannels',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/channels',
    tag: TAG,
    summary: 'Channels connected to the account',
    description: 'As stored, newest first, without asking the messenger (getKakaoChannel checks one). A token asked for without connecting makes no channel.',
    origin: 'reference',
    auth: 'account',
    params: account,
    query: { status: StringEnum(['connected', 'needs_attention', 'all'], { description: 'Default all.' }), ...standardPagingParams },
    responses: { 200: { description: 'A page of channels.', schema: KakaoChannelList } },
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const page = pageOf(ctx.scope.kakaoChannels.list(ctx.accountId, (ctx.query.status as 'all' | undefined) ?? 'all'), paging);
      return reply.json(200, ctx.scope.kakaoChannels.wire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'requestKakaoChannelToken',
    method: 'POST',
    path: '/v1/accounts/{accountId}/kakao/channels/token',
    tag: TAG,
    summary: 'Have the messenger send a token to a channel manager\'s phone',
    description: 'The first step of connecting a channel. The token goes to the manager\'s phone only (the simulator: GET /_sim/messenger/tokens/{phone}); it is never in a response. Valid 5 minutes; another can be asked for after retryAfterSeconds.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: TokenRequestBody,
    bodyRequired: true,
    responses: { 202: { description: 'Sent to the manager.', schema: TokenRequested } },
    errors: [...phoneErrors, messengerErrors.CHANNEL_NOT_FOUND, messengerErrors.MANAGER_NOT_REGISTERED, messengerErrors.RATE_LIMITED, messengerErrors.PROVIDER_UNAVAILABLE],
    handler: (ctx) => ({ status: 202, body: ctx.scope.kakaoChannels.requestToken(ctx.accountId, ctx.body) }),
  }),
  operation({
    operationId: 'createKakaoChannel',
    method: 'POST',
    path: '/v1/accounts/{accountId}/kakao/channels',
    tag: TAG,
    summary: 'Connect a channel with the manager\'s token',
    description: 'Send the token request\'s searchId and phoneNumber again with the token. Idempotent: a channel already connected to this account answers 200 with the connection, using no token; a new connection answers 201. A channel connected to another account is 409. After a timeout, read the list rather than retrying.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: ConnectBody,
    bodyRequired: true,
    responses: {
      200: { description: 'Already connected to this account.', schema: KakaoChannel },
      201: { description: 'Connected.', schema: KakaoChannel },
    },
    errors: [...phoneErrors, E.UNKNOWN_CATEGORY, messengerErrors.CHANNEL_NOT_FOUND, messengerErrors.MANAGER_NOT_REGISTERED, E.ALREADY_LINKED, E.TOKEN_INVALID, messengerErrors.RATE_LIMITED, messengerErrors.PROVIDER_UNAVAILABLE],
    handler: (ctx) => {
      const { row, created } = ctx.scope.kakaoChannels.connect(ctx.accountId, ctx.body);
      return reply.json(created ? 201 : 200, ctx.scope.kakaoChannels.wire.json(row));
    },
  }),
  operation({
    operationId: 'getKakaoChannel',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/channels/{channelId}',
    tag: TAG,
    summary: 'Get a connected channel, checked at the messenger',
    description: 'Unlike the list, asks the messenger and updates `status` and `syncedAt`: needs_attention when the channel is gone there or the check failed (never 404 for that); connected again once a check finds it.',
    origin: 'reference',
    auth: 'account',
    params: channelParams,
    writesOnRead: true, // status and syncedAt change with the check
    responses: { 200: { description: 'The channel.', schema: KakaoChannel } },
    errors: [E.CHANNEL_NOT_FOUND],
    handler: (ctx) => reply.json(200, ctx.scope.kakaoChannels.wire.json(ctx.scope.kakaoChannels.check(ctx.accountId, ctx.params.channelId))),
  }),
  operation({
    operationId: 'deleteKakaoChannel',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/kakao/channels/{channelId}',
    tag: TAG,
    summary: 'Disconnect a channel (and delete its templates)',
    description: 'Irreversible: the account\'s templates on the channel are deleted too. The channel itself stays at the messenger and can be connected again, by any account, starting with a new token. On 429 or 503 nothing was disconnected.',
    origin: 'reference',
    auth: 'account',
    params: channelParams,
    responses: { 200: { description: 'The channel as it was.', schema: KakaoChannel } },
    errors: [E.CHANNEL_NOT_FOUND, messengerErrors.RATE_LIMITED, messengerErrors.PROVIDER_UNAVAILABLE],
    handler: (ctx) => reply.json(200, ctx.scope.kakaoChannels.wire.json(ctx.scope.kakaoChannels.disconnect(ctx.accountId, ctx.params.channelId))),
  }),
  operation({
    operationId: 'listKakaoTemplates',
    method: 'GET',
    path: '/v1/accounts/{accountId}/kakao/templates',
    tag: TAG,
    summary: 'Notification templates of one of the account\'s channels',
    description: 'Newest first. `channelId` takes the connection\'s own id or the messenger\'s channel id. Review happens at the messenger (the simulator: templates are planted through the control plane); `sendable` says whether a message can use the template now.',
    origin: 'simulator',
    basis: 'the official Node SDK lists templates here (docs/compatibility.md); the public API document has no such operation',
    auth: 'account',
    params: account,
    query: { channelId: RequiredParam(Type.String({ minLength: 1, description: 'Required (400 without, as the real service): the connection\'s id or the messenger\'s channel id.' })), ...standardPagingParams },
    responses: { 200: { description: 'A page of templates.', schema: KakaoTemplateList } },
    handler: (ctx) => {
      const channels = ctx.scope.kakaoChannels;
      const named = requiredChannelId(ctx.query.channelId);
      const wanted = channels.find(ctx.accountId, named)?.channelId ?? named;
      const rows = ctx.scope.messages.templates.list(ctx.accountId).filter((t) => t.channelId === wanted);
      const page = pageOf(rows, parsePaging(ctx.query as PagingQuery));
      const shown = (t: TemplateRow) => channels.find(ctx.accountId, t.channelId)?.id ?? t.channelId;
      return reply.ok({ data: page.data.map((t) => templateListWire(t, shown(t))), meta: page.meta });
    },
  }),
];

export const operations = [...channelOperations, ...brandOperations];

function templateListWire(t: TemplateRow, channelId: string) {
  return {
    id: t.id,
    channelId,
    name: t.name,
    content: t.body,
    status: t.status,
    dormant: t.status === 'DORMANT',
    sendable: t.status === 'APPROVED',
    assignType: 'CHANNEL',
    messageType: 'BA',
    emphasizeType: 'NONE',
    variables: t.variables,
    createdAt: t.createdAt,
    updatedAt: t.updatedAt ?? t.createdAt,
  };
}
