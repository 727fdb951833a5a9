// Request examples of call flows (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts): a greeting that records a message, which the
// calls examples then run, a transfer to the front desk, and a third flow that is deleted.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const MEMO = ref('createCallFlow.memo.callFlowId');
const SPARE = ref('createCallFlow.spare.callFlowId');

/** Greets, records up to 20 seconds, says goodbye. */
export const MEMO_GRAPH = {
  version: 1,
  start: 'greet',
  nodes: {
    greet: { type: 'say', text: '안녕하세요, 에이씨엠이 물류입니다.', next: 'memo' },
    memo: { type: 'record', prompt: '삐 소리 후 메시지를 남겨 주세요.', maxLengthSec: 20, saveAs: 'memo', next: 'bye' },
    bye: { type: 'say', text: '감사합니다.', next: null },
  },
};

/** Greets, then connects the caller to the front desk. */
const TRANSFER_GRAPH = {
  version: 1,
  start: 'greet',
  nodes: {
    greet: { type: 'say', text: '상담원에게 연결합니다.', next: 'desk' },
    desk: { type: 'dial', target: { kind: 'number', value: '010-3000-0001' }, next: null },
  },
};

export const examples: Record<string, OperationExample[]> = {
  listCallFlows: [{ name: 'acme', summary: 'Every call flow of the account', params: acme }],
  createCallFlow: [
    { name: 'memo', summary: 'Greet, record a message, say goodbye', params: acme, body: { name: 'Leave a message', graph: MEMO_GRAPH } },
    { name: 'transfer', summary: 'Greet, then connect the caller to another number', params: acme, body: { name: 'To the front desk', graph: TRANSFER_GRAPH } },
    { name: 'spare', summary: 'A one-block flow', params: acme, body: { name: 'Closed today', graph: { version: 1, start: 'closed', nodes: { closed: { type: 'say', text: '오늘은 휴무입니다.', next: null } } } } },
  ],
  getCallFlow: [{ name: 'memo', summary: 'The flow with its graph, defaults filled in', params: { ...acme, callFlowId: MEMO } }],
  replaceCallFlow: [{ name: 'memo', summary: 'Replace name and graph', params: { ...acme, callFlowId: MEMO }, body: { name: 'Leave a message (after hours)', graph: MEMO_GRAPH } }],
  updateCallFlow: [{ name: 'rename', summary: 'Rename it, keeping the graph', params: { ...acme, callFlowId: MEMO }, body: { name: 'Voicemail' } }],
  deleteCallFlow: [{ name: 'spare', summary: 'Delete the second flow', params: { ...acme, callFlowId: SPARE } }],
};
