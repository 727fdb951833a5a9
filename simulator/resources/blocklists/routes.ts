// HTTP surface of the block lists. Recipient operations match the public API document (path,
// operationId, wire names, 201 new / 200 existing, DELETE answers 200 with the entry); caller
// operations are shaped the same way (docs/decisions.md, "Blocked callers").
import { Type } from '@sinclair/typebox';
import { reply, type Reply, type ScopedCtx } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { PhoneNumber, StringEnum, withDescription } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import type { BlockList, StatusFilter } from './model.ts';
import { blockErrors } from './model.ts';
import type { BlockRow } from './schema.ts';
import { operation, type BlockListsScope } from './scope.ts';
import { normalizeRecipient, normalizeRecipientFilter, recipientFromAliases } from './recipient.ts';
import { BlockedCaller, BlockedCallerList, BlockedRecipient, BlockedRecipientList, CHANNELS, CreateBlockedCallerBody, CreateBlockedRecipientBody, RecipientValue, ReleaseBody, STATUS_FILTER, UpdateBlockedRecipientBody } from './schema.ts';

const account = { accountId: Type.String({ description: 'Account id.' }) };
const phoneErrors = [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY];

const listQuery = {
  number: PhoneNumber({ description: 'Exact match after normalisation (hyphens and +82 accepted).' }),
  status: StringEnum(STATUS_FILTER, { default: 'active', description: 'active (default), released, or all.' }),
  ...standardPagingParams,
};

function listReply(list: BlockList, ctx: ScopedCtx<BlockListsScope>, filter: { number?: string; field?: string; channel?: string; status?: StatusFilter }): Reply {
  const paging = parsePaging(ctx.query as PagingQuery);
  const rows = list.list(ctx.accountId, { ...filter, status: filter.status ?? 'active' });
  const page = pageOf(rows, paging);
  return reply.json(200, list.wire.list(page.data, page.meta));
}

function rowReply(list: BlockList, status: number, row: BlockRow): Reply {
  return reply.json(status, list.wire.json(row));
}

const TAG_CALLERS = 'Blocked callers';
const TAG_RECIPIENTS = 'Blocked recipients';

export const operations = [
  // --- blocked callers ---
  operation({
    operationId: 'listBlockedCallers',
    method: 'GET',
    path: '/v1/accounts/{accountId}/blocked-callers',
    tag: TAG_CALLERS,
    summary: 'List blocked callers',
    description: 'Newest first; `total` counts entries matching the filter before paging. Released entries appear with status=released or all.',
    origin: 'spec',
    auth: 'account',
    params: account,
    query: listQuery,
    responses: { 200: { description: 'A page of blocked callers.', schema: BlockedCallerList } },
    errors: phoneErrors,
    handler: (ctx) => listReply(ctx.scope.blockLists.callers, ctx, { number: ctx.query.number, status: ctx.query.status }),
  }),
  operation({
    operationId: 'getBlockedCaller',
    method: 'GET',
    path: '/v1/accounts/{accountId}/blocked-callers/{blockedCallerId}',
    tag: TAG_CALLERS,
    summary: 'Get a blocked caller',
    description: 'Released entries are returned with active=false.',
    origin: 'spec',
    auth: 'account',
    params: { ...account, blockedCallerId: Type.String() },
    responses: { 200: { description: 'The entry.', schema: BlockedCaller } },
    errors: [blockErrors.BLOCKED_CALLER_NOT_FOUND],
    handler: (ctx) => {
      const list = ctx.scope.blockLists.callers;
      return rowReply(list, 200, list.get(ctx.accountId, ctx.params.blockedCallerId));
    },
  }),
  operation({
    operationId: 'createBlockedCaller',
    method: 'POST',
    path: '/v1/accounts/{accountId}/blocked-callers',
    tag: TAG_CALLERS,
    summary: 'Block a caller',
    description: 'Calls from the number are rejected without answering. Idempotent: an active entry for the same number is returned with 200; a new entry answers 201.',
    origin: 'simulator',
    basis: 'shaped after createBlockedRecipient of the public API document',
    auth: 'account',
    params: account,
    body: CreateBlockedCallerBody,
    bodyRequired: true,
    responses: {
      201: { description: 'A new entry.', schema: BlockedCaller },
      200: { description: 'The number was already blocked; the existing entry.', schema: BlockedCaller },
    },
    errors: phoneErrors,
    handler: (ctx) => {
      const list = ctx.scope.blockLists.callers;
      const { row, created } = list.create(ctx.accountId, { number: ctx.body.number, note: ctx.body.note, source: 'api', createdBy: null });
      return rowReply(list, created ? 201 : 200, row);
    },
  }),
  operation({
    operationId: 'releaseBlockedCaller',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/blocked-callers/{blockedCallerId}',
    tag: TAG_CALLERS,
    summary: 'Release a blocked caller',
    description: 'The entry is kept as history with active=false and the unblocked* fields set. Releasing again succeeds and keeps the first release.',
    origin: 'simulator',
    basis: 'shaped after releaseBlockedRecipient of the public API document',
    auth: 'account',
    params: { ...account, blockedCallerId: Type.String() },
    body: ReleaseBody,
    responses: { 200: { description: 'The released entry.', schema: BlockedCaller } },
    errors: [blockErrors.BLOCKED_CALLER_NOT_FOUND],
    handler: (ctx) => {
      const list = ctx.scope.blockLists.callers;
      return rowReply(list, 200, list.release(ctx.accountId, ctx.params.blockedCallerId, { note: ctx.body?.note, source: 'api', by: null }));
    },
  }),

  // --- blocked recipients (opt-outs) ---
  operation({
    operationId: 'listBlockedRecipients',
    method: 'GET',
    path: '/v1/accounts/{accountId}/blocked-recipients',
    tag: TAG_RECIPIENTS,
    summary: 'List blocked recipients',
    description: 'Newest first; active entries by default. The same number under each channel is a separate entry.',
    origin: 'reference',
    auth: 'account',
    params: account,
    query: {
      channel: StringEnum(CHANNELS, { description: 'call, message or email; all channels when omitted.' }),
      ...listQuery,
      number: withDescription(RecipientValue, 'Exact match after normalisation: a phone number (hyphens and +82 accepted) or, holding "@", an email address (local part at most 64 characters, the address at most 254); with channel=email it must be an address.'),
      recipient: withDescription(RecipientValue, 'Alias of `number` (the real service renamed it); when both are sent they must agree.'),
    },
    responses: { 200: { description: 'A page of blocked recipients.', schema: BlockedRecipientList } },
    errors: phoneErrors,
    handler: (ctx) => {
      const { number, recipient, channel, status } = ctx.query;
      const given = number === undefined && recipient === undefined ? undefined : recipientFromAliases({ number, recipient }, (v, f) => normalizeRecipientFilter(v, channel, f));
      return listReply(ctx.scope.blockLists.recipients, ctx, { number: given, field: number === undefined ? 'recipient' : 'number', channel, status });
    },
  }),
  operation({
    operationId: 'getBlockedRecipient',
    method: 'GET',
    path: '/v1/accounts/{accountId}/blocked-recipients/{blockId}',
    tag: TAG_RECIPIENTS,
    summary: 'Get a blocked recipient',
    description: 'Released entries are returned with active=false.',
    origin: 'reference',
    auth: 'account',
    params: { ...account, blockId: Type.String() },
    responses: { 200: { description: 'The entry.', schema: BlockedRecipient } },
    errors: [blockErrors.BLOCKED_RECIPIENT_NOT_FOUND],
    handler: (ctx) => {
      const list = ctx.scope.blockLists.recipients;
      return rowReply(list, 200, list.get(ctx.accountId, ctx.params.blockId));
    },
  }),
  operation({
    operationId: 'createBlockedRecipient',
    method: 'POST',
    path: '/v1/accounts/{accountId}/blocked-recipients',
    tag: TAG_RECIPIENTS,
    summary: 'Opt a recipient out',
    description: 'Outbound calls or messages of this account to the number are refused with 422 recipient_blocked. Idempotent: an active entry for the same number and channel is returned with 200; a new entry answers 201.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: CreateBlockedRecipientBody,
    bodyRequired: true,
    responses: {
      201: { description: 'A new entry.', schema: BlockedRecipient },
      200: { description: 'Already blocked; the existing entry.', schema: BlockedRecipient },
    },
    errors: phoneErrors,
    handler: (ctx) => {
      const list = ctx.scope.blockLists.recipients;
      const b = ctx.body;
      const number = recipientFromAliases(b, (v, field) => normalizeRecipient(v, b.channel, field));
      const { row, created } = list.create(ctx.accountId, {
        number,
        field: b.number === undefined ? 'recipient' : 'number',
        channel: b.channel,
        note: b.note,
        source: b.source ?? 'api',
        sourceRef: b.sourceRef,
        createdBy: null,
      });
      return rowReply(list, created ? 201 : 200, row);
    },
  }),
  operation({
    operationId: 'updateBlockedRecipient',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/blocked-recipients/{blockId}',
    tag: TAG_RECIPIENTS,
    summary: 'Change the note of a blocked recipient',
    description: 'null or "" clears the note; an omitted note leaves it. Number and channel cannot be changed: release the entry and register a new one.',
    origin: 'spec',
    auth: 'account',
    params: { ...account, blockId: Type.String() },
    body: UpdateBlockedRecipientBody,
    immutable: { fields: ['number', 'channel'], advice: 'release the entry (DELETE) and register a new one' },
    responses: { 200: { description: 'The entry.', schema: BlockedRecipient } },
    errors: [blockErrors.BLOCKED_RECIPIENT_NOT_FOUND, errorCodes.IMMUTABLE_FIELD],
    handler: (ctx) => {
      const list = ctx.scope.blockLists.recipients;
      return rowReply(list, 200, list.updateNote(ctx.accountId, ctx.params.blockId, ctx.body?.note));
    },
  }),
  operation({
    operationId: 'releaseBlockedRecipient',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/blocked-recipients/{blockId}',
    tag: TAG_RECIPIENTS,
    summary: 'Release a blocked recipient',
    description: 'The entry is kept as history with active=false and the unblocked* fields set. Releasing again succeeds and keeps the first release.',
    origin: 'reference',
    auth: 'account',
    params: { ...account, blockId: Type.String() },
    body: ReleaseBody,
    responses: { 200: { description: 'The released entry.', schema: BlockedRecipient } },
    errors: [blockErrors.BLOCKED_RECIPIENT_NOT_FOUND],
    handler: (ctx) => {
      const list = ctx.scope.blockLists.recipients;
      return rowReply(list, 200, list.release(ctx.accountId, ctx.params.blockId, { note: ctx.body?.note, source: 'api', by: null }));
    },
  }),
];
