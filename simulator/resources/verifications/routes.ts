// HTTP surface of verifications. The list is the spec's `GET /v2/verifications` (account from
// the API key, spec Conventions 1); create, get, check and cancel are not shown anywhere and
// live beside it under /v2/verifications (docs/decisions.md, "Verifications").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { DateTime, PhoneNumber, StringEnum } from '../../core/schema.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { verificationErrors as E } from './model.ts';
import { operation } from './scope.ts';
import {
  CheckVerificationBody,
  CreateVerificationBody,
  VERIFICATION_CHANNELS,
  VERIFICATION_STATUSES,
  Verification,
  VerificationList,
} from './schema.ts';

const TAG = 'Verifications';
const BASIS = 'not shown by the spec or the public API document; paths beside the spec\'s GET /v2/verifications (docs/decisions.md, Verifications)';
const byId = { verificationId: Type.String() };
const one = { description: 'The verification.', schema: Verification };

export const operations = [
  operation({
    operationId: 'listVerifications',
    method: 'GET',
    path: '/v2/verifications',
    tag: TAG,
    summary: 'List verifications (history)',
    description: 'The API key\'s account, newest first. `createdAfter` is inclusive and `createdBefore` exclusive, so adjacent ranges do not overlap.',
    origin: 'spec',
    auth: 'key',
    query: {
      channel: StringEnum(VERIFICATION_CHANNELS),
      status: StringEnum(VERIFICATION_STATUSES),
      to: PhoneNumber({ description: 'Exact match after normalisation (hyphens and +82 accepted).' }),
      createdAfter: DateTime({ description: 'Created at or after this instant; not later than createdBefore (400).' }),
      createdBefore: DateTime({ description: 'Created before this instant.' }),
      ...standardPagingParams,
    },
    responses: { 200: { description: 'A page of verifications.', schema: VerificationList } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    handler: (ctx) => {
      const paging = parsePaging(ctx.query as PagingQuery);
      const { channel, status, to, createdAfter, createdBefore } = ctx.query;
      const rows = ctx.scope.verifications.list(ctx.accountId, { channel, status, to, createdAfter, createdBefore });
      const page = pageOf(rows, paging);
      return reply.json(200, ctx.scope.verifications.wire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'createVerification',
    method: 'POST',
    path: '/v2/verifications',
    tag: TAG,
    summary: 'Send a one-time code by sms or call',
    description:
      'Draws a code of `codeLength` digits, keeps only its hash and hands it to the carrier: a text, or a call that reads it. The code appears in no response. The verification expires after `ttlSeconds`; it fails if the text fails or the call is not answered.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'key',
    body: CreateVerificationBody,
    bodyRequired: true,
    responses: { 201: { description: 'Created; status pending.', schema: Verification } },
    errors: [
      errorCodes.INVALID_PHONE_NUMBER,
      errorCodes.UNSUPPORTED_COUNTRY,
      outboundErrors.FROM_NOT_REGISTERED,
      outboundErrors.NO_SUBSCRIPTION,
      outboundErrors.RECIPIENT_BLOCKED,
      E.NO_SENDER_NUMBER,
    ],
    handler: (ctx) => reply.json(201, ctx.scope.verifications.wire.json(ctx.scope.verifications.create(ctx.accountId, ctx.body))),
  }),
  operation({
    operationId: 'getVerification',
    method: 'GET',
    path: '/v2/verifications/{verificationId}',
    tag: TAG,
    summary: 'Get a verification',
    origin: 'simulator',
    basis: BASIS,
    auth: 'key',
    params: byId,
    responses: { 200: one },
    errors: [E.VERIFICATION_NOT_FOUND],
    handler: (ctx) => reply.json(200, ctx.scope.verifications.wire.json(ctx.scope.verifications.get(ctx.accountId, ctx.params.verificationId))),
  }),
  operation({
    operationId: 'checkVerification',
    method: 'POST',
    path: '/v2/verifications/{verificationId}/check',
    tag: TAG,
    summary: 'Submit the code the end user entered',
    description:
      'The right code makes the verification `verified` (single use) and cancels other pending verifications of the same number. A wrong code answers 200 with one attempt fewer; the fifth wrong code makes it `max_attempts`. A code that is not codeLength digits, or a verification no longer pending, is refused without using an attempt.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'key',
    params: byId,
    body: CheckVerificationBody,
    bodyRequired: true,
    responses: { 200: { description: 'The verification after the comparison: check `status`.', schema: Verification } },
    errors: [E.VERIFICATION_NOT_FOUND, E.VERIFICATION_NOT_PENDING, E.INVALID_CODE_FORMAT],
    handler: (ctx) =>
      reply.json(200, ctx.scope.verifications.wire.json(ctx.scope.verifications.check(ctx.accountId, ctx.params.verificationId, ctx.body.code))),
  }),
  operation({
    operationId: 'cancelVerification',
    method: 'POST',
    path: '/v2/verifications/{verificationId}/cancel',
    tag: TAG,
    summary: 'Cancel a pending verification',
    origin: 'simulator',
    basis: BASIS,
    auth: 'key',
    params: byId,
    responses: { 200: { description: 'The canceled verification.', schema: Verification } },
    errors: [E.VERIFICATION_NOT_FOUND, E.VERIFICATION_NOT_PENDING],
    handler: (ctx) => reply.json(200, ctx.scope.verifications.wire.json(ctx.scope.verifications.cancel(ctx.accountId, ctx.params.verificationId))),
  }),
];
