// HTTP surface of the usage aggregation: getUsage with the spec's query and result, shaped after
// the public API document (its operationId, 1-based paging, 403 without a billing cycle).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { usageErrors } from './model.ts';
import { UsageQuery, UsageResponse, type UsageQueryInput } from './schema.ts';
import { operation } from './scope.ts';

export const operations = [
  operation({
    operationId: 'getUsage',
    method: 'GET',
    path: '/v1/accounts/{accountId}/usage',
    tag: 'Usage',
    summary: 'Usage aggregated by meter (and day, link or number)',
    description:
      'Recomputed at every query from what the account used. Without from/to: the current billing cycle, which starts at the instant the subscription started. `totals` covers the whole range on every page; `billableMinutes` rounds up once over the account total. Pages count from 1.',
    origin: 'spec',
    auth: 'account',
    params: { accountId: Type.String({ description: 'Account id.' }) },
    query: UsageQuery,
    responses: { 200: { description: 'The aggregation.', schema: UsageResponse } },
    errors: [usageErrors.USAGE_PERIOD_REQUIRED],
    handler: (ctx) => reply.ok(ctx.scope.usage.aggregate(ctx.accountId, ctx.query as UsageQueryInput)),
  }),
];
