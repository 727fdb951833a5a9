// The SIP authentication family: IP ACLs, SIP credentials, WebRTC tokens and the fake registrar
// (its /_sim route, control.ts). Behind its door: it needs the add-on check and who owns a number
// (ports.ts), answers the `sipCredential` reference numbers make, and hands the runtime its
// three tables as its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { SipAuthModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';
import { SIP_AUTH_IDS, SipAuthStateSchema } from './schema.ts';
import { examples } from './examples.ts';

export const sipAuth = defineFamily({
  key: 'sipAuth',
  needs,
  create: (scope) => new SipAuthModel(scope),
  state: tablesPart(SipAuthStateSchema, (m: SipAuthModel) => ({ acls: m.acls, credentials: m.credentials, tokens: m.tokens })),
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
});
