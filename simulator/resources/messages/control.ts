// The messages family's /_sim routes (docs/control-plane.md, "Messaging"): messenger
// notification templates (the public interface only sends with them), brand templates, what each
// sent message leaves for the usage aggregation, this month's use of the monthly caps, and a
// phone texting one of the accounts' numbers (the carrier's inbound path, whose state is ours).
import { Type } from '@sinclair/typebox';
import { apiOrigin, reply } from '../../core/operation.ts';
import { errorCodes } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { accountErrors } from '../accounts/errors.ts';
import { messageErrors } from './errors.ts';
import { templateWire } from './templates.ts';
import { BrandTemplate, brandTemplateWire } from './brand-wire.ts';
import { CreateBrandTemplateBody, CreateTemplateBody, InboundMessageBody, KakaoTemplate, Message, QuotaView, UpdateTemplateBody, UsageRecord } from './schema.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';
const accountParam = { accountId: Type.String() };
const templateParams = { ...accountParam, templateId: Type.String() };

export const operations = [
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      return reply.ok({ data: scope.messages.templates.list(params.accountId).map(templateWire) });
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      return reply.created(templateWire(scope.messages.templates.create(params.accountId, body)));
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      return reply.ok(templateWire(scope.messages.templates.update(params.accountId, params.templateId, body)));
    },
  }),
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      scope.messages.templates.remove(params.accountId, params.templateId);
      return reply.noContent();
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      return reply.created(brandTemplateWire(scope.messages.brandTemplates.create(params.accountId, body)));
    },
  }),
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      scope.messages.brandTemplates.remove(params.accountId, params.templateId);
      return reply.noContent();
    },
  }),
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      return reply.ok({ data: scope.messages.usageRecords(params.accountId) });
    },
  }),
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      return reply.ok(scope.messages.quotaView(params.accountId));
    },
  }),
  operation({
    operationId: 'simInjectInboundMessage',
    method: 'POST',
    path: '/_sim/carrier/inbound',
    tag: TAG,
    summary: 'A phone texts one of the accounts\' numbers',
    description: 'Stored for the account owning `to` as a received message (direction inbound) and announced as message.received. Opt-outs do not apply to inbound texts. Images in `mediaUrl` are fetched from the fake image host (/_sim/images) and stored; the message lists API URLs to them (getMessageMedia).',
    origin: 'simulator',
    auth: 'control',
    body: InboundMessageBody,
    bodyRequired: true,
    responses: { 201: { description: 'The received message.', schema: Message } },
    errors: [errorCodes.INVALID_PHONE_NUMBER, errorCodes.UNSUPPORTED_COUNTRY, sharedErrors.NUMBER_NOT_FOUND, messageErrors.MEDIA_DOWNLOAD_FAILED],
    handler: ({ scope, body, request }) => {
      const origin = apiOrigin(request);
      return reply.json(201, scope.messages.wireAt(origin).json(scope.messages.receive(body, origin)));
    },
  }),
];
