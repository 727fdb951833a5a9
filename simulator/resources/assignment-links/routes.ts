// HTTP surface of assignment links (spec endpoints; operationIds, statuses and shapes after the
// public API document): create 201 {token,url,expiresAt}, list (status filter, standard paging),
// get one, revoke 200 {ok:true}.
import { Type } from '@sinclair/typebox';
import { apiOrigin, reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { accountErrors } from '../accounts/errors.ts';
import { numberErrors } from '../numbers/errors.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import { linkErrors } from './errors.ts';
import { operation } from './scope.ts';
import { AssignmentLink, AssignmentLinkCreated, AssignmentLinkList, CreateLinkBody, LINK_STATUSES, OkResult, type LinkStatus } from './schema.ts';

const TAG = 'Assignment links';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const linkParams = { ...account, linkId: Type.String({ description: 'The link id (the token returned on creation).' }) };

export const operations = [
  operation({
    operationId: 'createAssignmentLink',
    method: 'POST',
    path: '/v1/accounts/{accountId}/assignment-links',
    tag: TAG,
    summary: 'Create a one-time link through which an end user obtains a managed number',
    description:
      'Needs the managed-number add-on (403 FEATURE_DISABLED). `returnUrl`\'s host must equal one of the account\'s issuing-page domains exactly (control plane: PUT /_sim/accounts/{accountId}/issuing-page). Lines held plus pending links may not exceed the plan\'s line limit (422 QUOTA_EXCEEDED). The body may be empty. Hand `url` to the end user; keep the token inside your systems.',
    origin: 'spec',
    auth: 'account',
    params: account,
    body: CreateLinkBody,
    responses: { 201: { description: 'The link.', schema: AssignmentLinkCreated } },
    errors: [errorCodes.FEATURE_DISABLED, accountErrors.ACCOUNT_NOT_FOUND, outboundErrors.NO_SUBSCRIPTION, numberErrors.QUOTA_EXCEEDED, receiverErrors.URL_BLOCKED],
    handler: (ctx) => {
      const row = ctx.scope.assignmentLinks.create(ctx.accountId, ctx.body ?? {}, apiOrigin(ctx.request));
      return reply.created({ token: row.id, url: row.url, expiresAt: row.expiresAt });
    },
  }),
  operation({
    operationId: 'listAssignmentLinks',
    method: 'GET',
    path: '/v1/accounts/{accountId}/assignment-links',
    tag: TAG,
    summary: 'List the account\'s assignment links, newest first',
    description: 'Works with the add-on off.',
    origin: 'spec',
    auth: 'account',
    params: account,
    query: { status: StringEnum(LINK_STATUSES, { description: 'Only links in this state.' }), ...standardPagingParams },
    responses: { 200: { description: 'A page of links.', schema: AssignmentLinkList } },
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const page = pageOf(ctx.scope.assignmentLinks.list(ctx.accountId, ctx.query.status as LinkStatus | undefined), paging);
      return reply.json(200, ctx.scope.assignmentLinks.listJson(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'getAssignmentLink',
    method: 'GET',
    path: '/v1/accounts/{accountId}/assignment-links/{linkId}',
    tag: TAG,
    summary: 'Get one assignment link',
    description: 'A consumed link carries `assignment` (number, the end user\'s name, consumedAt, releasedAt). Works with the add-on off.',
    origin: 'spec',
    auth: 'account',
    params: linkParams,
    responses: { 200: { description: 'The link.', schema: AssignmentLink } },
    errors: [linkErrors.LINK_NOT_FOUND],
    handler: (ctx) => reply.json(200, ctx.scope.assignmentLinks.json(ctx.scope.assignmentLinks.require(ctx.accountId, ctx.params.linkId))),
  }),
  operation({
    operationId: 'revokeAssignmentLink',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/assignment-links/{linkId}',
    tag: TAG,
    summary: 'Cancel a pending link',
    description: 'pending -> revoked. A consumed, expired or revoked link is 409 NOT_PENDING and stays as it is. Needs the add-on (403 FEATURE_DISABLED).',
    origin: 'spec',
    basis: 'Success body {ok:true} (200) after the public API document; the spec does not show it.',
    auth: 'account',
    params: linkParams,
    responses: { 200: { description: 'Cancelled.', schema: OkResult } },
    errors: [errorCodes.FEATURE_DISABLED, linkErrors.LINK_NOT_FOUND, linkErrors.NOT_PENDING],
    handler: (ctx) => {
      ctx.scope.assignmentLinks.revoke(ctx.accountId, ctx.params.linkId);
      return reply.ok({ ok: true });
    },
  }),
];
