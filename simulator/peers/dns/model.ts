// Fake DNS: the zone the email provider looks up when it checks a sender domain, scripted by
// tests through the control plane (docs/control-plane.md, "DNS"). It stores what it is told
// (it does not enforce zone rules such as CNAME exclusivity) and answers lookups by exact
// name and type. Failures are scripted too: a provider `outage` (per domain or global) makes
// the whole check impossible, a lookup `timeout` (per name, per domain or global) fails the
// lookups it covers. Names are normalised like sender domains (lowercase, punycode, no dot).
// A and AAAA records answer the egress guard's address lookups (peers/egress.ts); a rebinding
// rule makes a name change its address answer after a number of lookups.
import { Type, type Static } from '@sinclair/typebox';
import ipaddr from 'ipaddr.js';
import { ApiError } from '../../core/errors.ts';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { DNS_NAME, isWithin, parseDomainName } from '../../core/domain.ts';

export const RECORD_TYPES = ['CNAME', 'MX', 'TXT', 'A', 'AAAA'] as const;
export type RecordType = (typeof RECORD_TYPES)[number];
export const FAILURE_KINDS = ['outage', 'timeout'] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** Longest TXT value the fake keeps (several 255-byte strings joined; generous on purpose). */
export const MAX_TXT_LENGTH = 4096;

export const DnsRecordSchema = Type.Object(
  {
    name: Type.String({ description: 'Owner name, normalised (lowercase, punycode, no trailing dot).' }),
    type: StringEnum(RECORD_TYPES),
    value: Type.String({ description: 'CNAME and MX: a host name (normalised). TXT: the text exactly as given; quotes are kept and are part of the value. A: an IPv4 address (dotted quad); AAAA: an IPv6 address (normalised).' }),
    priority: Nullable(Type.Integer({ minimum: 0, maximum: 65535 }), { description: 'MX preference; null for CNAME and TXT.' }),
  },
  { $id: 'SimDnsRecord', additionalProperties: false },
);
export type DnsRecord = Static<typeof DnsRecordSchema>;

export const DnsFailureSchema = Type.Object(
  {
    kind: StringEnum(FAILURE_KINDS, { description: 'outage: the provider cannot check the domain at all; timeout: the lookups it covers fail.' }),
    domain: Nullable(Type.String({ description: 'Covers this name and every name under it.' })),
    name: Nullable(Type.String({ description: 'Covers exactly this name (timeouts only).' })),
  },
  { $id: 'SimDnsFailure', additionalProperties: false, description: 'Neither domain nor name: global.' },
);
export type DnsFailure = Static<typeof DnsFailureSchema>;

export const DnsRebindSchema = Type.Object(
  {
    name: Type.String({ description: 'The name, normalised.' }),
    afterLookups: Type.Integer({ minimum: 0, description: 'Address lookups answered from the A/AAAA records first; every later one gets `addresses`.' }),
    addresses: Type.Array(Type.String(), { description: 'The answer after the switch (IPv4 or IPv6 addresses; [] answers "no address").' }),
  },
  { $id: 'SimDnsRebind', additionalProperties: false },
);
export type DnsRebind = Static<typeof DnsRebindSchema>;

export const DnsStateSchema = Type.Object(
  {
    records: Type.Array(DnsRecordSchema),
    failures: Type.Array(DnsFailureSchema),
    rebinds: Type.Optional(Type.Array(DnsRebindSchema)),
    addressLookups: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }), { description: 'Address lookups answered per name (rebinding counts them).' })),
  },
  { additionalProperties: false },
);
export type DnsState = Static<typeof DnsStateSchema>;

/** A record as a test gives it: the name comes from the path or the body. */
export interface RecordInput {
  type: RecordType;
  value: string;
  priority?: number | null;
}

export type LookupResult = { ok: true; records: DnsRecord[] } | { ok: false; failure: FailureKind };

export class FakeDns {
  private byName = new Map<string, DnsRecord[]>(); // maps an owner name to its records, in the order set
  private failures: DnsFailure[] = []; // scripted failures, in the order added
  private rebinds = new Map<string, DnsRebind>(); // maps a name to the answer it switches to
  private addressLookups = new Map<string, number>(); // maps a name to the address lookups answered

  clear(): void {
    this.byName = new Map();
    this.failures = [];
    this.rebinds = new Map();
    this.addressLookups = new Map();
  }

  snapshot(): DnsState {
    return {
      records: this.allRecords(),
      failures: this.failures.map((f) => ({ ...f })),
      rebinds: [...this.rebinds.values()].map((r) => ({ ...r, addresses: [...r.addresses] })),
      addressLookups: Object.fromEntries([...this.addressLookups].sort(([a], [b]) => a.localeCompare(b))),
    };
  }

  /** A state the runtime validated against DnsStateSchema; records are normalised as when set. */
  restore(s: DnsState): void {
    const byName = new Map<string, DnsRecord[]>();
    s.records.forEach((r, i) => {
      const rec = normalizeRecord(r.name, r, `dns.records[${i}]`);
      byName.set(rec.name, dedupe([...(byName.get(rec.name) ?? []), rec]));
    });
    const failures = s.failures.map((f, i) => normalizeFailure(f, `dns.failures[${i}]`));
    const rebinds = new Map((s.rebinds ?? []).map((r, i) => [dnsName(r.name, `dns.rebinds[${i}].name`), normalizeRebind(r, `dns.rebinds[${i}]`)] as const));
    this.byName = byName;
    this.failures = failures;
    this.rebinds = rebinds;
    this.addressLookups = new Map(Object.entries(s.addressLookups ?? {}));
  }

  // --- addresses (the egress guard's lookups) ---

  /** Scripts a name to answer `addresses` once `afterLookups` address lookups were answered. */
  setRebind(input: { name: string; afterLookups: number; addresses: string[] }): DnsRebind {
    const rule = normalizeRebind({ ...input, name: dnsName(input.name, 'name') }, '');
    this.rebinds.set(rule.name, rule);
    return { ...rule };
  }

  removeRebind(name: string): boolean {
    this.addressLookups.delete(name);
    return this.rebinds.delete(name);
  }

  listRebinds(): DnsRebind[] {
    return [...this.rebinds.values()].map((r) => ({ ...r, addresses: [...r.addresses] }));
  }

  /**
   * The addresses a name has (A then AAAA, or the rebinding answer once due), counting the
   * lookup; undefined when the fake DNS knows no address for the name (the system resolver
   * answers then). A scripted timeout or outage covering the name answers [].
   */
  addressLookup(name: string): string[] | undefined {
    const rule = this.rebinds.get(name);
    const records = (this.byName.get(name) ?? []).filter((r) => r.type === 'A' || r.type === 'AAAA');
    if (!rule && records.length === 0) return undefined;
    const served = this.addressLookups.get(name) ?? 0;
    this.addressLookups.set(name, served + 1);
    const failed = this.lookup(name, 'A');
    if (!failed.ok) return [];
    if (rule && served >= rule.afterLookups) return [...rule.addresses];
    return [...records.filter((r) => r.type === 'A'), ...records.filter((r) => r.type === 'AAAA')].map((r) => r.value);
  }

  // --- scripting (control plane) ---

  allRecords(): DnsRecord[] {
    return [...this.byName.keys()].sort().flatMap((n) => this.byName.get(n)!.map((r) => ({ ...r })));
  }

  recordsAt(name: string): DnsRecord[] {
    return (this.byName.get(name) ?? []).map((r) => ({ ...r }));
  }

  /** Validates a whole record set without storing it (so a refusal changes nothing). */
  prepare(name: string, inputs: readonly RecordInput[]): { name: string; records: DnsRecord[] } {
    const owner = dnsName(name, 'name');
    return { name: owner, records: dedupe(inputs.map((r, i) => normalizeRecord(owner, r, `records[${i}]`))) };
  }

  /** Replaces every record at the name; an empty list removes the name. */
  set(prepared: { name: string; records: DnsRecord[] }): DnsRecord[] {
    if (prepared.records.length === 0) this.byName.delete(prepared.name);
    else this.byName.set(prepared.name, prepared.records);
    return this.recordsAt(prepared.name);
  }

  /** Adds records to those already at each name (duplicates are kept once). */
  add(records: readonly DnsRecord[]): void {
    for (const r of records) this.byName.set(r.name, dedupe([...(this.byName.get(r.name) ?? []), r]));
  }

  /** Removes the records at a name, all of them or only those of one type; returns how many. */
  remove(name: string, type?: RecordType): number {
    const list = this.byName.get(name) ?? [];
    const kept = type ? list.filter((r) => r.type !== type) : [];
    if (kept.length === 0) this.byName.delete(name);
    else this.byName.set(name, kept);
    return list.length - kept.length;
  }

  listFailures(): DnsFailure[] {
    return this.failures.map((f) => ({ ...f }));
  }

  /** Validates a failure rule (normalising its domain or name) without storing it. */
  prepareFailure(input: { kind: FailureKind; domain?: string | null; name?: string | null }): DnsFailure {
    return normalizeFailure({ kind: input.kind, domain: input.domain ?? null, name: input.name ?? null }, '');
  }

  addFailure(rule: DnsFailure): void {
    if (!this.failures.some((f) => sameFailure(f, rule))) this.failures.push(rule);
  }

  replaceFailures(rules: DnsFailure[]): void {
    this.failures = [];
    for (const r of rules) this.addFailure(r);
  }

  // --- what the email provider sees ---

  /** Whether a provider outage covers the sender domain (then nothing can be checked). */
  outage(domain: string): boolean {
    return this.failures.some((f) => f.kind === 'outage' && (f.domain === null || isWithin(domain, f.domain)));
  }

  /** Looks up the records of one type at one name, unless a scripted failure covers the lookup. */
  lookup(name: string, type: RecordType): LookupResult {
    for (const f of this.failures) {
      const covers = f.name !== null ? f.name === name : f.domain !== null ? isWithin(name, f.domain) : true;
      if (covers) return { ok: false, failure: f.kind };
    }
    return { ok: true, records: (this.byName.get(name) ?? []).filter((r) => r.type === type).map((r) => ({ ...r })) };
  }
}

/** A DNS owner name or host, normalised; 400 VALIDATION naming `field` when it is not one. */
export function dnsName(text: unknown, field: string): string {
  const r = parseDomainName(text, DNS_NAME);
  if (!r.ok) throw ApiError.validation(`${field} ${r.message}`, [{ path: field, message: r.message }]);
  return r.name;
}

function normalizeRecord(owner: string, r: RecordInput, at: string): DnsRecord {
  const field = (f: string) => (at ? `${at}.${f}` : f);
  const refuse = (f: string, message: string) => ApiError.validation(`${field(f)} ${message}`, [{ path: field(f), message }]);
  const hasPriority = r.priority !== undefined && r.priority !== null;
  if (r.type === 'MX' && !hasPriority) throw refuse('priority', 'is required for MX');
  if (r.type !== 'MX' && hasPriority) throw refuse('priority', `must be absent: only MX records have one (this is ${r.type})`);
  if (r.type === 'A' || r.type === 'AAAA') return { name: owner, type: r.type, value: addressValue(r.type, r.value, field('value')), priority: null };
  if (r.type === 'TXT') {
    if (r.value.length > MAX_TXT_LENGTH) throw refuse('value', `is longer than ${MAX_TXT_LENGTH} characters`);
    return { name: owner, type: 'TXT', value: r.value, priority: null };
  }
  return { name: owner, type: r.type, value: dnsName(r.value, field('value')), priority: r.type === 'MX' ? r.priority! : null };
}

/** An address as an A or AAAA record holds it; 400 VALIDATION naming `field` otherwise. */
function addressValue(type: 'A' | 'AAAA', value: string, field: string): string {
  const ok = type === 'A' ? ipaddr.IPv4.isValidFourPartDecimal(value) : ipaddr.IPv6.isValid(value);
  if (!ok) throw ApiError.validation(`${field} must be an ${type === 'A' ? 'IPv4 address (a.b.c.d)' : 'IPv6 address'}, got "${value}"`, [{ path: field, message: `not an ${type} address` }]);
  return ipaddr.parse(value).toString();
}

function normalizeRebind(r: DnsRebind, at: string): DnsRebind {
  const field = (x: string) => (at ? `${at}.${x}` : x);
  const addresses = r.addresses.map((a, i) => addressValue(a.includes(':') ? 'AAAA' : 'A', a, field(`addresses[${i}]`)));
  return { name: r.name, afterLookups: r.afterLookups, addresses };
}

function normalizeFailure(f: DnsFailure, at: string): DnsFailure {
  const field = (x: string) => (at ? `${at}.${x}` : x);
  if (f.domain !== null && f.name !== null) {
    throw ApiError.validation('give domain or name, not both', [{ path: field('name'), message: 'conflicts with domain' }]);
  }
  if (f.kind === 'outage' && f.name !== null) {
    throw ApiError.validation('an outage covers a domain or everything; use domain, not name', [{ path: field('name'), message: 'not allowed for outage' }]);
  }
  return {
    kind: f.kind,
    domain: f.domain === null ? null : dnsName(f.domain, field('domain')),
    name: f.name === null ? null : dnsName(f.name, field('name')),
  };
}

function sameFailure(a: DnsFailure, b: DnsFailure): boolean {
  return a.kind === b.kind && a.domain === b.domain && a.name === b.name;
}

function dedupe(records: DnsRecord[]): DnsRecord[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = `${r.type}|${r.value}|${r.priority}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
