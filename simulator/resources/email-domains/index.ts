// The email-domain family: sender domains, their DNS verification and inbound receiving. Behind
// its door: it needs the fake DNS (ports.ts), declares its periodic check job and the
// email.received event the public document names, and hands the runtime its settings and
// domains as its snapshot part (the model checks they are unique after the runtime validated).
import { nothingToWire } from '../../core/first-use.ts';
import { ownPart } from '../../core/table-state.ts';
import { webhookEvents } from '../../core/events.ts';
import { defineFamily } from '../family.ts';
import { EmailDomainsModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { emailDomainsFixture } from './fixture.ts';
import { jobs, needs } from './ports.ts';
import { EMAIL_DOMAIN_IDS, EmailDomainsStateSchema, type EmailDomainsState } from './schema.ts';
import { examples } from './examples.ts';

export const emailDomains = defineFamily({
  key: 'emailDomains',
  needs,
  jobs,
  create: (scope) => new EmailDomainsModel(scope),
  wire: nothingToWire, // built on first use (decisions.md "Models built on first use")
  state: ownPart<EmailDomainsState, EmailDomainsModel>(EmailDomainsStateSchema),
  fixture: emailDomainsFixture,
  operations,
  examples,
  control,
  tags: {
    'Email domains': 'Outbound-email sender domains: DNS verification (DKIM), custom MAIL FROM, DMARC and optional inbound receiving.',
  },
  idFormats: EMAIL_DOMAIN_IDS,
  events: webhookEvents('email.received'),
  capabilities: ['email-provider'],
});
