// Request examples of SIP IP ACLs, credentials and WebRTC tokens (shown in /openapi.json; sent
// in document order against the default fixture by openapi-examples.test.ts).
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const OFFICE = ref('createSipIpAcl.office.id');
const SPARE_ACL = ref('createSipIpAcl.spare.id');
const AGENT = ref('createSipCredential.agent.id');
const SPARE_CRED = ref('createSipCredential.spare.id');

export const examples: Record<string, OperationExample[]> = {
  listSipIpAcls: [{ name: 'active', summary: 'Active ACLs', params: acme, query: { status: 'active' } }],
  createSipIpAcl: [
    { name: 'office', summary: 'The office\'s addresses', params: acme, body: { name: 'Office', cidrs: ['203.0.113.0/24', '198.51.100.7/32'] } },
    { name: 'spare', summary: 'A second ACL', params: acme, body: { name: 'Spare' } },
  ],
  getSipIpAcl: [{ name: 'office', summary: 'One ACL', params: { ...acme, aclId: OFFICE } }],
  updateSipIpAcl: [{ name: 'cidrs', summary: 'Replace its address ranges', params: { ...acme, aclId: OFFICE }, body: { cidrs: ['203.0.113.0/24'] } }],
  deleteSipIpAcl: [{ name: 'spare', summary: 'Delete the second ACL', params: { ...acme, aclId: SPARE_ACL } }],
  listSipCredentials: [{ name: 'active', summary: 'Active credentials', params: acme, query: { status: 'active' } }],
  createSipCredential: [
    { name: 'agent', summary: 'A softphone login limited to the office ACL', params: acme, body: { name: 'Front desk', username: 'frontdesk', password: 'Str0ng-passw0rd!', ipAclId: OFFICE } },
    { name: 'spare', summary: 'A second login with a generated password', params: acme, body: { name: 'Spare', username: 'spare_login' } },
  ],
  getSipCredential: [{ name: 'agent', summary: 'One credential (the password is never shown again)', params: { ...acme, credentialId: AGENT } }],
  updateSipCredential: [{ name: 'name', summary: 'Rename it', params: { ...acme, credentialId: AGENT }, body: { name: 'Front desk (2F)' } }],
  deleteSipCredential: [{ name: 'spare', summary: 'Delete the second credential', params: { ...acme, credentialId: SPARE_CRED } }],
  createWebrtcToken: [{ name: 'hour', summary: 'A browser token valid for an hour', params: { ...acme, credentialId: AGENT }, body: { ttl_seconds: 3600 } }],
  revokeWebrtcToken: [{ name: 'hour', summary: 'Revoke the token by its jti', params: { ...acme, credentialId: AGENT, jti: ref('createWebrtcToken.hour.token#jti') } }],
};
