// Control plane of the email provider's settings: the region new sender domains get (it shows
// in the MAIL FROM and inbound MX hosts) and the regions that support receiving (a domain in
// another region has receivingStatus unsupported_region). Documented in docs/control-plane.md.
import { defineOperation, reply } from '../core/operation.ts';
import { EmailProviderSettingsSchema, UpdateEmailProviderSettingsBody } from '../resources/email-domains/schema.ts';

const TAG = 'Control plane';

export const operations = [
  defineOperation({
    operationId: 'simGetEmailProvider',
    method: 'GET',
    path: '/_sim/email-provider',
    tag: TAG,
    summary: 'Email provider settings: region of new domains, regions that receive',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The settings.', schema: EmailProviderSettingsSchema } },
    handler: ({ rt }) => reply.ok(rt.emailDomains.settings),
  }),
  defineOperation({
    operationId: 'simUpdateEmailProvider',
    method: 'PATCH',
    path: '/_sim/email-provider',
    tag: TAG,
    summary: 'Change the region of new domains or the regions that support receiving',
    description: '`region` applies to domains registered from now on (existing ones keep theirs). `receivingRegions` applies at the next check of every domain with receiving on.',
    origin: 'simulator',
    auth: 'control',
    body: UpdateEmailProviderSettingsBody,
    bodyRequired: true,
    responses: { 200: { description: 'The settings.', schema: EmailProviderSettingsSchema } },
    handler: ({ rt, body }) => reply.ok(rt.emailDomains.updateSettings(body)),
  }),
];
