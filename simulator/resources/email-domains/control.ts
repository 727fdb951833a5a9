// The email domains' /_sim routes: the email provider's settings (the region new sender domains
// get, which shows in the MAIL FROM and inbound MX hosts, and the regions that support
// receiving: a domain in another region has receivingStatus unsupported_region), and planting a
// domain's listed records in the fake DNS, as a customer following the instructions would.
// Documented in docs/control-plane.md ("Email provider", "DNS").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { StringEnum } from '../../core/schema.ts';
import { DnsRecordSchema } from '../../peers/dns/model.ts';
import { emailDomainErrors } from './model.ts';
import { dnsRecordsOf } from './records.ts';
import { EmailProviderSettingsSchema, RECORD_PURPOSES, UpdateEmailProviderSettingsBody } from './schema.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';

const PlantBody = Type.Object(
  {
    emailDomainId: Type.String({ minLength: 1 }),
    purposes: Type.Optional(Type.Array(StringEnum(RECORD_PURPOSES), { description: 'Only the listed records with these purposes; all listed records when omitted.' })),
  },
  { $id: 'SimDnsPlantRequest', additionalProperties: false },
);
const Planted = Type.Object({ records: Type.Array(DnsRecordSchema) }, { $id: 'SimDnsPlanted', additionalProperties: false });

export const operations = [
  operation({
    operationId: 'simGetEmailProvider',
    method: 'GET',
    path: '/_sim/email-provider',
    tag: TAG,
    summary: 'Email provider settings: region of new domains, regions that receive',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The settings.', schema: EmailProviderSettingsSchema } },
    handler: ({ scope }) => reply.ok(scope.emailDomains.settings),
  }),
  operation({
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
    handler: ({ scope, body }) => reply.ok(scope.emailDomains.updateSettings(body)),
  }),
  operation({
    operationId: 'simPlantEmailDomainRecords',
    method: 'POST',
    path: '/_sim/dns/plant',
    tag: TAG,
    summary: 'Plant the records an email domain lists',
    description: 'Adds the domain\'s current `dnsRecords` (optionally only some purposes) to the zone, as a customer following the instructions would. Any account\'s domain.',
    origin: 'simulator',
    auth: 'control',
    body: PlantBody,
    bodyRequired: true,
    responses: { 200: { description: 'The records planted.', schema: Planted } },
    errors: [emailDomainErrors.EMAIL_DOMAIN_NOT_FOUND],
    handler: ({ scope, body }) => {
      const row = scope.emailDomains.find(body.emailDomainId);
      if (!row) throw emailDomainErrors.EMAIL_DOMAIN_NOT_FOUND(`no email domain ${body.emailDomainId}`);
      const wanted = body.purposes ? new Set<string>(body.purposes) : undefined;
      const records = dnsRecordsOf(row)
        .filter((r) => !wanted || wanted.has(r.purpose))
        .map((r) => ({ name: r.name, type: r.type, value: r.value, priority: r.priority }));
      scope.dns.add(records);
      return reply.ok({ records });
    },
  }),
];
