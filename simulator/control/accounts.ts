// Control plane: accounts beyond creation (views, plan and subscription changes, overseas
// exceptions), API keys, and numbers granted without the plan and subscription checks.
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { iso, parseInstant } from '../core/clock.ts';
import type { Runtime } from '../runtime.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { AccountView, UpdateAccountBody, type AccountRow } from '../resources/accounts/schema.ts';
import { PhoneNumber } from '../resources/numbers/schema.ts';
import { numberWire } from '../resources/numbers/routes.ts';
import { PhoneNumber as PhoneNumberString } from '../core/schema.ts';
import { errorCodes } from '../core/errors.ts';

const TAG = 'Control plane';

const ApiKeyView = Type.Object({ apiKey: Type.String() }, { additionalProperties: false });
const GrantNumberBody = Type.Object({ number: Type.Optional(PhoneNumberString()) }, { additionalProperties: false });

const accountParam = { accountId: Type.String() };

function accountView(rt: Runtime, a: AccountRow) {
  return {
    accountId: a.id,
    name: a.name,
    plan: a.plan,
    addons: a.addons,
    subscription: a.subscription,
    subscriptionActive: rt.accounts.subscriptionActive(a.id),
    apiKeys: a.apiKeys,
    ipExceptions: a.ipExceptions,
    messagingOps: a.messagingOps,
    numbers: rt.numbers.listFor(a.id).map((n) => n.id),
    createdAt: a.createdAt,
  };
}

export const operations = [
  defineOperation({
    operationId: 'simListAccounts',
    method: 'GET',
    path: '/_sim/accounts',
    tag: TAG,
    summary: 'Every account with its keys and numbers',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Accounts.', schema: Type.Object({ data: Type.Array(AccountView) }) } },
    handler: ({ rt }) => reply.ok({ data: rt.accounts.list().map((a) => accountView(rt, a)) }),
  }),
  defineOperation({
    operationId: 'simGetAccount',
    method: 'GET',
    path: '/_sim/accounts/{accountId}',
    tag: TAG,
    summary: 'One account with its keys and numbers',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'The account.', schema: AccountView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => reply.ok(accountView(rt, rt.accounts.require(params.accountId))),
  }),
  defineOperation({
    operationId: 'simUpdateAccount',
    method: 'PATCH',
    path: '/_sim/accounts/{accountId}',
    tag: TAG,
    summary: 'Change plan, add-ons, subscription, overseas exceptions or operations\' messaging controls',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: UpdateAccountBody,
    bodyRequired: true,
    responses: { 200: { description: 'The account.', schema: AccountView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, accountErrors.PLAN_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      const patch = { ...body };
      if (patch.subscription) patch.subscription = { ...patch.subscription, startedAt: iso(parseInstant(patch.subscription.startedAt)!) };
      return reply.ok(accountView(rt, rt.accounts.update(params.accountId, patch)));
    },
  }),
  defineOperation({
    operationId: 'simCreateApiKey',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/api-keys',
    tag: TAG,
    summary: 'Issue another API key',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 201: { description: 'The new key.', schema: ApiKeyView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => reply.created({ apiKey: rt.accounts.addKey(params.accountId) }),
  }),
  defineOperation({
    operationId: 'simRevokeApiKey',
    method: 'DELETE',
    path: '/_sim/accounts/{accountId}/api-keys/{apiKey}',
    tag: TAG,
    summary: 'Revoke an API key',
    origin: 'simulator',
    auth: 'control',
    params: { ...accountParam, apiKey: Type.String() },
    responses: { 204: { description: 'Revoked; the key now gets 401.' } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      if (!rt.accounts.revokeKey(params.accountId, params.apiKey)) {
        throw accountErrors.ACCOUNT_NOT_FOUND(`account ${params.accountId} has no such key`);
      }
      return reply.noContent();
    },
  }),
  defineOperation({
    operationId: 'simGrantNumber',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/numbers',
    tag: TAG,
    summary: 'Give the account a number without the plan and subscription checks',
    description: 'A specific free number, or the next pool number when `number` is omitted.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: GrantNumberBody,
    errors: [accountErrors.ACCOUNT_NOT_FOUND, errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY],
    responses: { 201: { description: 'The number.', schema: PhoneNumber } },
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      return reply.created(numberWire(rt.numbers.grant(params.accountId, body?.number)));
    },
  }),
];
