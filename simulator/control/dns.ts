// Control plane of the fake DNS (simulator/peers/dns.ts): set and remove records per name,
// plant the records an email domain lists, and script lookup failures (provider outage, lookup
// timeout) per name, per domain or globally. Documented in docs/control-plane.md, "DNS".
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { Nullable, StringEnum, StringRefusedBy } from '../core/schema.ts';
import { DnsFailureSchema, DnsRecordSchema, FAILURE_KINDS, MAX_TXT_LENGTH, RECORD_TYPES, dnsName } from '../peers/dns.ts';
import { emailDomainErrors } from '../resources/email-domains/model.ts';
import { dnsRecordsOf } from '../resources/email-domains/records.ts';
import { RECORD_PURPOSES } from '../resources/email-domains/schema.ts';
import { DNS_NAME_PATTERN } from '../core/domain.ts';
import { withRules } from '../core/schema-rules.ts';

const TAG = 'Control plane';

const typeOf = (...types: string[]) => ({ properties: { type: { enum: types } } });
const RecordInputSchema = withRules(
  Type.Object(
    {
      type: StringEnum(RECORD_TYPES),
      value: Type.String({ minLength: 1, maxLength: MAX_TXT_LENGTH, description: 'CNAME/MX: a host name. TXT: the text; quotes you add are kept and become part of the value.' }),
      priority: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 65535 }), { description: 'Required for MX; absent or null otherwise.' })),
    },
    { additionalProperties: false },
  ),
  [
    {
      description: 'A takes an IPv4 address, AAAA an IPv6 address, CNAME and MX a DNS name; MX needs priority, the others have none.',
      code: 'VALIDATION',
      schema: {
        allOf: [
          { if: typeOf('A'), then: { properties: { value: { format: 'ipv4' } } } },
          { if: typeOf('AAAA'), then: { properties: { value: { format: 'ipv6' } } } },
          { if: typeOf('CNAME', 'MX'), then: { properties: { value: { pattern: DNS_NAME_PATTERN } } } },
          { if: typeOf('MX'), then: { required: ['priority'], properties: { priority: { type: 'integer' } } }, else: { properties: { priority: { type: 'null' } } } },
        ],
      },
    },
  ],
);
const SetRecordsBody = Type.Object(
  { records: Type.Array(RecordInputSchema, { maxItems: 100, description: 'Every record the name holds from now on; [] removes them all.' }) },
  { $id: 'SimDnsSetRecordsRequest', additionalProperties: false },
);
const NameRecords = Type.Object({ name: Type.String(), records: Type.Array(DnsRecordSchema) }, { $id: 'SimDnsNameRecords', additionalProperties: false });
const FailureList = Type.Object({ failures: Type.Array(DnsFailureSchema) }, { $id: 'SimDnsFailures', additionalProperties: false });
const Zone = Type.Object(
  { records: Type.Array(DnsRecordSchema), failures: Type.Array(DnsFailureSchema) },
  { $id: 'SimDnsZone', additionalProperties: false },
);
const PlantBody = Type.Object(
  {
    emailDomainId: Type.String({ minLength: 1 }),
    purposes: Type.Optional(Type.Array(StringEnum(RECORD_PURPOSES), { description: 'Only the listed records with these purposes; all listed records when omitted.' })),
  },
  { $id: 'SimDnsPlantRequest', additionalProperties: false },
);
const Planted = Type.Object({ records: Type.Array(DnsRecordSchema) }, { $id: 'SimDnsPlanted', additionalProperties: false });
const present = (field: string) => ({ required: [field], properties: { [field]: { not: { type: 'null' } } } });
const AddFailureBody = withRules(
  Type.Object(
    {
      kind: StringEnum(FAILURE_KINDS, { description: 'outage: the provider cannot check the domain (verification answers 503); timeout: the lookups covered fail.' }),
      domain: Type.Optional(Nullable(StringRefusedBy('VALIDATION', { minLength: 1, pattern: DNS_NAME_PATTERN, description: 'This name and every name under it.' }))),
      name: Type.Optional(Nullable(StringRefusedBy('VALIDATION', { minLength: 1, pattern: DNS_NAME_PATTERN, description: 'Exactly this name (timeout only).' }))),
    },
    { $id: 'SimDnsAddFailureRequest', additionalProperties: false },
  ),
  [
    {
      description: 'Not both domain and name; an outage takes no name.',
      code: 'VALIDATION',
      schema: { allOf: [{ not: { allOf: [present('domain'), present('name')] } }, { if: { properties: { kind: { const: 'outage' } } }, then: { not: present('name') } }] },
    },
  ],
);
const nameParam = { name: Type.String({ pattern: DNS_NAME_PATTERN, description: 'A DNS name; normalised like a domain (case, trailing dot, punycode).' }) };

export const operations = [
  defineOperation({
    operationId: 'simGetDnsZone',
    method: 'GET',
    path: '/_sim/dns',
    tag: TAG,
    summary: 'Every DNS record and scripted failure',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The zone, sorted by name.', schema: Zone } },
    handler: ({ rt }) => reply.ok({ records: rt.dns.allRecords(), failures: rt.dns.listFailures() }),
  }),
  defineOperation({
    operationId: 'simGetDnsRecords',
    method: 'GET',
    path: '/_sim/dns/records/{name}',
    tag: TAG,
    summary: 'The records at one name',
    origin: 'simulator',
    auth: 'control',
    params: nameParam,
    responses: { 200: { description: 'The records (none is an empty list).', schema: NameRecords } },
    handler: ({ rt, params }) => {
      const name = dnsName(params.name, 'name');
      return reply.ok({ name, records: rt.dns.recordsAt(name) });
    },
  }),
  defineOperation({
    operationId: 'simSetDnsRecords',
    method: 'PUT',
    path: '/_sim/dns/records/{name}',
    tag: TAG,
    summary: 'Set every record at one name',
    description: 'Replaces what the name holds; `{"records": []}` removes it. Identical records are kept once. The next check (a verification request or a periodic check) sees the change.',
    origin: 'simulator',
    auth: 'control',
    params: nameParam,
    body: SetRecordsBody,
    bodyRequired: true,
    responses: { 200: { description: 'The records now at the name.', schema: NameRecords } },
    handler: ({ rt, params, body }) => {
      const prepared = rt.dns.prepare(params.name, body.records);
      return reply.ok({ name: prepared.name, records: rt.dns.set(prepared) });
    },
  }),
  defineOperation({
    operationId: 'simRemoveDnsRecords',
    method: 'DELETE',
    path: '/_sim/dns/records/{name}',
    tag: TAG,
    summary: 'Remove the records at one name (all, or one type)',
    origin: 'simulator',
    auth: 'control',
    params: nameParam,
    query: { type: StringEnum(RECORD_TYPES, { description: 'Only records of this type.' }) },
    responses: { 204: { description: 'Removed (or there were none).' } },
    handler: ({ rt, params, query }) => {
      rt.dns.remove(dnsName(params.name, 'name'), query.type);
      return reply.noContent();
    },
  }),
  defineOperation({
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
    handler: ({ rt, body }) => {
      const row = rt.emailDomains.find(body.emailDomainId);
      if (!row) throw emailDomainErrors.EMAIL_DOMAIN_NOT_FOUND(`no email domain ${body.emailDomainId}`);
      const wanted = body.purposes ? new Set<string>(body.purposes) : undefined;
      const records = dnsRecordsOf(row)
        .filter((r) => !wanted || wanted.has(r.purpose))
        .map((r) => ({ name: r.name, type: r.type, value: r.value, priority: r.priority }));
      rt.dns.add(records);
      return reply.ok({ records });
    },
  }),
  defineOperation({
    operationId: 'simListDnsFailures',
    method: 'GET',
    path: '/_sim/dns/failures',
    tag: TAG,
    summary: 'Scripted lookup failures',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The failures, in the order added.', schema: FailureList } },
    handler: ({ rt }) => reply.ok({ failures: rt.dns.listFailures() }),
  }),
  defineOperation({
    operationId: 'simAddDnsFailure',
    method: 'POST',
    path: '/_sim/dns/failures',
    tag: TAG,
    summary: 'Make lookups fail: a provider outage or a lookup timeout',
    description: 'Neither `domain` nor `name`: global. `domain`: that name and every name under it. `name`: exactly that name (timeouts only). An outage makes verification requests of the domains it covers answer 503 and periodic checks skip them; a timeout fails the lookups it covers (DKIM lookups failing is a 503 as well; a failed MAIL FROM, DMARC or MX lookup leaves only that status unchanged).',
    origin: 'simulator',
    auth: 'control',
    body: AddFailureBody,
    bodyRequired: true,
    responses: { 201: { description: 'Every failure now scripted.', schema: FailureList } },
    handler: ({ rt, body }) => {
      rt.dns.addFailure(rt.dns.prepareFailure(body));
      return reply.created({ failures: rt.dns.listFailures() });
    },
  }),
  defineOperation({
    operationId: 'simClearDnsFailures',
    method: 'DELETE',
    path: '/_sim/dns/failures',
    tag: TAG,
    summary: 'Lift scripted failures (all, or those matching the query)',
    description: 'Each given query parameter must match: `?domain=example.com` lifts the rules on that domain, `?kind=outage` every outage.',
    origin: 'simulator',
    auth: 'control',
    query: {
      kind: StringEnum(FAILURE_KINDS),
      domain: StringRefusedBy('VALIDATION', { minLength: 1, pattern: DNS_NAME_PATTERN }),
      name: StringRefusedBy('VALIDATION', { minLength: 1, pattern: DNS_NAME_PATTERN }),
    },
    responses: { 204: { description: 'Lifted.' } },
    handler: ({ rt, query }) => {
      const domain = query.domain === undefined ? undefined : dnsName(query.domain, 'domain');
      const name = query.name === undefined ? undefined : dnsName(query.name, 'name');
      rt.dns.replaceFailures(
        rt.dns.listFailures().filter(
          (f) => !((query.kind === undefined || f.kind === query.kind) && (domain === undefined || f.domain === domain) && (name === undefined || f.name === name)),
        ),
      );
      return reply.noContent();
    },
  }),
];
