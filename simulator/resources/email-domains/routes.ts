// HTTP surface of email sender domains. List and get are the spec's; create, the verification
// request, the receiving switch and delete are not shown by the spec and are shaped after the
// guides (docs/decisions.md, "Email domains").
import { Type } from '@sinclair/typebox';
import { reply, type Reply } from '../../core/operation.ts';
import { pageOf, parsePaging, standardPagingParams, type PagingQuery } from '../../core/paging.ts';
import { emailDomainErrors } from './model.ts';
import { CreateEmailDomainBody, EmailDomain, EmailDomainList, UpdateEmailDomainBody, type EmailDomainRow } from './schema.ts';
import { operation, type EmailDomainsScope } from './scope.ts';

const TAG = 'Email domains';
const BASIS = 'guides (email-domains page); docs/decisions.md "Email domains"';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const domainParams = { ...account, emailDomainId: Type.String({ description: 'The email domain\'s id.' }) };
const notFound = emailDomainErrors.EMAIL_DOMAIN_NOT_FOUND;

function rowReply(scope: EmailDomainsScope, status: number, row: EmailDomainRow): Reply {
  return reply.json(status, scope.emailDomains.wire.json(row));
}

export const operations = [
  operation({
    operationId: 'listEmailDomains',
    method: 'GET',
    path: '/v1/accounts/{accountId}/email-domains',
    tag: TAG,
    summary: 'List email domains',
    description: 'Newest registration first, deleted domains excluded. Returns the last stored result; it does not re-check DNS.',
    origin: 'spec',
    auth: 'account',
    params: account,
    query: standardPagingParams,
    responses: { 200: { description: 'A page of email domains.', schema: EmailDomainList } },
    handler: (ctx) => {
      const page = pageOf(ctx.scope.emailDomains.list(ctx.accountId), parsePaging(ctx.query as PagingQuery));
      return reply.json(200, ctx.scope.emailDomains.wire.list(page.data, page.meta));
    },
  }),
  operation({
    operationId: 'getEmailDomain',
    method: 'GET',
    path: '/v1/accounts/{accountId}/email-domains/{emailDomainId}',
    tag: TAG,
    summary: 'Get an email domain',
    description: 'The stored state; no re-check. Another account\'s domain is 404 like an unknown one.',
    origin: 'spec',
    auth: 'account',
    params: domainParams,
    responses: { 200: { description: 'The domain.', schema: EmailDomain } },
    errors: [notFound],
    handler: (ctx) => rowReply(ctx.scope, 200, ctx.scope.emailDomains.get(ctx.accountId, ctx.params.emailDomainId)),
  }),
  operation({
    operationId: 'createEmailDomain',
    method: 'POST',
    path: '/v1/accounts/{accountId}/email-domains',
    tag: TAG,
    summary: 'Register an email sender domain',
    description:
      'Registers the domain (not an address) as `pending` with its DNS records: three DKIM CNAMEs (required), MAIL FROM MX and SPF on `bounce.<domain>` and a DMARC suggestion (recommended). Idempotent: your own registration comes back with 200; a new one answers 201. A domain another account holds is 409, unless that account\'s pending claim has expired (`pendingExpiresAt`), in which case this account takes it.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: account,
    body: CreateEmailDomainBody,
    bodyRequired: true,
    responses: {
      201: { description: 'A new registration.', schema: EmailDomain },
      200: { description: 'The account already holds the domain; the registration unchanged.', schema: EmailDomain },
    },
    errors: [emailDomainErrors.INVALID_EMAIL_DOMAIN, emailDomainErrors.EMAIL_DOMAIN_TAKEN],
    handler: (ctx) => {
      const { row, created } = ctx.scope.emailDomains.register(ctx.accountId, ctx.body.domain);
      return rowReply(ctx.scope, created ? 201 : 200, row);
    },
  }),
  operation({
    operationId: 'verifyEmailDomain',
    method: 'POST',
    path: '/v1/accounts/{accountId}/email-domains/{emailDomainId}/verification',
    tag: TAG,
    summary: 'Check the domain\'s DNS records now',
    description:
      'No body. Looks the records up: all three DKIM CNAMEs found makes the domain `verified` (a `failed` one recovers); while pending, each request moves `pendingExpiresAt` later. Also reads MAIL FROM (restarting its detection unless verified), DMARC and, when receiving is on, the MX. When the provider is unavailable or the DKIM lookups fail, answers 503 and nothing changes.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: domainParams,
    responses: { 200: { description: 'The domain after the check.', schema: EmailDomain } },
    errors: [notFound, emailDomainErrors.EMAIL_PROVIDER_UNAVAILABLE],
    handler: (ctx) => rowReply(ctx.scope, 200, ctx.scope.emailDomains.verify(ctx.accountId, ctx.params.emailDomainId)),
  }),
  operation({
    operationId: 'updateEmailDomain',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/email-domains/{emailDomainId}',
    tag: TAG,
    summary: 'Turn inbound receiving on or off',
    description:
      'On needs a verified domain (403 email_domain_not_verified otherwise); the inbound MX then appears in `dnsRecords` and `receivingStatus` starts `pending` until the next check. Off clears `receivingStatus` and `receivingCheckedAt`. Setting the current value changes nothing. The domain name cannot be changed: delete and register again.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: domainParams,
    body: UpdateEmailDomainBody,
    bodyRequired: true,
    immutable: { fields: ['domain'], advice: 'delete the domain and register the new name' },
    responses: { 200: { description: 'The domain.', schema: EmailDomain } },
    errors: [notFound, emailDomainErrors.EMAIL_DOMAIN_NOT_VERIFIED],
    handler: (ctx) => rowReply(ctx.scope, 200, ctx.scope.emailDomains.setReceiving(ctx.accountId, ctx.params.emailDomainId, ctx.body.receivingEnabled)),
  }),
  operation({
    operationId: 'deleteEmailDomain',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/email-domains/{emailDomainId}',
    tag: TAG,
    summary: 'Delete an email domain',
    description: 'Sending from the domain stops and the domain is free for anyone to register; registering it again issues new DKIM tokens. Deleting again is 404.',
    origin: 'simulator',
    basis: BASIS,
    auth: 'account',
    params: domainParams,
    responses: { 204: { description: 'Deleted.' } },
    errors: [notFound],
    handler: (ctx) => {
      ctx.scope.emailDomains.delete(ctx.accountId, ctx.params.emailDomainId);
      return reply.noContent();
    },
  }),
];
