// The SIP endpoint family: the account's SIP endpoints and their origination routes.
import type { Family } from '../family.ts';
import { SipEndpointsModel } from './model.ts';
import { operations } from './routes.ts';
import { SIP_ENDPOINT_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const sipEndpoints: Family<'sipEndpoints', SipEndpointsModel, 'sipEndpoint'> = {
  key: 'sipEndpoints',
  create: (rt) => new SipEndpointsModel(rt),
  operations,
  examples,
  tags: {
    'SIP endpoints': 'The account\'s SIP endpoints and their origination routes (`sip:` URIs tried by priority, shared by weight); a number can route its inbound calls to an endpoint.',
  },
  idFormats: SIP_ENDPOINT_IDS,
  refKinds: ['sipEndpoint'],
};
