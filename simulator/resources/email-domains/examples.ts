// Request examples of email domains (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts): two domains registered, one deleted, the other
// checked against the fake DNS.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const MAIL = ref('createEmailDomain.mail.id');
const NEWS = ref('createEmailDomain.news.id');

export const examples: Record<string, OperationExample[]> = {
  listEmailDomains: [{ name: 'firstPage', summary: 'The first page of sender domains', params: acme, query: { page: 0, pageSize: 20 } }],
  createEmailDomain: [
    { name: 'mail', summary: 'Register a sender domain', params: acme, body: { domain: 'mail.example.com' } },
    { name: 'news', summary: 'Register a second one', params: acme, body: { domain: 'news.example.com' } },
  ],
  getEmailDomain: [{ name: 'mail', summary: 'Its DNS records to publish and their last check', params: { ...acme, emailDomainId: MAIL } }],
  updateEmailDomain: [{ name: 'receiving', summary: 'Do not receive email at the domain (turning it on needs a verified domain)', params: { ...acme, emailDomainId: MAIL }, body: { receivingEnabled: false } }],
  deleteEmailDomain: [{ name: 'news', summary: 'Delete the second domain', params: { ...acme, emailDomainId: NEWS } }],
  verifyEmailDomain: [{ name: 'mail', summary: 'Check its records now', params: { ...acme, emailDomainId: MAIL } }],
};
