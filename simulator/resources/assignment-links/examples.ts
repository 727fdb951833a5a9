// Request examples of assignment links, the end user's session and the issuing pages (shown in
// /openapi.json; sent in document order against the default fixture by
// openapi-examples.test.ts): a link walked through to the issued number, another revoked.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const LINK = ref('createAssignmentLink.store.token');
const REVOKED = ref('createAssignmentLink.spare.token');
const TOKEN = ref('createAssignmentLink.store.token');
const VERIFICATION = ref('startAssignmentSessionIdentityVerification.start.identityVerificationId');

export const examples: Record<string, OperationExample[]> = {
  createAssignmentLink: [
    { name: 'store', summary: 'A link for a new store manager, valid 3 days', params: acme, body: { webhookUrl: 'http://127.0.0.1:9/store-calls', note: 'Gangnam store', ttlSeconds: 259200 } },
    { name: 'spare', summary: 'A second link', params: acme, body: {} },
  ],
  listAssignmentLinks: [{ name: 'pending', summary: 'Links not used yet', params: acme, query: { status: 'pending' } }],
  getAssignmentLink: [{ name: 'store', summary: 'One link', params: { ...acme, linkId: LINK } }],
  revokeAssignmentLink: [{ name: 'spare', summary: 'Revoke the second link', params: { ...acme, linkId: REVOKED } }],
  getAssignmentSession: [{ name: 'store', summary: 'Where the person is in the flow', params: { token: TOKEN } }],
  setAssignmentSessionSubscriberType: [{ name: 'individual', summary: 'The person subscribes as an individual', params: { token: TOKEN }, body: { subscriberType: 'individual' } }],
  recordAssignmentSessionConsents: [
    {
      name: 'required',
      summary: 'The required clauses, agreed',
      params: { token: TOKEN },
      body: { items: ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'].map((clauseKey) => ({ clauseKey, agreed: true })) },
    },
  ],
  startAssignmentSessionIdentityVerification: [{ name: 'start', summary: 'Send the person to the identity provider', params: { token: TOKEN }, body: {} }],
  resumeAssignmentSessionIdentityVerification: [{ name: 'resume', summary: 'Back from the provider page: take its result', params: { token: TOKEN }, body: {} }],
  finalizeAssignmentSession: [{ name: 'finalize', summary: 'Issue the number', params: { token: TOKEN }, body: {} }],
  assignPage: [{ name: 'english', summary: 'The issuing page in English', params: { token: TOKEN }, query: { lang: 'en' } }],
  identityProviderPage: [{ name: 'korean', summary: 'The provider page in Korean', params: { identityVerificationId: VERIFICATION }, query: { lang: 'ko' } }],
  identityProviderSubmit: [
    { name: 'verify', summary: 'The person confirms', params: { identityVerificationId: VERIFICATION }, contentType: 'application/x-www-form-urlencoded', body: { action: 'verify', name: '김민지', birthDate: '1990-01-01' } },
  ],
};
