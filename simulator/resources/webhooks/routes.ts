// HTTP surface of account webhooks, exactly as the public API document shapes it: createWebhook
// (201), listWebhooks (`{data}`, unpaged), updateWebhook (PUT, partial), deleteWebhook (204),
// listWebhookLogs (paged, one row per attempt), testWebhook (200 `{ok, message}`).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { WireCache } from '../../core/wire.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import type { AttemptRow } from '../../peers/webhooks/schema.ts';
import type { ListedNames } from '../family.ts';
import { webhookErrors } from './model.ts';
import { operation } from './scope.ts';
import {
  createWebhookBody,
  updateWebhookBody,
  Webhook,
  WebhookList,
  WebhookLogList,
  WebhookTestResult,
  type WebhookRow,
  type WebhookWire,
} from './schema.ts';

export function webhookWire(r: WebhookRow): WebhookWire {
  return { id: r.id, account_id: r.accountId, url: r.url, events: r.events, active: r.active, created_at: r.createdAt };
}

/** One attempt as the public webhook log shows it (WebhookLogResponse). */
export function webhookLogWire(a: AttemptRow) {
  return {
    id: a.id,
    webhookId: a.webhookId ?? '',
    event: a.event,
    requestUrl: a.url,
    requestPayload: a.requestFields,
    responseStatus: a.responseStatus,
    responseBody: a.responseBody,
    responseTimeMs: a.status === 'pending' || a.responseStatus === null ? null : a.latencyMs,
    status: a.status,
    attempt: a.attempt,
    maxAttempts: a.maxAttempts,
    createdAt: a.createdAt,
    completedAt: a.completedAt,
  };
}

const wire = new WireCache(webhookWire);
const logWire = new WireCache(webhookLogWire);
const TAG = 'Webhooks';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const webhookParam = { ...account, webhookId: Type.String({ description: 'Webhook id.' }) };
const urlErrors = [receiverErrors.URL_BLOCKED];

/** Built once the list exists: the request bodies enumerate the subscribable events. */
export const operations = ({ events }: ListedNames) => [
  operation({
    operationId: 'createWebhook',
    method: 'POST',
    path: '/v1/accounts/{accountId}/webhooks',
    tag: TAG,
    summary: 'Register a webhook',
    description:
      'Events are delivered as form-encoded POSTs signed with X-Signature (see docs/webhooks.md), at least once: a non-2xx answer, connection error or timeout is retried. An account may register several webhooks. The URL is stored in its normalised form, which is also the URL the signature covers.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: createWebhookBody(events),
    bodyRequired: true,
    responses: { 201: { description: 'The webhook.', schema: Webhook } },
    errors: [webhookErrors.UNKNOWN_EVENT, ...urlErrors],
    handler: (ctx) => reply.json(201, wire.json(ctx.scope.webhooks.create(ctx.accountId, ctx.body))),
  }),
  operation({
    operationId: 'listWebhooks',
    method: 'GET',
    path: '/v1/accounts/{accountId}/webhooks',
    tag: TAG,
    summary: 'List the account\'s webhooks',
    description: 'All webhooks at once, newest first, without paging.',
    origin: 'reference',
    auth: 'account',
    params: account,
    responses: { 200: { description: 'Every webhook of the account.', schema: WebhookList } },
    handler: (ctx) => reply.json(200, wire.dataOnly(ctx.scope.webhooks.listFor(ctx.accountId))),
  }),
  operation({
    operationId: 'updateWebhook',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/webhooks/{webhookId}',
    tag: TAG,
    summary: 'Change a webhook\'s URL, events or active state',
    description: 'Partial update: omitted fields keep their values. Pending retries go to the new URL; deactivating drops them.',
    origin: 'reference',
    auth: 'account',
    params: webhookParam,
    body: updateWebhookBody(events),
    bodyRequired: true,
    responses: { 200: { description: 'The webhook.', schema: Webhook } },
    errors: [webhookErrors.WEBHOOK_NOT_FOUND, webhookErrors.UNKNOWN_EVENT, webhookErrors.NOTHING_TO_UPDATE, ...urlErrors],
    handler: (ctx) => reply.json(200, wire.json(ctx.scope.webhooks.update(ctx.accountId, ctx.params.webhookId, ctx.body))),
  }),
  operation({
    operationId: 'deleteWebhook',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/webhooks/{webhookId}',
    tag: TAG,
    summary: 'Delete a webhook',
    description: 'Nothing more is sent to it; pending retries are dropped.',
    origin: 'reference',
    auth: 'account',
    params: webhookParam,
    responses: { 204: { description: 'Deleted.' } },
    errors: [webhookErrors.WEBHOOK_NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.webhooks.delete(ctx.accountId, ctx.params.webhookId);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'listWebhookLogs',
    method: 'GET',
    path: '/v1/accounts/{accountId}/webhooks/{webhookId}/logs',
    tag: TAG,
    summary: 'Delivery log of a webhook',
    description: 'One row per attempt, newest first: pending while in flight, delivered on a 2xx answer, failed otherwise; `attempt` of `maxAttempts`.',
    origin: 'reference',
    auth: 'account',
    params: webhookParam,
    query: standardPagingParams,
    responses: { 200: { description: 'A page of attempts.', schema: WebhookLogList } },
    errors: [webhookErrors.WEBHOOK_NOT_FOUND],
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const webhook = ctx.scope.webhooks.get(ctx.accountId, ctx.params.webhookId);
      const page = pageOf(ctx.scope.webhookEngine.journal({ webhookId: webhook.id }).reverse(), paging);
      return reply.json(200, logWire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'testWebhook',
    method: 'POST',
    path: '/v1/accounts/{accountId}/webhooks/{webhookId}/test',
    tag: TAG,
    summary: 'Send a test event to a webhook',
    description:
      'Sends one signed `webhook.test` event (fields Event, WebhookId, AccountId, Timestamp) at once, also to an inactive webhook, and answers when the receiver has: `ok` tells whether it answered 2xx. The attempt appears in the webhook\'s logs; it is not retried.',
    origin: 'reference',
    auth: 'account',
    params: webhookParam,
    responses: { 200: { description: 'The outcome.', schema: WebhookTestResult } },
    errors: [webhookErrors.WEBHOOK_NOT_FOUND],
    handler: (ctx) => {
      const webhook = ctx.scope.webhooks.get(ctx.accountId, ctx.params.webhookId);
      return ctx.scope.webhookEngine.sendTest(webhook).then((d) => {
        if (d?.status === 'delivered') return reply.ok({ ok: true, message: 'Test webhook sent' });
        return reply.ok({ ok: false, message: `Test webhook failed: ${d?.reason ?? 'the simulator state was reset while sending'}` });
      });
    },
  }),
];
