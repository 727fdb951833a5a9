// Request examples of the mobile-gateway operations (shown in /openapi.json; sent in document
// order against the default fixture by openapi-examples.test.ts): a token for a box, and the box
// enrolling with it (its Bearer is the token: the example runner's hook sets it). The status poll
// takes no parameters, so it has none.
import type { OperationExample } from '../../core/operation.ts';

export const examples: Record<string, OperationExample[]> = {
  createMobileGatewayEnrollmentToken: [{ name: 'box', summary: 'A one-time token for a box that will call out as 070-1234-0001', params: { accountId: 'AC1a2b3c4d' }, body: { didNumber: '070-1234-0001' } }],
  enrollMobileGateway: [{ name: 'box', summary: 'The box calls home with its WireGuard public key', body: { wgPubkey: 'BwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwcHBwc=', msisdn: '010-1234-5678' } }],
};
