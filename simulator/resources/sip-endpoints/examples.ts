// Request examples of SIP trunk endpoints and their origination routes (shown in /openapi.json;
// sent in document order against the default fixture by openapi-examples.test.ts). Acme has the
// sip_trunk add-on.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const PBX = ref('createSipEndpoint.pbx.id');
const SPARE = ref('createSipEndpoint.spare.id');
const ROUTE = ref('createSipOriginationRoute.primary.id');

export const examples: Record<string, OperationExample[]> = {
  listSipEndpoints: [{ name: 'active', summary: 'Active endpoints', params: acme, query: { status: 'active' } }],
  createSipEndpoint: [
    { name: 'pbx', summary: 'An endpoint for the office PBX, 10 calls at once', params: acme, body: { name: 'Office PBX', maxConcurrent: 10 } },
    { name: 'spare', summary: 'A second endpoint', params: acme, body: { name: 'Spare trunk' } },
  ],
  getSipEndpoint: [{ name: 'pbx', summary: 'The endpoint with its routes', params: { ...acme, endpointId: PBX } }],
  updateSipEndpoint: [{ name: 'limit', summary: 'Raise its concurrent-call limit', params: { ...acme, endpointId: PBX }, body: { maxConcurrent: 20 } }],
  deleteSipEndpoint: [{ name: 'spare', summary: 'Delete the second endpoint', params: { ...acme, endpointId: SPARE } }],
  listSipOriginationRoutes: [{ name: 'pbx', summary: 'Where its calls go', params: { ...acme, endpointId: PBX } }],
  createSipOriginationRoute: [
    { name: 'primary', summary: 'Send calls to the PBX over TLS', params: { ...acme, endpointId: PBX }, body: { uri: 'sips:pbx.example.com:5061', priority: 10, weight: 100 } },
    { name: 'backup', summary: 'A backup route', params: { ...acme, endpointId: PBX }, body: { uri: 'sip:203.0.113.10:5060', priority: 20, transport: 'udp' } },
  ],
  getSipOriginationRoute: [{ name: 'primary', summary: 'One route', params: { ...acme, endpointId: PBX, routeId: ROUTE } }],
  updateSipOriginationRoute: [{ name: 'weight', summary: 'Change its weight', params: { ...acme, endpointId: PBX, routeId: ROUTE }, body: { weight: 50 } }],
  deleteSipOriginationRoute: [{ name: 'primary', summary: 'Delete the route', params: { ...acme, endpointId: PBX, routeId: ROUTE } }],
};
