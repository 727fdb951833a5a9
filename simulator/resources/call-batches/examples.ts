// Request examples of call batches (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts): a batch that runs the call-flows example's flow.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const BATCH = ref('createCallBatch.reminders.batchId');

export const examples: Record<string, OperationExample[]> = {
  createCallBatch: [
    {
      name: 'reminders',
      summary: 'Call two customers with a flow, two rounds',
      params: acme,
      body: {
        Name: 'Delivery reminders',
        From: '07012340001',
        CallFlowId: ref('createCallFlow.memo.callFlowId'),
        Tasks: [
          { To: '010-2000-0001', Variables: { customerName: '김민지' } },
          { To: '010-2000-0002', Variables: { customerName: '이서준' } },
        ],
        MaxConcurrency: 2,
      },
    },
  ],
  listCallBatches: [{ name: 'acme', summary: 'Every batch of the account', params: acme }],
  getCallBatch: [{ name: 'reminders', summary: 'One batch and its counts', params: { ...acme, batchId: BATCH } }],
  listCallBatchTasks: [{ name: 'queued', summary: 'Its tasks still waiting', params: { ...acme, batchId: BATCH }, query: { status: 'pending' } }],
  addCallBatchTasks: [{ name: 'one', summary: 'Add a recipient', params: { ...acme, batchId: BATCH }, body: { Tasks: [{ To: '010-2000-0003' }] } }],
  controlCallBatch: [{ name: 'pause', summary: 'Pause dialing', params: { ...acme, batchId: BATCH }, body: { Action: 'pause' } }],
};
