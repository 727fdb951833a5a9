// The verifications family: one-time codes sent by text or call and checked against their hash.
import type { Family } from '../family.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import { VerificationsModel } from './model.ts';
import { operations } from './routes.ts';
import { VERIFICATION_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const verifications: Family<'verifications', VerificationsModel> = {
  key: 'verifications',
  create: (rt) => new VerificationsModel(rt, new OutboundRules(rt)), // rt's numbers, accounts and blockLists are its ports
  operations,
  examples,
  tags: {
    Verifications: 'One-time codes sent by text or call and checked against their hash; the account comes from the API key.',
  },
  idFormats: VERIFICATION_IDS,
  carrierOwners: ['verification'],
};
