// The block lists' /_sim routes: intake and release through paths other than the API key
// (console, MCP, the ARS opt-out menu, text replies), so tests can see every `source` and `*By`
// value (docs/control-plane.md, "Block lists").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { ApiError, errorCodes } from '../../core/errors.ts';
import { accountErrors } from '../accounts/errors.ts';
import { blockErrors } from './model.ts';
import { operation } from './scope.ts';
import {
  BlockedCaller,
  BlockedRecipient,
  CALLER_SOURCES,
  IntakeBlockedCallerBody,
  IntakeBlockedRecipientBody,
  intakeReleaseBody,
  RECIPIENT_SOURCES,
} from './schema.ts';

const TAG = 'Control plane';

const accountParam = { accountId: Type.String() };

export const operations = [
  operation({
    operationId: 'simIntakeBlockedCaller',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-callers',
    tag: TAG,
    summary: 'Register a caller block through another path (console, mcp)',
    description: 'Like createBlockedCaller, but with the `source` and `createdBy` a console user or MCP client would leave.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: IntakeBlockedCallerBody,
    bodyRequired: true,
    responses: { 201: { description: 'A new entry.', schema: BlockedCaller }, 200: { description: 'The existing active entry.', schema: BlockedCaller } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const list = scope.blockLists.callers;
      const { row, created } = list.create(params.accountId, { number: body.number, note: body.note, source: body.source ?? 'console', createdBy: body.createdBy ?? null });
      return reply.json(created ? 201 : 200, list.wire.json(row));
    },
  }),
  operation({
    operationId: 'simReleaseBlockedCaller',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-callers/{blockedCallerId}/release',
    tag: TAG,
    summary: 'Release a caller block through another path',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, blockedCallerId: Type.String() },
    body: intakeReleaseBody(CALLER_SOURCES),
    responses: { 200: { description: 'The released entry.', schema: BlockedCaller } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, blockErrors.BLOCKED_CALLER_NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const source = body?.source ?? 'console';
      if (!(CALLER_SOURCES as readonly string[]).includes(source)) {
        throw ApiError.validation(`source must be one of ${CALLER_SOURCES.join(', ')}`, [{ path: 'source', message: 'unknown source' }]);
      }
      const list = scope.blockLists.callers;
      return reply.json(200, list.wire.json(list.release(params.accountId, params.blockedCallerId, { note: body?.note, source, by: body?.by ?? null })));
    },
  }),
  operation({
    operationId: 'simIntakeBlockedRecipient',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-recipients',
    tag: TAG,
    summary: 'Register an opt-out through an internal intake path (ars, sms, agent, console, import)',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: IntakeBlockedRecipientBody,
    bodyRequired: true,
    responses: { 201: { description: 'A new entry.', schema: BlockedRecipient }, 200: { description: 'The existing active entry.', schema: BlockedRecipient } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const list = scope.blockLists.recipients;
      const { row, created } = list.create(params.accountId, {
        number: body.number,
        channel: body.channel,
        note: body.note,
        source: body.source ?? 'ars',
        sourceRef: body.sourceRef,
        createdBy: body.createdBy ?? null,
      });
      return reply.json(created ? 201 : 200, list.wire.json(row));
    },
  }),
  operation({
    operationId: 'simReleaseBlockedRecipient',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/blocked-recipients/{blockId}/release',
    tag: TAG,
    summary: 'Release an opt-out through another path (automatic release has `by` null)',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, blockId: Type.String() },
    body: intakeReleaseBody(RECIPIENT_SOURCES),
    responses: { 200: { description: 'The released entry.', schema: BlockedRecipient } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, blockErrors.BLOCKED_RECIPIENT_NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const source = body?.source ?? 'console';
      if (!(RECIPIENT_SOURCES as readonly string[]).includes(source)) {
        throw ApiError.validation(`source must be one of ${RECIPIENT_SOURCES.join(', ')}`, [{ path: 'source', message: 'unknown source' }]);
      }
      const list = scope.blockLists.recipients;
      return reply.json(200, list.wire.json(list.release(params.accountId, params.blockId, { note: body?.note, source, by: body?.by ?? null })));
    },
  }),
];
