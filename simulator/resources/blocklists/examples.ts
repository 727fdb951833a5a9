// Request examples of the block lists (shown in /openapi.json; sent in document order against
// the default fixture by openapi-examples.test.ts). The fixture's entries are Acme's blocked
// caller 010-9999-0001 and its message opt-out 010-5555-0101.
import type { OperationExample } from '../../core/operation.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const FIXTURE_CALLER = 'bc_6cf764cfca5913c5b0e658c6';
const FIXTURE_OPT_OUT = 'blk_862c38f0f747e6ebf1bcc746';

export const examples: Record<string, OperationExample[]> = {
  listBlockedCallers: [{ name: 'all', summary: 'Active and released entries, 10 a page', params: acme, query: { status: 'all', pageSize: 10 } }],
  createBlockedCaller: [{ name: 'nuisance', summary: 'Reject calls from a number', params: acme, body: { number: '010-2222-3333', note: 'Repeated silent calls' } }],
  getBlockedCaller: [{ name: 'fixture', summary: 'The fixture\'s blocked caller', params: { ...acme, blockedCallerId: FIXTURE_CALLER } }],
  releaseBlockedCaller: [{ name: 'fixture', summary: 'Accept calls from it again', params: { ...acme, blockedCallerId: FIXTURE_CALLER }, body: { note: 'Resolved by phone' } }],
  listBlockedRecipients: [{ name: 'messages', summary: 'Active opt-outs of the message channel', params: acme, query: { channel: 'message' } }],
  createBlockedRecipient: [{ name: 'optOut', summary: 'Stop calling a number that asked not to be called', params: acme, body: { number: '010-3333-4444', channel: 'call', source: 'api', note: 'Asked on the phone' } }],
  getBlockedRecipient: [{ name: 'fixture', summary: 'The fixture\'s message opt-out', params: { ...acme, blockId: FIXTURE_OPT_OUT } }],
  updateBlockedRecipient: [{ name: 'note', summary: 'Change the memo', params: { ...acme, blockId: FIXTURE_OPT_OUT }, body: { note: 'Confirmed by email' } }],
  releaseBlockedRecipient: [{ name: 'fixture', summary: 'Message the number again', params: { ...acme, blockId: FIXTURE_OPT_OUT }, body: { note: 'Opted back in' } }],
};
