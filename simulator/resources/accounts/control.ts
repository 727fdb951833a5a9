// The accounts' /_sim routes beyond creation (the fixed contract's POST /_sim/accounts): views
// with the account's keys and numbers, plan and subscription changes, overseas exceptions,
// operations' messaging controls, and API keys (docs/control-plane.md, "Accounts"). Granting a
// number changes the numbers' state, so that route is the numbers family's.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { accountErrors } from './errors.ts';
import type { AccountsModel } from './model.ts';
import { operation } from './scope.ts';
import { AccountView, UpdateAccountBody, type AccountRow } from './schema.ts';

const TAG = 'Control plane';

const ApiKeyView = Type.Object({ apiKey: Type.String() }, { additionalProperties: false });

const accountParam = { accountId: Type.String() };

function accountView(accounts: AccountsModel, a: AccountRow) {
  return {
    accountId: a.id,
    name: a.name,
    plan: a.plan,
    addons: a.addons,
    subscription: a.subscription,
    subscriptionActive: accounts.subscriptionActive(a.id),
    apiKeys: a.apiKeys,
    ipExceptions: a.ipExceptions,
    messagingOps: a.messagingOps,
    numbers: accounts.numbersOf(a.id),
    createdAt: a.createdAt,
  };
}

export const operations = [
  operation({
    operationId: 'simListAccounts',
    method: 'GET',
    path: '/_sim/accounts',
    tag: TAG,
    summary: 'Every account with its keys and numbers',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Accounts.', schema: Type.Object({ data: Type.Array(AccountView) }) } },
    handler: ({ scope }) => reply.ok({ data: scope.accounts.list().map((a) => accountView(scope.accounts, a)) }),
  }),
  operation({
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
    handler: ({ scope, params }) => reply.ok(accountView(scope.accounts, scope.accounts.require(params.accountId))),
  }),
  operation({
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
    handler: ({ scope, params, body }) => {
      const patch = { ...body };
      if (patch.subscription) patch.subscription = { ...patch.subscription, startedAt: iso(parseInstant(patch.subscription.startedAt)!) };
      return reply.ok(accountView(scope.accounts, scope.accounts.update(params.accountId, patch)));
    },
  }),
  operation({
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
    handler: ({ scope, params }) => reply.created({ apiKey: scope.accounts.addKey(params.accountId) }),
  }),
  operation({
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
    handler: ({ scope, params }) => {
      if (!scope.accounts.revokeKey(params.accountId, params.apiKey)) {
        throw accountErrors.ACCOUNT_NOT_FOUND(`account ${params.accountId} has no such key`);
      }
      return reply.noContent();
    },
  }),
];
