// The records the service asks the customer to plant (spec "DNS record" table and its rules),
// and the provider host names they point at. Values follow the guides: DKIM CNAMEs to
// `<token>.dkim.amazonses.com`, MAIL FROM on `bounce.<domain>` (MX to the region's feedback
// host, priority 10; SPF including amazonses.com), a starting DMARC policy, and the inbound
// MX once receiving is on. Everything here is derived from the stored row, so it is pure.
import type { EmailDnsRecordWire, EmailDomainRow } from './schema.ts';

export const MAIL_FROM_LABEL = 'bounce';
export const MX_PRIORITY = 10;
export const SPF_VALUE = 'v=spf1 include:amazonses.com ~all';
export const DMARC_SUGGESTION = 'v=DMARC1; p=none;';

export const dkimName = (domain: string, token: string) => `${token}._domainkey.${domain}`;
export const dkimTarget = (token: string) => `${token}.dkim.amazonses.com`;
export const mailFromName = (domain: string) => `${MAIL_FROM_LABEL}.${domain}`;
export const feedbackHost = (region: string) => `feedback-smtp.${region}.amazonses.com`;
export const inboundHost = (region: string) => `inbound-smtp.${region}.amazonaws.com`;
export const dmarcName = (domain: string) => `_dmarc.${domain}`;

type Fields = Pick<EmailDomainRow, 'domain' | 'region' | 'dkimTokens' | 'dmarcRecordSeen' | 'receivingEnabled'>;

/** The dnsRecords list of a domain in its current state. */
export function dnsRecordsOf(row: Fields): EmailDnsRecordWire[] {
  const { domain, region } = row;
  const out: EmailDnsRecordWire[] = row.dkimTokens.map((t) => ({
    purpose: 'dkim',
    requirement: 'required',
    type: 'CNAME',
    name: dkimName(domain, t),
    value: dkimTarget(t),
    priority: null,
  }));
  out.push(
    { purpose: 'mail_from_mx', requirement: 'recommended', type: 'MX', name: mailFromName(domain), value: feedbackHost(region), priority: MX_PRIORITY },
    { purpose: 'mail_from_spf', requirement: 'recommended', type: 'TXT', name: mailFromName(domain), value: SPF_VALUE, priority: null },
  );
  // Omitted once the service has seen a DMARC record for the domain (or a parent).
  if (!row.dmarcRecordSeen) {
    out.push({ purpose: 'dmarc', requirement: 'recommended', type: 'TXT', name: dmarcName(domain), value: DMARC_SUGGESTION, priority: null });
  }
  // `optional`: needed only when the feature (receiving) is used; listed only while it is on.
  if (row.receivingEnabled) {
    out.push({ purpose: 'inbound', requirement: 'optional', type: 'MX', name: domain, value: inboundHost(region), priority: MX_PRIORITY });
  }
  return out;
}
