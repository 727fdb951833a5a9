// Control plane of assignment links: an account's issuing-page domains (what a returnUrl host must
// equal) and brand. Documented in docs/control-plane.md, "Identity verification and issuing pages".
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { IssuingPageSchema } from '../resources/assignment-links/schema.ts';

const TAG = 'Control plane';

const IssuingPage = Type.Composite([Type.Object({ accountId: Type.String() }), IssuingPageSchema], { $id: 'SimIssuingPage', additionalProperties: false });
const IssuingPageBody = Type.Object(
  {
    domains: Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 20, description: 'Host names a returnUrl may use, matched exactly (no subdomains implied).' }),
    brandServiceName: Type.Optional(IssuingPageSchema.properties.brandServiceName),
    brandColor: Type.Optional(IssuingPageSchema.properties.brandColor),
    brandLogoUrl: Type.Optional(IssuingPageSchema.properties.brandLogoUrl),
  },
  { $id: 'SimIssuingPageRequest', additionalProperties: false, description: 'Replaces the settings; an omitted brand field becomes null.' },
);

/** An account's issuing-page settings (the assignment-links descriptor lists them). */
export const issuingPageOperations = [
  defineOperation({
    operationId: 'simGetIssuingPage',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/issuing-page',
    tag: TAG,
    summary: 'The account\'s issuing-page settings',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    responses: { 200: { description: 'The settings.', schema: IssuingPage } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      return reply.ok({ accountId: params.accountId, ...rt.assignmentLinks.issuingPageOf(params.accountId) });
    },
  }),
  defineOperation({
    operationId: 'simPutIssuingPage',
    method: 'PUT',
    path: '/_sim/accounts/{accountId}/issuing-page',
    tag: TAG,
    summary: 'Set the account\'s issuing-page settings: returnUrl domains and brand (the console\'s organisation settings)',
    description: 'A createAssignmentLink returnUrl must have one of these hosts exactly. Existing links keep their returnUrl.',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    body: IssuingPageBody,
    bodyRequired: true,
    responses: { 200: { description: 'The settings.', schema: IssuingPage } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ rt, params, body }) => reply.ok({ accountId: params.accountId, ...rt.assignmentLinks.setIssuingPage(params.accountId, body) }),
  }),
];
