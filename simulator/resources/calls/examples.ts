// Request examples of calls (shown in /openapi.json; sent in document order against the default
// fixture by openapi-examples.test.ts): one call runs the call-flows example's voicemail flow
// (the recordings examples read it), another is hung up while it rings.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const VOICEMAIL = ref('createCall.flow.callId');
const TRANSFERRED = ref('createCall.transfer.callId');
const HUNG_UP = ref('createCall.other.callId');

export const examples: Record<string, OperationExample[]> = {
  createCall: [
    { name: 'flow', summary: 'Call a customer and run a call flow', params: acme, body: { From: '07012340001', To: '010-1234-5678', CallFlowId: ref('createCallFlow.memo.callFlowId'), Variables: { customerName: '김민지' } } },
    { name: 'transfer', summary: 'A call put through to the front desk, with status callbacks', params: acme, body: { From: '07012340001', To: '010-8765-4321', CallFlowId: ref('createCallFlow.transfer.callFlowId'), StatusCallback: 'http://127.0.0.1:9/status', StatusCallbackEvent: 'initiated completed' } },
    { name: 'other', summary: 'A third call, hung up while it rings', params: acme, body: { From: '07012340002', To: '010-5555-6666', CallFlowId: ref('createCallFlow.memo.callFlowId') } },
  ],
  listCalls: [{ name: 'recent', summary: 'Calls from a number, newest first', params: acme, query: { from: ['07012340001'], pageSize: 20 } }],
  getCall: [{ name: 'flow', summary: 'One call', params: { ...acme, callId: VOICEMAIL } }],
  updateCall: [{ name: 'hangUp', summary: 'Hang up the third call', params: { ...acme, callId: HUNG_UP }, body: { Status: 'completed' } }],
  listCallEvents: [{ name: 'flow', summary: 'What happened in the call, in order', params: { ...acme, callId: VOICEMAIL } }],
  playIntoCall: [{ name: 'notice', summary: 'Speak into the call while it is put through', params: { ...acme, callId: TRANSFERRED }, body: { text: '잠시만 기다려 주세요.', language: 'ko' } }],
};
