// Control plane of an account's messaging (docs/control-plane.md, "Messaging"): messenger
// notification templates (the public interface only sends with them), what each sent message
// leaves for the usage aggregation and the monthly caps, and the plans that set those caps.
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { ApiError } from '../core/errors.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { messageErrors } from '../resources/messages/errors.ts';
import { templateWire } from '../resources/messages/templates.ts';
import { CreateBrandTemplateBody, CreateTemplateBody, KakaoTemplate, QuotaView, UpdateTemplateBody, UsageRecord } from '../resources/messages/schema.ts';
import { BrandTemplate, wireOf as brandTemplateWire } from '../resources/kakao-channels/brand-routes.ts';
import { PlanFixture } from '../fixture/schema.ts';
import type { PlanRow } from '../resources/accounts/schema.ts';

const TAG = 'Control plane';
const accountParam = { accountId: Type.String() };
const templateParams = { ...accountParam, templateId: Type.String() };

const PlanView = Type.Composite([Type.Object({ planId: Type.String() }), PlanFixture], { $id: 'SimPlan', additionalProperties: false });
const PLAN_KEY = /^[a-z][a-z0-9_]{0,63}$/;
const planParam = { planId: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$', description: 'Plan key: a lowercase letter, then lowercase letters, digits and _ (at most 64), as in the fixture.' }) };

function planView(p: PlanRow) {
  const { id, ...rest } = p;
  return { planId: id, ...rest };
}

export const operations = [
  defineOperation({
    operationId: 'simListPlans',
    method: 'GET',
    path: '/_sim/plans',
    tag: TAG,
    summary: 'Plans with their line limit and monthly message caps',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'Plans.', schema: Type.Object({ data: Type.Array(PlanView) }, { additionalProperties: false }) } },
    handler: ({ rt }) => reply.ok({ data: rt.accounts.listPlans().map(planView) }),
  }),
  defineOperation({
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
    handler: ({ rt, params, body }) => {
      if (!PLAN_KEY.test(params.planId)) {
        throw ApiError.validation(`plan key "${params.planId}" must be a lowercase letter, then lowercase letters, digits and _`, [{ path: 'planId', message: 'bad plan key' }]);
      }
      const { plan, created } = rt.accounts.putPlan(params.planId, body);
      return created ? reply.created(planView(plan)) : reply.ok(planView(plan));
    },
  }),
  defineOperation({
    operationId: 'simListKakaoTemplates',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/kakao-templates',
    tag: TAG,
    summary: 'The account\'s messenger notification templates (ata), newest first',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'Templates.', schema: Type.Object({ data: Type.Array(KakaoTemplate) }, { additionalProperties: false }) } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      return reply.ok({ data: rt.messages.templates.list(params.accountId).map(templateWire) });
    },
  }),
  defineOperation({
    operationId: 'simCreateKakaoTemplate',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/kakao-templates',
    tag: TAG,
    summary: 'Add a template (approved unless `status` says otherwise)',
    description: 'Its variables are the #{...} placeholders of `body`, or `variables` when given (which must include them all; extra names stand for variables in buttons or highlight text).',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: CreateTemplateBody,
    bodyRequired: true,
    responses: { 201: { description: 'The template.', schema: KakaoTemplate } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, messageErrors.TEMPLATE_EXISTS],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      return reply.created(templateWire(rt.messages.templates.create(params.accountId, body)));
    },
  }),
  defineOperation({
    operationId: 'simUpdateKakaoTemplate',
    method: 'PATCH',
    path: '/_sim/accounts/{accountId}/kakao-templates/{templateId}',
    tag: TAG,
    summary: 'Change a template\'s review status, text or variables',
    origin: 'simulator',
    auth: 'control',
    params: templateParams,
    body: UpdateTemplateBody,
    bodyRequired: true,
    responses: { 200: { description: 'The template.', schema: KakaoTemplate } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, messageErrors.TEMPLATE_NOT_FOUND],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      return reply.ok(templateWire(rt.messages.templates.update(params.accountId, params.templateId, body)));
    },
  }),
  defineOperation({
    operationId: 'simDeleteKakaoTemplate',
    method: 'DELETE',
    path: '/_sim/accounts/{accountId}/kakao-templates/{templateId}',
    tag: TAG,
    summary: 'Remove a template (messages already sent keep their text)',
    origin: 'simulator',
    auth: 'control',
    params: templateParams,
    responses: { 204: { description: 'Removed.' } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, messageErrors.TEMPLATE_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      rt.messages.templates.remove(params.accountId, params.templateId);
      return reply.noContent();
    },
  }),
  defineOperation({
    operationId: 'simCreateKakaoBrandTemplate',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/kakao-brand-templates',
    tag: TAG,
    summary: 'Plant a brand-message template (no review: it can be sent at once)',
    description: 'Its variables are the #{...} placeholders of `content` and `header`, or `variables` when given (which must include them all). `channelId` is the messenger\'s channel id.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: CreateBrandTemplateBody,
    bodyRequired: true,
    responses: { 201: { description: 'The brand template as listKakaoBrandTemplates shows it.', schema: BrandTemplate } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, messageErrors.TEMPLATE_EXISTS],
    handler: ({ rt, params, body }) => {
      rt.accounts.require(params.accountId);
      return reply.created(brandTemplateWire(rt.messages.brandTemplates.create(params.accountId, body)));
    },
  }),
  defineOperation({
    operationId: 'simDeleteKakaoBrandTemplate',
    method: 'DELETE',
    path: '/_sim/accounts/{accountId}/kakao-brand-templates/{templateId}',
    tag: TAG,
    summary: 'Remove a brand template (messages already sent keep their text)',
    origin: 'simulator',
    auth: 'control',
    params: templateParams,
    responses: { 204: { description: 'Removed.' } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND, messageErrors.TEMPLATE_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      rt.messages.brandTemplates.remove(params.accountId, params.templateId);
      return reply.noContent();
    },
  }),
  defineOperation({
    operationId: 'simListMessageUsage',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/message-usage',
    tag: TAG,
    summary: 'Usage records of sent messages (meter, quantity, UTC day, number, linkId), oldest first',
    description: 'One record per outbound message not ended in failure: a queued message counts, a failed one does not (and stops counting when it fails). What the usage aggregation reads.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'Usage records.', schema: Type.Object({ data: Type.Array(UsageRecord) }, { additionalProperties: false }) } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      return reply.ok({ data: rt.messages.usageRecords(params.accountId) });
    },
  }),
  defineOperation({
    operationId: 'simGetMessageQuota',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/message-quota',
    tag: TAG,
    summary: 'This month\'s use of each monthly message cap',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    responses: { 200: { description: 'Caps and use for the current UTC calendar month.', schema: QuotaView } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      return reply.ok(rt.messages.quotaView(params.accountId));
    },
  }),
];
