// The plans' /_sim routes (docs/control-plane.md, "Messaging"): list the plans, and define one or
// replace its limits (line limit, monthly message caps). Plans are the accounts family's state;
// the messages' caps read them at each send.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { ApiError } from '../../core/errors.ts';
import { PlanFixture, type PlanRow } from './schema.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const PlanView = Type.Composite([Type.Object({ planId: Type.String() }), PlanFixture], { $id: 'SimPlan', additionalProperties: false });
const PLAN_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const planParam = { planId: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'Plan key: a lowercase letter, then lowercase letters, digits and _ (at most 64), as in the fixture.' }) };

function planView(p: PlanRow) {
  const { id, ...rest } = p;
  return { planId: id, ...rest };
}

export const operations = [
  operation({
    operationId: 'simListPlans',
    method: 'GET',
    path: '/_sim/plans',
    tag: TAG,
    summary: 'Plans with their line limit and monthly message caps',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Plans.', schema: Type.Object({ data: Type.Array(PlanView) }, { additionalProperties: false }) } },
    handler: ({ scope }) => reply.ok({ data: scope.accounts.listPlans().map(planView) }),
  }),
  operation({
    operationId: 'simPutPlan',
    method: 'PUT',
    path: '/_sim/plans/{planId}',
    tag: TAG,
    summary: 'Define a plan, or replace its limits',
    description:
      'Accounts on the plan follow the new limits at once: a lower monthly cap refuses the next send once the month\'s count reaches it. Give an account the plan with POST /_sim/accounts or PATCH /_sim/accounts/{accountId}.',
    origin: 'simulator',
    auth: 'control',
    params: planParam,
    body: PlanFixture,
    bodyRequired: true,
    responses: {
      200: { description: 'Replaced.', schema: PlanView },
      201: { description: 'Defined.', schema: PlanView },
    },
    handler: ({ scope, params, body }) => {
      if (!PLAN_KEY.test(params.planId)) {
        throw ApiError.validation(`plan key "${params.planId}" must be a lowercase letter, then lowercase letters, digits and _`, [{ path: 'planId', message: 'bad plan key' }]);
      }
      const { plan, created } = scope.accounts.putPlan(params.planId, body);
      return created ? reply.created(planView(plan)) : reply.ok(planView(plan));
    },
  }),
];
