// Request examples of messages (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts): a text and a picture message from Acme's number.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const SMS = ref('sendMessage.sms.messageId');
const MMS = ref('sendMessage.mms.messageId');

export const examples: Record<string, OperationExample[]> = {
  sendMessage: [
    { name: 'sms', summary: 'A text message', params: acme, body: { From: '07012340001', To: '010-1234-5678', Body: 'Your parcel is on its way.' } },
    { name: 'mms', summary: 'A picture message (the fake image host serves any .png URL)', params: acme, body: { From: '07012340001', To: '010-1234-5678', Type: 'mms', Subject: 'Receipt', Body: 'Your receipt', MediaUrl: ['https://cdn.example.com/receipt.png'] } },
  ],
  listMessages: [{ name: 'sms', summary: 'Text messages, newest first', params: acme, query: { type: 'sms' } }],
  getMessage: [{ name: 'sms', summary: 'One message with its delivery status', params: { ...acme, messageId: SMS } }],
  getMessageMedia: [{ name: 'first', summary: 'The first image of a picture message', params: { ...acme, messageId: MMS, index: '0' } }],
};
