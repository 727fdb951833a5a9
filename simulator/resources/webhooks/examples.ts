// Request examples of account webhooks (shown in /openapi.json; sent in document order against
// the default fixture by openapi-examples.test.ts). Nothing listens on 127.0.0.1 port 9, so the
// test delivery fails fast and is logged: point the URL at your own receiver.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const CALLS = ref('createWebhook.calls.id');
const SPARE = ref('createWebhook.spare.id');

export const examples: Record<string, OperationExample[]> = {
  createWebhook: [
    { name: 'calls', summary: 'Receive call and message events', params: acme, body: { url: 'http://127.0.0.1:9/hooks', events: ['callflow.ended', 'message.sent', 'message.failed'] } },
    { name: 'spare', summary: 'A second receiver', params: acme, body: { url: 'http://127.0.0.1:9/spare', events: ['recording.completed'] } },
  ],
  listWebhooks: [{ name: 'acme', summary: 'Every webhook of the account', params: acme }],
  updateWebhook: [{ name: 'events', summary: 'Change the events it receives', params: { ...acme, webhookId: CALLS }, body: { events: ['callflow.ended', 'message.sent'] } }],
  deleteWebhook: [{ name: 'spare', summary: 'Delete the second webhook', params: { ...acme, webhookId: SPARE } }],
  listWebhookLogs: [{ name: 'calls', summary: 'Its delivery attempts, newest first', params: { ...acme, webhookId: CALLS }, query: { pageSize: 20 } }],
  testWebhook: [{ name: 'calls', summary: 'Send it a signed test event now', params: { ...acme, webhookId: CALLS } }],
};
