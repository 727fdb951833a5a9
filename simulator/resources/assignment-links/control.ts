// The assignment links' /_sim routes: an account's issuing-page settings, the domains a
// returnUrl host must equal and the brand (docs/control-plane.md, "Identity verification and
// issuing pages").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { accountErrors } from '../accounts/errors.ts';
import { IssuingPageSchema } from './schema.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const IssuingPage = Type.Composite([Type.Object({ accountId: Type.String() }), IssuingPageSchema], { $id: 'SimIssuingPage', additionalProperties: false });
const IssuingPageBody = Type.Object(
  {
    domains: Type.Array(Type.String({ minLength: 1, maxLength: 253, pattern: '^\\s*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\\s*$' }), { maxItems: 20, description: 'Host names a returnUrl may use, matched exactly (no subdomains implied).' }),
    brandServiceName: Type.Optional(IssuingPageSchema.properties.brandServiceName),
    brandColor: Type.Optional(IssuingPageSchema.properties.brandColor),
    brandLogoUrl: Type.Optional(IssuingPageSchema.properties.brandLogoUrl),
  },
  { $id: 'SimIssuingPageRequest', additionalProperties: false, description: 'Replaces the settings; an omitted brand field becomes null.' },
);

export const operations = [
  operation({
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
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      return reply.ok({ accountId: params.accountId, ...scope.assignmentLinks.issuingPageOf(params.accountId) });
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => reply.ok({ accountId: params.accountId, ...scope.assignmentLinks.setIssuingPage(params.accountId, body) }),
  }),
];
