// What the email-domain family needs from others, and its clock job (core/scope.ts). Every check
// reads the fake DNS (a provider outage, then lookups that may time out); the control plane's
// planting route writes a domain's listed records into it.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { DnsRecord, LookupResult, RecordType } from '../../peers/dns/model.ts';

/** The fake DNS as the email provider sees it, and as a customer planting records uses it. */
export interface EmailDns {
  outage(domain: string): boolean;
  lookup(name: string, type: RecordType): LookupResult;
  add(records: readonly DnsRecord[]): void;
}

export const needs = { dns: port<EmailDns>() };

/** Its one job kind: the periodic check of a verified (or failed) domain (names and payloads are in snapshots: keep them). */
export const jobs = {
  'email-domains.check': Type.Object({ emailDomainId: Type.String() }, { additionalProperties: false }),
};

/** What the model is built from. */
export type EmailDomainsModelScope = ModelScope<typeof needs, {}, typeof jobs>;
