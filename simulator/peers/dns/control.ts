// The fake DNS's /_sim routes: set and remove records per name, script lookup failures
// (provider outage, lookup timeout) per name, per domain or globally, and rebinding rules for
// the egress guard's address lookups. Documented in docs/control-plane.md, "DNS" and "MCP and
// egress". (Planting an email domain's records is the email domains' route.)
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { IpAddress, Nullable, StringEnum, StringRefusedBy } from '../../core/schema.ts';
import { DNS_NAME_PATTERN } from '../../core/domain.ts';
import { present, withRules } from '../../core/schema-rules.ts';
import { DnsFailureSchema, DnsRebindSchema, DnsRecordSchema, FAILURE_KINDS, MAX_TXT_LENGTH, RECORD_TYPES, dnsName } from './model.ts';
import { operation } from './scope.ts';

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
const RebindBody = Type.Object(
  {
    afterLookups: Type.Integer({ minimum: 0, maximum: 1000, description: 'Address lookups answered from the A/AAAA records before the switch.' }),
    addresses: Type.Array(IpAddress(), { maxItems: 16, description: 'The answer after the switch: IPv4 (dotted quad) or IPv6 addresses.' }),
  },
  { $id: 'SimDnsRebindRequest', additionalProperties: false },
);
const nameParam = { name: Type.String({ pattern: DNS_NAME_PATTERN, description: 'A DNS name; normalised like a domain (case, trailing dot, punycode).' }) };

export const operations = [
  operation({
    operationId: 'simGetDnsZone',
    method: 'GET',
    path: '/_sim/dns',
    tag: TAG,
    summary: 'Every DNS record and scripted failure',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The zone, sorted by name.', schema: Zone } },
    handler: ({ scope }) => reply.ok({ records: scope.dns.allRecords(), failures: scope.dns.listFailures() }),
  }),
  operation({
    operationId: 'simGetDnsRecords',
    method: 'GET',
    path: '/_sim/dns/records/{name}',
    tag: TAG,
    summary: 'The records at one name',
    origin: 'simulator',
    auth: 'control',
    params: nameParam,
    responses: { 200: { description: 'The records (none is an empty list).', schema: NameRecords } },
    handler: ({ scope, params }) => {
      const name = dnsName(params.name, 'name');
      return reply.ok({ name, records: scope.dns.recordsAt(name) });
    },
  }),
  operation({
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
    handler: ({ scope, params, body }) => {
      const prepared = scope.dns.prepare(params.name, body.records);
      return reply.ok({ name: prepared.name, records: scope.dns.set(prepared) });
    },
  }),
  operation({
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
    handler: ({ scope, params, query }) => {
      scope.dns.remove(dnsName(params.name, 'name'), query.type);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simListDnsFailures',
    method: 'GET',
    path: '/_sim/dns/failures',
    tag: TAG,
    summary: 'Scripted lookup failures',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The failures, in the order added.', schema: FailureList } },
    handler: ({ scope }) => reply.ok({ failures: scope.dns.listFailures() }),
  }),
  operation({
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
    handler: ({ scope, body }) => {
      scope.dns.addFailure(scope.dns.prepareFailure(body));
      return reply.created({ failures: scope.dns.listFailures() });
    },
  }),
  operation({
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
    handler: ({ scope, query }) => {
      const domain = query.domain === undefined ? undefined : dnsName(query.domain, 'domain');
      const name = query.name === undefined ? undefined : dnsName(query.name, 'name');
      scope.dns.replaceFailures(
        scope.dns.listFailures().filter(
          (f) => !((query.kind === undefined || f.kind === query.kind) && (domain === undefined || f.domain === domain) && (name === undefined || f.name === name)),
        ),
      );
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'simSetDnsRebind',
    method: 'PUT',
    path: '/_sim/dns/rebind/{name}',
    tag: TAG,
    summary: 'Make a name change its address answer after some lookups (DNS rebinding)',
    description: 'Address lookups of the egress guard count per name; the first `afterLookups` are answered from the A/AAAA records, later ones with `addresses`.',
    origin: 'simulator',
    auth: 'control',
    params: { name: Type.String({ pattern: DNS_NAME_PATTERN }) },
    body: RebindBody,
    bodyRequired: true,
    responses: { 200: { description: 'The rule.', schema: DnsRebindSchema } },
    handler: ({ scope, params, body }) => reply.ok(scope.dns.setRebind({ name: params.name, afterLookups: body.afterLookups, addresses: body.addresses })),
  }),
  operation({
    operationId: 'simRemoveDnsRebind',
    method: 'DELETE',
    path: '/_sim/dns/rebind/{name}',
    tag: TAG,
    summary: 'Remove a rebinding rule and its lookup count',
    origin: 'simulator',
    auth: 'control',
    params: { name: Type.String({ pattern: DNS_NAME_PATTERN }) },
    responses: { 200: { description: 'Whether a rule was removed.', schema: Type.Object({ removed: Type.Boolean() }, { additionalProperties: false }) } },
    handler: ({ scope, params }) => reply.ok({ removed: scope.dns.removeRebind(dnsName(params.name, 'name')) }),
  }),
];
