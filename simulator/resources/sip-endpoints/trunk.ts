// The sip_trunk add-on's refusal, shared by the families it gates: SIP endpoints and routes,
// IP ACLs and credentials (sip-auth), and sip/softphone routing of numbers.
import { defineError } from '../../core/errors.ts';

export const SIP_TRUNK_REQUIRED = defineError({
  code: 'SIP_TRUNK_REQUIRED', status: 403, origin: 'simulator',
  description: 'The account lacks the sip_trunk add-on: SIP endpoint, route, IP ACL and credential changes, and sip/softphone routing of numbers. (The API document answers FEATURE_DISABLED here; the spec reserves that code for assignment links.)',
});
