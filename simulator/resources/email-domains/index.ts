// The email-domain family: sender domains, their DNS verification and inbound receiving.
import type { Family } from '../family.ts';
import { EmailDomainsModel } from './model.ts';
import { operations } from './routes.ts';
import { EMAIL_DOMAIN_IDS } from './schema.ts';
import { operations as control } from '../../control/email-provider.ts';

export const emailDomains: Family<'emailDomains', EmailDomainsModel> = {
  key: 'emailDomains',
  create: (rt) => new EmailDomainsModel(rt),
  operations,
  control,
  tags: {
    'Email domains': 'Outbound-email sender domains: DNS verification (DKIM), custom MAIL FROM, DMARC and optional inbound receiving.',
  },
  idFormats: EMAIL_DOMAIN_IDS,
  events: ['email.received'],
  capabilities: ['email-provider'],
  fixture: ['email'],
};
