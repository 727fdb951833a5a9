// HTTP surface of the end user's issuing session, exactly as the public API document shapes it
// (AssignmentSessions): no API key, the link token in the path, JSON bodies.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { sessionErrors as E } from './errors.ts';
import { operation } from './scope.ts';
import { AssignmentSession, ConsentsBody, EmptyBody, OkResult, SubscriberTypeBody } from './schema.ts';

const TAG = 'Assignment sessions';
const token = { token: Type.String({ minLength: 32, description: 'The link token (one-time, high entropy) from the issuing address.' }) };
const BASIS = 'Public API document (AssignmentSessions); codes ours, docs/decisions.md "Assignment links".';
// Every session operation refuses an unknown token, an account without the add-on, and a link
// that expired, was revoked or was used, before anything else.
const common = [E.SESSION_NOT_FOUND, E.ADDON_INACTIVE, E.SESSION_GONE, E.SESSION_USED, E.STEP_OUT_OF_ORDER];

export const operations = [
  operation({
    operationId: 'getAssignmentSession',
    method: 'GET',
    path: '/v1/assignment-sessions/{token}',
    tag: TAG,
    summary: 'The end user\'s issuing session: step, organisation, issued number',
    description: 'A used link still answers, with status consumed and step done; an expired or revoked link is 410 with `status`.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    responses: { 200: { description: 'The session.', schema: AssignmentSession } },
    errors: [E.SESSION_NOT_FOUND, E.ADDON_INACTIVE, E.SESSION_GONE],
    handler: (ctx) => reply.ok(ctx.scope.assignmentLinks.sessions.get(ctx.params.token)),
  }),
  operation({
    operationId: 'setAssignmentSessionSubscriberType',
    method: 'POST',
    path: '/v1/assignment-sessions/{token}/subscriber-type',
    tag: TAG,
    summary: 'Choose individual or corporate',
    description: 'At step selectType, or again at consents. Moves to consents.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    body: SubscriberTypeBody,
    bodyRequired: true,
    responses: { 200: { description: 'Saved.', schema: OkResult } },
    errors: [...common, E.INVALID_SUBSCRIBER_TYPE],
    handler: (ctx) => {
      ctx.scope.assignmentLinks.sessions.setSubscriberType(ctx.params.token, ctx.body.subscriberType);
      return reply.ok({ ok: true });
    },
  }),
  operation({
    operationId: 'recordAssignmentSessionConsents',
    method: 'POST',
    path: '/v1/assignment-sessions/{token}/consents',
    tag: TAG,
    summary: 'Record the clauses the person agreed to',
    description: 'Required: management.terms, management.account, management.privacy, management.thirdParty (agreed true); management.marketing is optional. A missing one is 422 CONSENT_REQUIRED with `missing`, and nothing is recorded. Moves to verify.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    body: ConsentsBody,
    bodyRequired: true,
    responses: { 200: { description: 'Recorded.', schema: OkResult } },
    errors: [...common, E.CONSENT_REQUIRED],
    handler: (ctx) => {
      ctx.scope.assignmentLinks.sessions.recordConsents(ctx.params.token, ctx.body.items);
      return reply.ok({ ok: true });
    },
  }),
  operation({
    operationId: 'startAssignmentSessionIdentityVerification',
    method: 'POST',
    path: '/v1/assignment-sessions/{token}/identity-verifications',
    tag: TAG,
    summary: 'Start an identity verification at the provider',
    description: 'At step verify. Send the person to the provider page (the simulator\'s: /identity/{identityVerificationId}); it redirects back to the issuing page, which then resumes. At most 5 per link (429).',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    body: EmptyBody,
    responses: { 201: { description: 'The verification bound to the link.', schema: Type.Object({ identityVerificationId: Type.String() }, { additionalProperties: false }) } },
    errors: [...common, E.CONSENT_REQUIRED, E.VERIFICATION_RATE_LIMITED],
    handler: (ctx) => reply.created({ identityVerificationId: ctx.scope.assignmentLinks.sessions.startVerification(ctx.params.token) }),
  }),
  operation({
    operationId: 'resumeAssignmentSessionIdentityVerification',
    method: 'POST',
    path: '/v1/assignment-sessions/{token}/identity-verifications/resume',
    tag: TAG,
    summary: 'Check the newest verification\'s result at the provider and keep it',
    description: 'After the redirect back. Verified: moves to ready. Not completed or cancelled, name mismatch, too young: 409 with its code (start another). The provider failing: 502, nothing changed.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    body: EmptyBody,
    responses: { 200: { description: 'The stored result.', schema: Type.Object({ kycSnapshotId: Type.String() }, { additionalProperties: false }) } },
    errors: [...common, E.IDENTITY_NOT_VERIFIED, E.IDENTITY_NAME_MISMATCH, E.IDENTITY_AGE_RESTRICTED, E.IDENTITY_PROVIDER_ERROR],
    handler: (ctx) => reply.ok({ kycSnapshotId: ctx.scope.assignmentLinks.sessions.resumeVerification(ctx.params.token) }),
  }),
  operation({
    operationId: 'finalizeAssignmentSession',
    method: 'POST',
    path: '/v1/assignment-sessions/{token}/finalize',
    tag: TAG,
    summary: 'Issue the number and consume the link',
    description: 'At step ready. Issues the next pool number with the link\'s webhook settings, marks the link consumed, sends assignment.completed. A second finalize is 409; exactly one number is ever issued per link.',
    origin: 'reference',
    basis: BASIS,
    auth: 'none',
    params: token,
    body: EmptyBody,
    responses: { 201: { description: 'Issued.', schema: Type.Object({ assignedNumber: Type.String() }, { additionalProperties: false }) } },
    errors: [...common, E.CONSENT_REQUIRED, E.NUMBER_STOCK_EXHAUSTED, E.LINE_LIMIT_REACHED, outboundErrors.NO_SUBSCRIPTION],
    handler: (ctx) => reply.created({ assignedNumber: ctx.scope.assignmentLinks.sessions.finalize(ctx.params.token) }),
  }),
];
