// Control plane of assignment links: an account's issuing-page domains (what a returnUrl host must
// equal), and the fake identity provider (simulator/peers/kyc.ts): its failure mode, the result of
// the next verification, completing a verification as the person would on its page, and what it
// holds. Documented in docs/control-plane.md, "Identity verification and issuing pages".
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { Nullable, StringEnum } from '../core/schema.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { KYC_FAILURES, KYC_RESULTS, KycVerificationSchema, kycErrors } from '../peers/kyc.ts';
import type { Runtime } from '../runtime.ts';
import { IssuingPageSchema } from '../resources/assignment-links/schema.ts';

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
const KycView = Type.Object(
  {
    failure: StringEnum(KYC_FAILURES),
    nextResult: Nullable(StringEnum(KYC_RESULTS)),
    verifications: Type.Array(KycVerificationSchema),
  },
  { $id: 'SimKyc', additionalProperties: false },
);
const KycBody = Type.Object(
  {
    failure: Type.Optional(StringEnum(KYC_FAILURES, { description: 'none; provider_error (resume answers 502); rate_limited (start answers 429). Stays until set again.' })),
    nextResult: Type.Optional(Nullable(StringEnum(KYC_RESULTS, { description: 'The outcome of the next completion (page or control plane), whatever the person enters; then cleared.' }))),
  },
  { $id: 'SimKycRequest', additionalProperties: false },
);
const CompleteBody = Type.Object(
  {
    result: Type.Optional(StringEnum(KYC_RESULTS, { description: 'Default verified. A person under 14 is age_mismatch whatever is asked.' })),
    name: Type.Optional(Type.String({ maxLength: 50 })),
    birthDate: Type.Optional(Type.String({ description: 'YYYY-MM-DD.' })),
  },
  { $id: 'SimKycCompleteRequest', additionalProperties: false },
);

function kycView(rt: Runtime) {
  return { failure: rt.kyc.failure, nextResult: rt.kyc.nextResult, verifications: rt.kyc.list() };
}

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

/** The fake identity provider's control routes (its descriptor: peers/index.ts). */
export const kycOperations = [
  defineOperation({
    operationId: 'simGetKyc',
    method: 'GET',
    path: '/_sim/kyc',
    tag: TAG,
    summary: 'The fake identity provider: failure mode, scripted next result, verifications',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The provider.', schema: KycView } },
    handler: ({ rt }) => reply.ok(kycView(rt)),
  }),
  defineOperation({
    operationId: 'simSetKyc',
    method: 'PUT',
    path: '/_sim/kyc',
    tag: TAG,
    summary: 'Script the identity provider',
    origin: 'simulator',
    auth: 'control',
    body: KycBody,
    bodyRequired: true,
    responses: { 200: { description: 'The provider.', schema: KycView } },
    handler: ({ rt, body }) => {
      if (body.failure !== undefined) rt.kyc.failure = body.failure;
      if (body.nextResult !== undefined) rt.kyc.nextResult = body.nextResult;
      return reply.ok(kycView(rt));
    },
  }),
  defineOperation({
    operationId: 'simCompleteKycVerification',
    method: 'POST',
    path: '/_sim/kyc/verifications/{identityVerificationId}/complete',
    tag: TAG,
    summary: 'Complete a verification as the person would on the provider page',
    description: 'Then the issuing session resumes (resumeAssignmentSessionIdentityVerification). name and birthDate are needed unless the result is abandoned.',
    origin: 'simulator',
    auth: 'control',
    params: { identityVerificationId: Type.String() },
    body: CompleteBody,
    responses: { 200: { description: 'The verification.', schema: KycVerificationSchema } },
    errors: [kycErrors.VERIFICATION_NOT_FOUND, kycErrors.ALREADY_COMPLETED],
    handler: ({ rt, params, body }) => reply.ok(rt.kyc.complete(params.identityVerificationId, body ?? {})),
  }),
];
