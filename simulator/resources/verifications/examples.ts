// Request examples of verifications (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts): one verification checked with the code the
// phone received, another cancelled.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const CHECKED = ref('createVerification.sms.verificationId');
const CANCELLED = ref('createVerification.short.verificationId');

export const examples: Record<string, OperationExample[]> = {
  listVerifications: [{ name: 'pending', summary: 'Verifications still waiting for a code', query: { status: 'pending' } }],
  createVerification: [
    { name: 'sms', summary: 'Text a 6-digit code', body: { to: '010-1234-5678', channel: 'sms' } },
    { name: 'short', summary: 'A 4-digit code valid for 5 minutes', body: { to: '010-8765-4321', codeLength: 4, ttlSeconds: 300 } },
  ],
  getVerification: [{ name: 'sms', summary: 'Its status and attempts', params: { verificationId: CHECKED } }],
  checkVerification: [{ name: 'right', summary: 'The code the phone received', params: { verificationId: CHECKED }, body: { code: ref('code:01012345678') } }],
  cancelVerification: [{ name: 'short', summary: 'Give up the second verification', params: { verificationId: CANCELLED } }],
};
