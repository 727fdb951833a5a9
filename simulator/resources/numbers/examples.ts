// Request examples of the numbers family (shown in /openapi.json; sent in document order
// against the default fixture by openapi-examples.test.ts): Acme issues a pool number, routes a
// fixture number by forward, and returns the issued one.
import type { OperationExample } from '../../core/operation.ts';

const acme = { accountId: 'AC1a2b3c4d' };

export const examples: Record<string, OperationExample[]> = {
  listNumbers: [{ name: 'acme', summary: 'Every number of the account', params: acme }],
  registerNumber: [
    {
      name: 'withWebhook',
      summary: 'Issue the next pool number, routed to a VoiceML webhook',
      params: acme,
      body: { webhookUrl: 'http://127.0.0.1:9/voice', webhookMethod: 'POST', statusCallback: 'http://127.0.0.1:9/status', statusCallbackEvents: 'initiated completed' },
    },
  ],
  createRepresentativeNumber: [{ name: 'acme', summary: 'Issue a 15xx number (needs the representative_number add-on)', params: acme }],
  updateNumber: [
    {
      name: 'forward',
      summary: 'Forward inbound calls to another number of the account',
      params: { ...acme, number: '07012340001' },
      body: { routingType: 'forward', forwardTo: '07012340002' },
    },
  ],
  deleteNumber: [{ name: 'issued', summary: 'Return the number registerNumber issued', params: { ...acme, number: '07040000000' } }],
};
