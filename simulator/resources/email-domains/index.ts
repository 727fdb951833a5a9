// The email-domain family: sender domains, their DNS verification and inbound receiving.
import { Type } from '@sinclair/typebox';
import type { Family } from '../family.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import { EmailDomainsModel } from './model.ts';
import { operations } from './routes.ts';
import { EMAIL_DOMAIN_IDS, REGION_PATTERN } from './schema.ts';
import { operations as control } from '../../control/email-provider.ts';
import { examples } from './examples.ts';

/** Its fixture section: the email provider's settings. */
const fixture = {
  email: Type.Optional(
    Type.Object(
      {
        region: Type.Optional(Type.String({ pattern: REGION_PATTERN, description: 'Region given to new sender domains (default ap-northeast-2).' })),
        receivingRegions: Type.Optional(Type.Array(Type.String({ pattern: REGION_PATTERN }), { description: 'Regions that support inbound receiving.' })),
      },
      { additionalProperties: false, description: 'Email provider settings.' },
    ),
  ),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof fixture> {}
}

export const emailDomains: Family<'emailDomains', EmailDomainsModel> = {
  key: 'emailDomains',
  create: (rt) => new EmailDomainsModel(rt),
  operations,
  examples,
  control,
  tags: {
    'Email domains': 'Outbound-email sender domains: DNS verification (DKIM), custom MAIL FROM, DMARC and optional inbound receiving.',
  },
  idFormats: EMAIL_DOMAIN_IDS,
  events: ['email.received'],
  capabilities: ['email-provider'],
  fixture,
};
