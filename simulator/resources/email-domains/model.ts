// Email sender domains (spec "Email domain", "States and transitions / Email domain"): one
// owner per domain across the service, DKIM verification by request, periodic re-checks on
// the virtual clock once verified, and the side statuses (MAIL FROM, DMARC, receiving) read
// from the fake DNS. A check that cannot reach the provider, or whose DKIM lookups fail,
// changes nothing; a failed side lookup leaves only that side's values unchanged.
import { Table } from '../../core/store.ts';
import { ApiError, defineError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { HOST_NAME, parseDomainName } from '../../core/domain.ts';
import { WireCache } from '../../core/wire.ts';
import type { EmailDomainsModelScope } from './ports.ts';
import { FAILED, observe, type Observation } from './checks.ts';
import { dnsRecordsOf } from './records.ts';
import {
  type EmailDomainRow,
  type EmailDomainWire,
  type EmailDomainsState,
  type EmailProviderSettings,
  EMAIL_DOMAIN_IDS,
} from './schema.ts';

const HOUR = 3_600_000;
/** An unverified registration holds the domain this long after registration or the last verification request (guides: 72 hours). */
export const PENDING_CLAIM_MS = 72 * HOUR;
/** Verified and failed domains are re-checked this often, on a grid from the first verification. */
export const CHECK_INTERVAL_MS = HOUR;
/** MAIL FROM detection gives up when the records are still missing this long after it (re)started. */
export const MAIL_FROM_GIVE_UP_MS = 72 * HOUR;
export const CHECK_JOB = 'email-domains.check' as const;

export const DEFAULT_PROVIDER_SETTINGS: EmailProviderSettings = {
  region: 'ap-northeast-2',
  receivingRegions: ['ap-northeast-2', 'us-east-1', 'us-west-2', 'eu-west-1'],
};

export const emailDomainErrors = {
  EMAIL_DOMAIN_NOT_FOUND: defineError({
    code: 'email_domain_not_found', status: 404, origin: 'spec',
    description: 'No email domain with this id in the account (unknown, deleted, or owned by another account).',
  }),
  INVALID_EMAIL_DOMAIN: defineError({
    code: 'invalid_email_domain', status: 400, origin: 'simulator',
    description: 'The domain is not a valid domain name (empty or over-long labels, bad characters, an address or URL instead of a domain).',
  }),
  EMAIL_DOMAIN_TAKEN: defineError({
    code: 'email_domain_taken', status: 409, origin: 'reference',
    description: 'Another account holds the domain (verified, failed, or pending with its claim not yet expired). Guides: 409.',
  }),
  EMAIL_DOMAIN_NOT_VERIFIED: defineError({
    code: 'email_domain_not_verified', status: 403, origin: 'reference',
    description: 'The operation needs a verified domain (turning receiving on). Code and status after the guides.',
  }),
  EMAIL_PROVIDER_UNAVAILABLE: defineError({
    code: 'email_provider_unavailable', status: 503, origin: 'spec',
    description: 'The provider or its DNS lookups are temporarily unavailable; the domain keeps its last successful result. Retry later. (Code chosen by the simulator; the spec shows 503 without one.)',
  }),
};

type Trigger = 'request' | 'periodic';

export function emailDomainWire(r: EmailDomainRow): EmailDomainWire {
  return {
    id: r.id,
    domain: r.domain,
    status: r.status,
    dnsRecords: dnsRecordsOf(r),
    receivingEnabled: r.receivingEnabled,
    receivingStatus: r.receivingStatus,
    receivingCheckedAt: r.receivingCheckedAt,
    mailFromStatus: r.mailFromStatus,
    dmarcStatus: r.dmarcStatus,
    lastCheckedAt: r.lastCheckedAt,
    verifiedAt: r.verifiedAt,
    pendingExpiresAt: r.pendingExpiresAt,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** The normalised sender domain, or 400 invalid_email_domain saying what is wrong. */
export function normalizeEmailDomain(text: unknown): string {
  const r = parseDomainName(text, HOST_NAME);
  if (!r.ok) throw emailDomainErrors.INVALID_EMAIL_DOMAIN(`domain ${r.message}`, { errors: [{ path: 'domain', message: r.message }] });
  return r.name;
}

/** Fields whose change alone does not move updatedAt: check timestamps and the hidden MAIL FROM window. */
const NOT_AN_UPDATE = new Set<keyof EmailDomainRow>(['lastCheckedAt', 'receivingCheckedAt', 'mailFromSince', 'updatedAt']);

export class EmailDomainsModel {
  domains = new Table<EmailDomainRow>(); // maps an email-domain id to the registration (deleted ones are removed)
  settings: EmailProviderSettings = structuredClone(DEFAULT_PROVIDER_SETTINGS); // maps new registrations to a region; which regions can receive
  private owners = new Map<string, string>(); // maps a normalised domain to the id of its registration (derived)
  readonly wire = new WireCache(emailDomainWire);

  constructor(private readonly rt: EmailDomainsModelScope) {
    rt.jobs.on(CHECK_JOB, (p, job) => this.periodicCheck(p.emailDomainId, job.due));
  }

  /** Back to no domains and the default settings (reset; the fixture part then loads its settings). */
  clear(): void {
    this.settings = structuredClone(DEFAULT_PROVIDER_SETTINGS);
    this.domains = new Table();
    this.owners = new Map();
  }

  snapshot(): EmailDomainsState {
    return { settings: structuredClone(this.settings), domains: [...this.domains.all()] };
  }

  /** A state the runtime validated against EmailDomainsStateSchema; ids and domains must be unique and domains normalised. */
  restore(s: EmailDomainsState): void {
    const owners = new Map<string, string>();
    const ids = new Set<string>();
    s.domains.forEach((r, i) => {
      const path = `emailDomains.domains[${i}]`;
      if (ids.has(r.id)) throw ApiError.validation(`snapshot emailDomains: id ${r.id} appears twice`, [{ path: `${path}.id`, message: 'is a duplicate' }]);
      const parsed = parseDomainName(r.domain, HOST_NAME);
      if (!parsed.ok || parsed.name !== r.domain) throw ApiError.validation(`snapshot emailDomains: ${r.domain} is not a normalised domain`, [{ path: `${path}.domain`, message: 'is not normalised' }]);
      if (owners.has(r.domain)) throw ApiError.validation(`snapshot emailDomains: ${r.domain} is registered twice`, [{ path: `${path}.domain`, message: 'is a duplicate' }]);
      ids.add(r.id);
      owners.set(r.domain, r.id);
    });
    this.settings = structuredClone(s.settings);
    this.domains = new Table(s.domains);
    this.owners = owners;
  }

  // --- reads (stored state only: GET and list never re-check) ---

  list(accountId: string): readonly EmailDomainRow[] {
    return this.domains.newestFirstCached(accountId, (r) => r.accountId === accountId);
  }

  get(accountId: string, id: string): EmailDomainRow {
    const row = this.domains.get(id);
    if (!row || row.accountId !== accountId) throw emailDomainErrors.EMAIL_DOMAIN_NOT_FOUND(`no email domain ${id} in this account`);
    return row;
  }

  /** Any account's domain by id (control plane). */
  find(id: string): EmailDomainRow | undefined {
    return this.domains.get(id);
  }

  // --- registration and deletion ---

  /**
   * Registers a domain for the account. Your own registration comes back unchanged (idempotent);
   * another account's is refused unless it is pending and its claim has expired, in which case
   * that registration ends and this account gets a new one with new DKIM tokens.
   */
  register(accountId: string, text: unknown): { row: EmailDomainRow; created: boolean } {
    const domain = normalizeEmailDomain(text);
    const now = this.rt.clock.now();
    const holder = this.holderOf(domain);
    if (holder?.accountId === accountId) return { row: holder, created: false };
    if (holder && !this.claimLapsed(holder, now)) {
      throw emailDomainErrors.EMAIL_DOMAIN_TAKEN(`${domain} is registered by another account; a domain belongs to one account across the service`);
    }
    // Every check passed: from here on, writes (the random draws count as state too).
    if (holder) this.remove(holder);
    const at = iso(now);
    const row: EmailDomainRow = {
      id: this.freshId(),
      accountId,
      domain,
      region: this.settings.region,
      dkimTokens: [this.rt.random.hex(32), this.rt.random.hex(32), this.rt.random.hex(32)],
      status: 'pending',
      receivingEnabled: false,
      receivingStatus: null,
      receivingCheckedAt: null,
      mailFromStatus: null,
      mailFromSince: null,
      dmarcStatus: null,
      dmarcRecordSeen: false,
      lastCheckedAt: null,
      verifiedAt: null,
      pendingExpiresAt: iso(now + PENDING_CLAIM_MS),
      createdAt: at,
      updatedAt: at,
    };
    this.domains.insert(row);
    this.owners.set(domain, row.id);
    return { row, created: true };
  }

  delete(accountId: string, id: string): void {
    this.remove(this.get(accountId, id));
  }

  // --- receiving ---

  /** Turns receiving on (verified domains only; receivingStatus starts `pending`) or off. */
  setReceiving(accountId: string, id: string, enabled: boolean): EmailDomainRow {
    const row = this.get(accountId, id);
    if (row.receivingEnabled === enabled) return row;
    if (enabled && row.status !== 'verified') {
      throw emailDomainErrors.EMAIL_DOMAIN_NOT_VERIFIED(`receiving can be turned on only for a verified domain; ${row.domain} is ${row.status}`);
    }
    return this.domains.replace({
      ...row,
      receivingEnabled: enabled,
      receivingStatus: enabled ? 'pending' : null,
      receivingCheckedAt: null,
      updatedAt: this.rt.clock.nowIso(),
    });
  }

  // --- checks ---

  /** The verification request: checks now; 503 (nothing changed) when the check cannot be made. */
  verify(accountId: string, id: string): EmailDomainRow {
    const row = this.get(accountId, id);
    const obs = this.observe(row);
    if (obs === 'outage') {
      throw emailDomainErrors.EMAIL_PROVIDER_UNAVAILABLE(`the email provider is temporarily unavailable; ${row.domain} keeps its last result`);
    }
    if (obs.dkimFound === FAILED) {
      throw emailDomainErrors.EMAIL_PROVIDER_UNAVAILABLE(`the DNS lookups of ${row.domain}'s DKIM records timed out; the domain keeps its last result`);
    }
    const next = this.applyCheck(row, obs, 'request');
    if (row.verifiedAt === null && next.verifiedAt !== null) this.rt.jobs.schedule(CHECK_JOB, this.rt.clock.now() + CHECK_INTERVAL_MS, { emailDomainId: id });
    return this.domains.replace(next);
  }

  /** A periodic check (clock job); a check that cannot be made is skipped. Keeps its grid. */
  private periodicCheck(id: string, due: number): void {
    const row = this.domains.get(id);
    if (!row) return; // deleted: the chain of checks ends
    this.rt.jobs.schedule(CHECK_JOB, due + CHECK_INTERVAL_MS, { emailDomainId: id });
    const obs = this.observe(row);
    if (obs === 'outage' || obs.dkimFound === FAILED) return;
    this.domains.replace(this.applyCheck(row, obs, 'periodic'));
  }

  private observe(row: EmailDomainRow): Observation | 'outage' {
    const dns = this.rt.dns;
    if (dns.outage(row.domain)) return 'outage';
    return observe((name, type) => dns.lookup(name, type), row, this.settings.receivingRegions);
  }

  /** The stored row after a check whose DKIM reading succeeded (spec transition table). */
  private applyCheck(row: EmailDomainRow, obs: Observation, trigger: Trigger): EmailDomainRow {
    const now = this.rt.clock.now();
    const at = iso(now);
    const next: EmailDomainRow = { ...row, lastCheckedAt: at };

    if (obs.dkimFound === true) {
      next.status = 'verified';
      next.verifiedAt = row.verifiedAt ?? at; // first verification only
      next.pendingExpiresAt = null;
    } else if (row.status === 'pending') {
      if (trigger === 'request') next.pendingExpiresAt = iso(now + PENDING_CLAIM_MS); // each request moves the claim later
    } else {
      next.status = 'failed';
    }

    // MAIL FROM: detection starts with the first verification; a request restarts it unless verified.
    if (row.mailFromStatus === null && next.status === 'verified') {
      next.mailFromStatus = 'pending';
      next.mailFromSince = at;
    } else if (trigger === 'request' && (row.mailFromStatus === 'pending' || row.mailFromStatus === 'failed')) {
      next.mailFromStatus = 'pending';
      next.mailFromSince = at;
    }
    if (obs.mailFromFound !== FAILED && (next.mailFromStatus === 'pending' || next.mailFromStatus === 'verified')) {
      if (obs.mailFromFound) {
        next.mailFromStatus = 'verified';
        next.mailFromSince = null;
      } else if (next.mailFromStatus === 'verified') {
        next.mailFromStatus = 'pending'; // the records went away: look for them again
        next.mailFromSince = at;
      } else if (now - parseInstant(next.mailFromSince!)! >= MAIL_FROM_GIVE_UP_MS) {
        next.mailFromStatus = 'failed';
        next.mailFromSince = null;
      }
    }

    if (obs.dmarc !== FAILED) {
      next.dmarcStatus = obs.dmarc.status;
      next.dmarcRecordSeen = obs.dmarc.seen;
    }
    if (row.receivingEnabled && obs.receiving !== FAILED) {
      next.receivingStatus = obs.receiving;
      next.receivingCheckedAt = at;
    }

    const changed = (Object.keys(next) as (keyof EmailDomainRow)[]).some((k) => !NOT_AN_UPDATE.has(k) && next[k] !== row[k]);
    if (changed) next.updatedAt = at;
    return next;
  }

  // --- control plane ---

  updateSettings(patch: Partial<EmailProviderSettings>): EmailProviderSettings {
    this.settings = {
      region: patch.region ?? this.settings.region,
      receivingRegions: patch.receivingRegions ? [...new Set(patch.receivingRegions)] : this.settings.receivingRegions,
    };
    return structuredClone(this.settings);
  }

  // --- internals ---

  private holderOf(domain: string): EmailDomainRow | undefined {
    const id = this.owners.get(domain);
    return id === undefined ? undefined : this.domains.get(id);
  }

  /** Spec pendingExpiresAt: "after this time another account may register the domain". */
  private claimLapsed(row: EmailDomainRow, now: number): boolean {
    return row.status === 'pending' && row.pendingExpiresAt !== null && now > parseInstant(row.pendingExpiresAt)!;
  }

  private remove(row: EmailDomainRow): void {
    this.domains.delete(row.id);
    this.owners.delete(row.domain);
    for (const job of this.rt.clock.pendingJobs()) {
      if (job.kind === CHECK_JOB && (job.payload as { emailDomainId: string }).emailDomainId === row.id) this.rt.jobs.cancel(job.id);
    }
  }

  private freshId(): string {
    for (;;) {
      const id = newId(this.rt.random, EMAIL_DOMAIN_IDS.emailDomain);
      if (!this.domains.has(id)) return id;
    }
  }
}
