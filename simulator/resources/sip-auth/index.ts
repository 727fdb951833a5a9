// The SIP authentication family: IP ACLs, SIP credentials, WebRTC tokens and the fake registrar.
import type { Family } from '../family.ts';
import { SipAuthModel } from './model.ts';
import { operations } from './routes.ts';
import { SIP_AUTH_IDS } from './schema.ts';
import { operations as control } from '../../control/sip-auth.ts';
import { examples } from './examples.ts';

export const sipAuth: Family<'sipAuth', SipAuthModel, 'sipCredential'> = {
  key: 'sipAuth',
  create: (rt) => new SipAuthModel(rt),
  operations,
  examples,
  control,
  tags: {
    'SIP IP ACLs': 'Address ranges (CIDR) allowed to send SIP traffic for the account; changes need the sip_trunk add-on.',
    'SIP credentials': 'Usernames and passwords that SIP devices register with (digest), and the short-lived WebRTC tokens issued for them; changes need the sip_trunk add-on.',
  },
  idFormats: SIP_AUTH_IDS,
  refKinds: ['sipCredential'],
  capabilities: ['sip-auth'],
};
