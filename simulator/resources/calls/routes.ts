// HTTP surface of calls: paths, operationIds, wire names and statuses of the public API
// document (createCall 201, getCall with transfers, listCalls without, updateCall 200).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { errorCodes } from '../../core/errors.ts';
import { DateTime, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import { callErrors } from './errors.ts';
import { transfersWire } from './transfers.ts';
import { CALL_STATUSES, Call, CallControlResponse, CallList, CreateCallBody, UpdateCallBody } from './schema.ts';

const TAG = 'Calls';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const phoneErrors = [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY];
const many = (description: string) => Type.Array(PhoneNumber(), { description: `${description} Repeat the parameter for several (any of them matches).` });

export const operations = [
  operation({
    operationId: 'createCall',
    method: 'POST',
    path: '/v1/accounts/{accountId}/calls',
    tag: TAG,
    summary: 'Place an outbound call',
    description:
      '201 means the call is queued, not connected: it rings, is answered or not, and ends on the virtual clock as the fake carrier decides (scripts and magic numbers, /_sim/carrier). With CallFlowId the flow runs once the call is answered and `callflow.ended` reports its variables. With Url the platform requests the URL once the call is answered (a signed, form-encoded POST with CallId, AccountId, From, To, Direction, CallStatus) and runs the VoiceML it returns verb by verb: Say, Play, Pause, Gather, Record, Dial, Redirect, Hangup, Reject; an unreachable URL, a non-2xx answer, a timeout, invalid XML or an unknown verb end the call with hangupCause app_error and hangupSource app; Connect/Stream is not simulated and ends the call the same way (README, "VoiceML"). The body may be JSON or application/x-www-form-urlencoded (the same fields; in a form, `Variables` and `CallContext` are JSON object strings, `StatusCallbackEvent` may repeat).',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: CreateCallBody,
    bodyRequired: true,
    // The public document lists form encoding too: Variables and CallContext as JSON object strings.
    bodyEncodings: ['json', 'form'],
    formSpaceLists: ['StatusCallbackEvent'],
    responses: { 201: { description: 'The queued call.', schema: Call } },
    errors: [
      ...phoneErrors,
      outboundErrors.FROM_NOT_REGISTERED,
      outboundErrors.NO_SUBSCRIPTION,
      outboundErrors.RECIPIENT_BLOCKED,
      receiverErrors.URL_BLOCKED,
      callErrors.CALL_FLOW_NOT_FOUND,
      callErrors.CALL_FLOW_UNREADABLE,
      callErrors.AGENT_NOT_FOUND,
      callErrors.AGENT_NOT_CONNECTED,
      callErrors.AI_MODE_REMOVED,
    ],
    handler: (ctx) => {
      if (ctx.body.AI !== undefined) throw callErrors.AI_MODE_REMOVED('the AI Completion mode was removed: give AgentId for a managed agent, or no mode for the Agent SDK connected to From');
      return reply.created({ ...ctx.scope.calls.wire.wire(ctx.scope.calls.create(ctx.accountId, ctx.body)) as object, transfers: [] });
    },
  }),
  operation({
    operationId: 'listCalls',
    method: 'GET',
    path: '/v1/accounts/{accountId}/calls',
    tag: TAG,
    summary: 'List calls',
    description:
      'Newest first. Several values of one parameter match any of them; parameters combine with AND. `number` matches either side; `since` is inclusive, `until` exclusive (on dateCreated); durations are inclusive; phone numbers in any accepted spelling. `transfers` is omitted.',
    origin: 'spec',
    auth: 'account',
    params: account,
    query: {
      status: StringEnum(CALL_STATUSES, { description: 'One of the nine call statuses.' }),
      from: many('Caller.'),
      to: many('Callee.'),
      number: many('Either side.'),
      since: DateTime({ description: 'Calls started at or after (inclusive).' }),
      until: DateTime({ description: 'Calls started before (exclusive).' }),
      minDuration: Type.Integer({ minimum: 0, description: 'Seconds, inclusive.' }),
      maxDuration: Type.Integer({ minimum: 0, description: 'Seconds, inclusive.' }),
      hangupCause: Type.Array(Type.String({ maxLength: 100 }), { description: 'Why the call ended; repeat for several.' }),
      ...standardPagingParams,
    },
    responses: { 200: { description: 'A page of calls.', schema: CallList } },
    errors: phoneErrors,
    handler: (ctx) => {
      const q = ctx.query;
      const paging = parsePaging(q as PagingQuery);
      const rows = ctx.scope.calls.list(ctx.accountId, {
        status: q.status,
        from: q.from,
        to: q.to,
        number: q.number,
        since: q.since,
        until: q.until,
        minDuration: q.minDuration,
        maxDuration: q.maxDuration,
        hangupCause: q.hangupCause,
      });
      const page = pageOf(rows, paging);
      return reply.json(200, ctx.scope.calls.wire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'getCall',
    method: 'GET',
    path: '/v1/accounts/{accountId}/calls/{callId}',
    tag: TAG,
    summary: 'Get a call',
    description: 'With `transfers`, the full chain of transfer legs ordered by sequence (call-flow dial blocks and control-plane transfers); the single transfer* fields are those of the representative leg.',
    origin: 'reference',
    auth: 'account',
    params: { ...account, callId: Type.String() },
    responses: { 200: { description: 'The call.', schema: Call } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: (ctx) => {
      const row = ctx.scope.calls.get(ctx.accountId, ctx.params.callId);
      const json = ctx.scope.calls.wire.json(row);
      return reply.json(200, `${json.slice(0, -1)},"transfers":${JSON.stringify(transfersWire(row.transfers ?? []))}}`);
    },
  }),
  operation({
    operationId: 'updateCall',
    method: 'POST',
    path: '/v1/accounts/{accountId}/calls/{callId}',
    tag: TAG,
    summary: 'Hang up a call',
    description:
      'Status=completed hangs up a connected call (completed) or cancels one still queued or ringing (canceled). A call that already ended answers 409 hangup_not_applicable with its callId and status; nothing changes (its transfer legs stay as they ended).',
    origin: 'reference',
    auth: 'account',
    params: { ...account, callId: Type.String() },
    body: UpdateCallBody,
    bodyRequired: true,
    responses: { 200: { description: 'The call after hanging up.', schema: CallControlResponse } },
    errors: [callErrors.CALL_NOT_FOUND, callErrors.HANGUP_NOT_APPLICABLE],
    handler: (ctx) => {
      const row = ctx.scope.calls.hangUp(ctx.accountId, ctx.params.callId);
      return reply.ok({ callId: row.id, status: row.status });
    },
  }),
];
