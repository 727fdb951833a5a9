// What one provider check reads from DNS (spec "Email domain" status rules). Each reading is
// either a result or `failed` (the lookup itself failed), because a failed lookup must leave
// the stored value unchanged rather than count as "record missing". Pure: the caller passes
// the lookup function and decides what to store.
import type { LookupResult, RecordType } from '../../peers/dns/model.ts';
import type { DmarcStatus, ReceivingStatus } from './schema.ts';
import { dkimName, dkimTarget, dmarcName, feedbackHost, inboundHost, mailFromName } from './records.ts';

export type Lookup = (name: string, type: RecordType) => LookupResult;

export const FAILED = 'failed' as const;
export type Reading<T> = T | typeof FAILED;

export interface DmarcReading {
  status: DmarcStatus;
  /** A DMARC record exists for the domain or a parent, so the suggestion is not listed. */
  seen: boolean;
}

export interface Observation {
  dkimFound: Reading<boolean>;
  mailFromFound: Reading<boolean>;
  dmarc: Reading<DmarcReading>;
  receiving: Reading<ReceivingStatus>;
}

export interface CheckTarget {
  domain: string;
  region: string;
  dkimTokens: readonly string[];
}

export function observe(lookup: Lookup, t: CheckTarget, receivingRegions: readonly string[]): Observation {
  return {
    dkimFound: readDkim(lookup, t),
    mailFromFound: readMailFrom(lookup, t),
    dmarc: readDmarc(lookup, t.domain),
    receiving: readReceiving(lookup, t, receivingRegions),
  };
}

/** All three DKIM CNAMEs point at their targets. Any failed lookup fails the reading. */
export function readDkim(lookup: Lookup, t: CheckTarget): Reading<boolean> {
  let all = true;
  for (const token of t.dkimTokens) {
    const r = lookup(dkimName(t.domain, token), 'CNAME');
    if (!r.ok) return FAILED;
    if (!r.records.some((c) => c.value === dkimTarget(token))) all = false;
  }
  return all;
}

/**
 * Both MAIL FROM records are in place on `bounce.<domain>`: exactly one MX (spec), the region's
 * feedback host, and one SPF record that includes amazonses.com.
 */
export function readMailFrom(lookup: Lookup, t: CheckTarget): Reading<boolean> {
  const name = mailFromName(t.domain);
  const mx = lookup(name, 'MX');
  if (!mx.ok) return FAILED;
  const txt = lookup(name, 'TXT');
  if (!txt.ok) return FAILED;
  const spf = txt.records.map((r) => r.value).filter(isSpfRecord);
  return mx.records.length === 1 && mx.records[0]!.value === feedbackHost(t.region) && spf.length === 1 && spfIncludesProvider(spf[0]!);
}

/** A TXT value is an SPF record when it starts with `v=spf1` (RFC 7208 4.5; a quoted value is not). */
export function isSpfRecord(txt: string): boolean {
  return /^v=spf1(\s|$)/i.test(txt.trim());
}

/** The record authorises the provider: an `include:amazonses.com` term (optionally with the `+` qualifier). */
function spfIncludesProvider(record: string): boolean {
  return record.trim().split(/\s+/).some((term) => /^\+?include:amazonses\.com$/i.test(term));
}

/**
 * The DMARC record of the domain, else of the nearest parent that has one (the DMARCbis tree
 * walk, without a public-suffix list; the top-level domain is not asked). Several DMARC
 * records at one name are invalid (RFC 7489 6.6.3): seen, but `not_found`.
 */
export function readDmarc(lookup: Lookup, domain: string): Reading<DmarcReading> {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const r = lookup(dmarcName(labels.slice(i).join('.')), 'TXT');
    if (!r.ok) return FAILED;
    const records = r.records.map((x) => x.value).filter(isDmarcRecord);
    if (records.length === 0) continue;
    return { seen: true, status: records.length === 1 ? dmarcStatusOf(records[0]!) : 'not_found' };
  }
  return { seen: false, status: 'not_found' };
}

/** A TXT value is a DMARC record when its first tag is `v=DMARC1` (a quoted value is not). */
export function isDmarcRecord(txt: string): boolean {
  return /^v\s*=\s*dmarc1\s*(;|$)/i.test(txt.trim());
}

/**
 * Spec: not_found (no `p` tag), spf_strict (`aspf=s`), monitor (`p=none`), enforced
 * (`p=quarantine` or `p=reject`). A record without a valid `p` is not a policy, so not_found
 * wins over aspf; aspf=s wins over the policy because it needs action.
 */
export function dmarcStatusOf(record: string): DmarcStatus {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const tag = part.slice(0, eq).trim().toLowerCase();
    if (!tags.has(tag)) tags.set(tag, part.slice(eq + 1).trim().toLowerCase());
  }
  const p = tags.get('p');
  if (p !== 'none' && p !== 'quarantine' && p !== 'reject') return 'not_found';
  if (tags.get('aspf') === 's') return 'spf_strict';
  return p === 'none' ? 'monitor' : 'enforced';
}

/** The inbound MX rule: the service host present with strictly the lowest priority. */
export function readReceiving(lookup: Lookup, t: CheckTarget, receivingRegions: readonly string[]): Reading<ReceivingStatus> {
  const r = lookup(t.domain, 'MX');
  if (!r.ok) return FAILED;
  if (!receivingRegions.includes(t.region)) return 'unsupported_region';
  const host = inboundHost(t.region);
  const service = r.records.filter((m) => m.value === host).map((m) => m.priority!);
  if (service.length === 0) return 'not_found';
  const best = Math.min(...service);
  return r.records.some((m) => m.value !== host && m.priority! <= best) ? 'not_lowest_priority' : 'verified';
}
