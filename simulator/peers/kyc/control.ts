// The fake identity provider's /_sim routes (docs/control-plane.md, "Identity verification and
// issuing pages"): its failure mode, the result of the next verification, completing a
// verification as the person would on its page, and what it holds.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { KYC_FAILURES, KYC_RESULTS, KycVerificationSchema, kycErrors, type FakeIdentityProvider } from './model.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

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

function kycView(kyc: FakeIdentityProvider) {
  return { failure: kyc.failure, nextResult: kyc.nextResult, verifications: kyc.list() };
}

export const operations = [
  operation({
    operationId: 'simGetKyc',
    method: 'GET',
    path: '/_sim/kyc',
    tag: TAG,
    summary: 'The fake identity provider: failure mode, scripted next result, verifications',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The provider.', schema: KycView } },
    handler: ({ scope }) => reply.ok(kycView(scope.kyc)),
  }),
  operation({
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
    handler: ({ scope, body }) => {
      if (body.failure !== undefined) scope.kyc.failure = body.failure;
      if (body.nextResult !== undefined) scope.kyc.nextResult = body.nextResult;
      return reply.ok(kycView(scope.kyc));
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => reply.ok(scope.kyc.complete(params.identityVerificationId, body ?? {})),
  }),
];
