// HTTP surface of call batches, at the public API document's paths with its operationIds,
// wire names and statuses: createCallBatch (200 with warnings), listCallBatches
// ({callBatches}, unpaged), getCallBatch, listCallBatchTasks ({tasks}, pages from 1, 50 by
// default, at most 500), addCallBatchTasks (200 {added}), controlCallBatch (200 batch).
// Bodies carrying Tasks may be up to 10 MB; other operations keep the general limit.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { iso } from '../../core/clock.ts';
import { StringEnum } from '../../core/schema.ts';
import { ALIAS_OF_PAGE_SIZE, parsePaging, type PagingQuery, type PagingRules } from '../../core/paging.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { callErrors } from '../calls/errors.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import { batchErrors, type CallBatchesModel } from './model.ts';
import { operation } from './scope.ts';
import type { Live } from './live.ts';
import { clockText } from './windows.ts';
import {
  AddCallBatchTasksBody,
  AddedTasks,
  CallBatch,
  CallBatchList,
  CallBatchTaskList,
  ControlCallBatchBody,
  CreateCallBatchBody,
  CreatedCallBatch,
  TASKS_BODY_LIMIT_BYTES,
  TASK_STATUSES,
  type RoundRow,
  type TaskRow,
} from './schema.ts';

const TAG = 'Call batches';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const batchParams = { ...account, batchId: Type.String() };
const TASK_PAGING: PagingRules = { firstPage: 1, defaultPageSize: 50, maxPageSize: 500 };

function roundWire(r: RoundRow) {
  return {
    ...(r.after !== null ? { after: r.after } : {}),
    ...(r.on !== null ? { on: r.on } : {}),
    ...(r.windows !== null ? { windows: r.windows.map((w) => ({ days: w.days, start: clockText(w.start), end: clockText(w.end) })) } : {}),
  };
}

export function batchWire(live: Live) {
  const b = live.batch;
  return {
    batchId: b.id,
    name: b.name,
    status: b.status,
    from: b.from,
    callFlowId: b.callFlowId,
    agentId: b.agentId,
    url: b.url,
    maxConcurrency: b.maxConcurrency,
    pacingPerMinute: b.pacingPerMinute,
    timezone: b.timezone,
    startAt: b.startAt === null ? null : iso(b.startAt),
    endAt: b.endAt === null ? null : iso(b.endAt),
    machineDetection: b.machineDetection,
    rounds: b.rounds.map(roundWire),
    messagePolicy:
      b.onFirstFail === null && b.onFinalFail === null
        ? null
        : { ...(b.onFirstFail !== null ? { onFirstFail: { body: b.onFirstFail } } : {}), ...(b.onFinalFail !== null ? { onFinalFail: { body: b.onFinalFail } } : {}) },
    dateCreated: iso(b.dateCreated),
    dateUpdated: iso(b.dateUpdated),
    counts: { ...live.counts },
  };
}

function taskWire(batches: CallBatchesModel, live: Live, t: TaskRow) {
  const expected = batches.expectedDialAt(live, t);
  return {
    taskId: t.id,
    to: t.to,
    status: t.status,
    attempt: t.attempt,
    dialRound: t.dialRound,
    nextAttemptAt: t.nextAttemptAt === null ? null : iso(t.nextAttemptAt),
    expectedDialAt: expected === null ? null : iso(expected),
    callId: t.callId,
    disposition: t.disposition,
    answeredBy: t.answeredBy,
    result: t.result,
    lastError: t.lastError,
    messageKind: t.messageKind,
    messageStatus: t.messageStatus,
    messageDeliveryStatus: t.messageDeliveryStatus,
    messageError: t.messageError,
  };
}

export const operations = [
  operation({
    operationId: 'createCallBatch',
    method: 'POST',
    path: '/v1/accounts/{accountId}/call-batches',
    tag: TAG,
    summary: 'Create a call batch (campaign)',
    description:
      'Answers at once (200, as the reference); the batch then dials on the virtual clock within its limits: MaxConcurrency calls at once, PacingPerMinute dials a minute, each round in its Windows (days 1 = Monday to 7 = Sunday, HH:MM, in Timezone) and always within the legal calling hours 08:00 to 21:00 Korea time. Round n+1 dials a recipient After minutes after its round-n call ended, only when that call\'s outcome is in On. Recipients opted out of calls are suppressed at dial time. `warnings` (only in this answer) notes a sender that never sent a text and a text quota below the recipient count. The body may be up to 10 MB (413 above).',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: CreateCallBatchBody,
    bodyRequired: true,
    maxBodyBytes: TASKS_BODY_LIMIT_BYTES,
    responses: { 200: { description: 'The batch, with warnings.', schema: CreatedCallBatch } },
    errors: [
      errorCodes.INVALID_PHONE_NUMBER,
      errorCodes.UNSUPPORTED_COUNTRY,
      outboundErrors.FROM_NOT_REGISTERED,
      outboundErrors.NO_SUBSCRIPTION,
      batchErrors.INVALID_TARGET,
      batchErrors.INVALID_ROUND,
      batchErrors.INVALID_ROUND_OUTCOME,
      batchErrors.INVALID_WINDOW,
      batchErrors.WINDOW_UNSATISFIABLE,
      batchErrors.INVALID_TIMEZONE,
      batchErrors.END_BEFORE_START,
      batchErrors.END_IN_PAST,
      batchErrors.FIRST_FAIL_WITHOUT_RETRY,
      batchErrors.MESSAGE_VARIABLE_MISSING,
      batchErrors.TASKS_REQUIRED,
      callErrors.CALL_FLOW_NOT_FOUND,
      callErrors.CALL_FLOW_UNREADABLE,
      callErrors.AGENT_NOT_FOUND,
      receiverErrors.URL_BLOCKED,
    ],
    handler: (ctx) => {
      const { live, warnings } = ctx.scope.callBatches.create(ctx.accountId, ctx.body);
      return reply.ok({ ...batchWire(live), warnings });
    },
  }),
  operation({
    operationId: 'listCallBatches',
    method: 'GET',
    path: '/v1/accounts/{accountId}/call-batches',
    tag: TAG,
    summary: 'List call batches',
    description: 'Every batch of the account, newest first, unpaged, under `callBatches` (as the reference).',
    origin: 'reference',
    auth: 'account',
    params: account,
    responses: { 200: { description: 'The batches.', schema: CallBatchList } },
    handler: (ctx) => reply.ok({ callBatches: ctx.scope.callBatches.list(ctx.accountId).map(batchWire) }),
  }),
  operation({
    operationId: 'getCallBatch',
    method: 'GET',
    path: '/v1/accounts/{accountId}/call-batches/{batchId}',
    tag: TAG,
    summary: 'Get a call batch',
    description: 'The batch with `counts`: recipients per task status, summing to the number of recipients.',
    origin: 'spec',
    auth: 'account',
    params: batchParams,
    responses: { 200: { description: 'The batch.', schema: CallBatch } },
    errors: [batchErrors.NOT_FOUND],
    handler: (ctx) => reply.ok(batchWire(ctx.scope.callBatches.get(ctx.accountId, ctx.params.batchId))),
  }),
  operation({
    operationId: 'listCallBatchTasks',
    method: 'GET',
    path: '/v1/accounts/{accountId}/call-batches/{batchId}/tasks',
    tag: TAG,
    summary: 'List the recipients of a call batch and their results',
    description:
      'In the order they were added. Pages count from 1 (50 rows by default, at most 500), as the reference; `meta` (page, pageSize, total) is added. `expectedDialAt` is the policy time moved into the round\'s window and the legal hours (null unless pending); concurrency and pacing may still delay the dial.',
    origin: 'reference',
    auth: 'account',
    params: batchParams,
    query: {
      status: StringEnum(TASK_STATUSES, { description: 'Only tasks in this status.' }),
      page: Type.Integer({ minimum: 1, default: 1, description: 'Page number, counted from 1.' }),
      pageSize: Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Rows per page (1 to 500).' }),
      page_size: Type.Integer({ minimum: 1, maximum: 500, deprecated: true, description: ALIAS_OF_PAGE_SIZE }),
      limit: Type.Integer({ minimum: 1, maximum: 500, deprecated: true, description: ALIAS_OF_PAGE_SIZE }),
    },
    responses: { 200: { description: 'A page of tasks.', schema: CallBatchTaskList } },
    errors: [batchErrors.NOT_FOUND],
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery, TASK_PAGING);
      const m = ctx.scope.callBatches;
      const live = m.get(ctx.accountId, ctx.params.batchId);
      const page = m.tasks(live, ctx.query.status, paging.page, paging.pageSize);
      return reply.ok({ tasks: page.rows.map((t) => taskWire(ctx.scope.callBatches, live, t)), meta: { page: paging.page, pageSize: paging.pageSize, total: page.total } });
    },
  }),
  operation({
    operationId: 'addCallBatchTasks',
    method: 'POST',
    path: '/v1/accounts/{accountId}/call-batches/{batchId}/tasks',
    tag: TAG,
    summary: 'Add recipients to a call batch',
    description: 'To a batch not yet completed, canceled or expired (409 otherwise); the new recipients start at round 1. Checked like creation\'s Tasks. The body may be up to 10 MB (413 above).',
    origin: 'reference',
    auth: 'account',
    params: batchParams,
    body: AddCallBatchTasksBody,
    bodyRequired: true,
    maxBodyBytes: TASKS_BODY_LIMIT_BYTES,
    responses: { 200: { description: 'How many were added.', schema: AddedTasks } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY, batchErrors.NOT_FOUND, batchErrors.ENDED, batchErrors.MESSAGE_VARIABLE_MISSING],
    handler: (ctx) => reply.ok({ added: ctx.scope.callBatches.addTasks(ctx.accountId, ctx.params.batchId, ctx.body.Tasks) }),
  }),
  operation({
    operationId: 'controlCallBatch',
    method: 'POST',
    path: '/v1/accounts/{accountId}/call-batches/{batchId}/actions',
    tag: TAG,
    summary: 'Pause, resume or cancel a call batch',
    description:
      'pause: no new dials; calls in progress go on (scheduled or running batches). resume: a paused or draft batch dials again (scheduled while StartAt is ahead). cancel: pending recipients are canceled, calls in progress go on. An ended batch answers 409 call_batch_ended; an action that does not fit the state 409 call_batch_action_not_allowed; both carry `status` and change nothing.',
    origin: 'reference',
    auth: 'account',
    params: batchParams,
    body: ControlCallBatchBody,
    bodyRequired: true,
    responses: { 200: { description: 'The batch after the action.', schema: CallBatch } },
    errors: [batchErrors.NOT_FOUND, batchErrors.INVALID_ACTION, batchErrors.ENDED, batchErrors.ACTION_NOT_ALLOWED],
    handler: (ctx) => reply.ok(batchWire(ctx.scope.callBatches.control(ctx.accountId, ctx.params.batchId, ctx.body.Action))),
  }),
];
