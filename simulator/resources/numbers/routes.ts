// HTTP surface of numbers, exactly as the public API document shapes it: listNumbers (all,
// unpaged, `{data}`), registerNumber (201), updateNumber (PUT, partial), deleteNumber (204).
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { WireCache } from '../../core/wire.ts';
import { numberErrors } from './errors.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import { NumberList, PhoneNumber, RegisterNumberBody, UpdateNumberBody, type NumberRow, type PhoneNumberWire } from './schema.ts';

const account = { accountId: Type.String({ description: 'Account id.' }) };
const numberParam = { ...account, number: Type.String({ description: 'The number, in any accepted spelling.' }) };

export function numberWire(r: NumberRow): PhoneNumberWire {
  return {
    number: r.id,
    source: r.source,
    numberType: r.numberType,
    routingType: r.routingType,
    webhookUrl: r.webhookUrl,
    webhookMethod: r.webhookMethod,
    webhookHeaders: r.webhookHeaders,
    callContextUrl: r.callContextUrl,
    statusCallback: r.statusCallback,
    statusCallbackEvents: r.statusCallbackEvents,
    agentId: r.agentId,
    callFlowId: r.callFlowId,
    forwardTo: r.forwardTo,
    sipEndpointId: r.sipEndpointId,
    sipCredentialId: r.sipCredentialId,
    dictionaryId: r.dictionaryId,
    createdAt: r.createdAt,
  };
}

const wire = new WireCache(numberWire);
const TAG = 'Numbers';

export const operations = [
  operation({
    operationId: 'listNumbers',
    method: 'GET',
    path: '/v1/accounts/{accountId}/numbers',
    tag: TAG,
    summary: 'List the account\'s numbers',
    description: 'All numbers at once, newest first, without paging.',
    origin: 'reference',
    auth: 'account',
    params: account,
    responses: { 200: { description: 'Every number of the account.', schema: NumberList } },
    handler: (ctx) => reply.json(200, wire.dataOnly(ctx.scope.numbers.listFor(ctx.accountId))),
  }),
  operation({
    operationId: 'registerNumber',
    method: 'POST',
    path: '/v1/accounts/{accountId}/numbers',
    tag: TAG,
    summary: 'Issue a number from the pool',
    description: 'The simulator picks the next free pool number; the caller cannot choose it. A new number routes by webhook with no URL until configured.',
    origin: 'reference',
    auth: 'account',
    params: account,
    body: RegisterNumberBody,
    responses: { 201: { description: 'The issued number.', schema: PhoneNumber } },
    errors: [numberErrors.NO_ACTIVE_SUBSCRIPTION, numberErrors.QUOTA_EXCEEDED, numberErrors.NUMBER_POOL_EMPTY, receiverErrors.URL_BLOCKED],
    handler: (ctx) => reply.json(201, wire.json(ctx.scope.numbers.issue(ctx.accountId, ctx.body ?? {}))),
  }),
  operation({
    operationId: 'createRepresentativeNumber',
    method: 'POST',
    path: '/v1/accounts/{accountId}/representative-numbers',
    tag: TAG,
    summary: 'Issue a representative (15xx-19xx) number',
    description: 'From the representative pool; needs the representative_number add-on. The number routes by forward only; until forwardTo is set (updateNumber), callers hear an announcement. No body.',
    origin: 'reference',
    auth: 'account',
    params: account,
    responses: { 201: { description: 'The issued number.', schema: PhoneNumber } },
    errors: [numberErrors.ADDON_REQUIRED, numberErrors.NO_ACTIVE_SUBSCRIPTION, numberErrors.REPRESENTATIVE_POOL_EMPTY],
    handler: (ctx) => reply.json(201, wire.json(ctx.scope.numbers.issueRepresentative(ctx.accountId))),
  }),
  operation({
    operationId: 'updateNumber',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/numbers/{number}',
    tag: TAG,
    summary: 'Change a number\'s routing and webhook settings',
    description: 'Partial update: omitted fields keep their values. Each routing type needs its target (webhook: webhookUrl, agent: agentId, callflow: callFlowId, forward: forwardTo, sip: sipEndpointId, softphone: sipCredentialId); switching routing clears the old targets.',
    origin: 'reference',
    auth: 'account',
    params: numberParam,
    body: UpdateNumberBody,
    bodyRequired: true,
    responses: { 200: { description: 'The updated number.', schema: PhoneNumber } },
    errors: [
      numberErrors.NOTHING_TO_UPDATE,
      numberErrors.REPRESENTATIVE_FORWARD_ONLY,
      numberErrors.ROUTING_TARGET_MISSING,
      numberErrors.ROUTING_FIELD_MISMATCH,
      numberErrors.INVALID_FORWARD_TO,
      numberErrors.INVALID_AGENT,
      numberErrors.INVALID_CALL_FLOW,
      numberErrors.INVALID_ENDPOINT,
      numberErrors.INVALID_CREDENTIAL,
      numberErrors.INVALID_DICTIONARY,
      numberErrors.TARGET_INACTIVE,
      receiverErrors.URL_BLOCKED,
      numberErrors.NUMBER_NOT_FOUND,
      numberErrors.NUMBER_NOT_OWNED,
      SIP_TRUNK_REQUIRED,
    ],
    handler: (ctx) => reply.json(200, wire.json(ctx.scope.numbers.update(ctx.accountId, ctx.params.number, ctx.body))),
  }),
  operation({
    operationId: 'deleteNumber',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/numbers/{number}',
    tag: TAG,
    summary: 'Return a number to the pool',
    description: 'The number goes back to the pool at once and cannot be reclaimed; numbers forwarding to it lose their target.',
    origin: 'reference',
    auth: 'account',
    params: numberParam,
    responses: { 204: { description: 'Returned.' } },
    errors: [numberErrors.NUMBER_NOT_FOUND, numberErrors.NUMBER_NOT_OWNED],
    handler: (ctx) => {
      ctx.scope.numbers.release(ctx.accountId, ctx.params.number);
      return reply.noContent();
    },
  }),
];
