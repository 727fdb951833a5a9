// Assignment links (spec "Assignment link" and its state table): one-time links through which an
// end user obtains a managed number. pending -> consumed (the session's finalize), pending ->
// expired (TTL on the virtual clock), pending -> revoked (DELETE with the add-on); every other
// state is final and refuses cancellation with 409 NOT_PENDING. The session steps live in
// session.ts; the issuing-page domains a returnUrl must match live here, per account. Its state
// (links and issuing pages) goes into snapshots through its own methods, after the runtime
// validated the part.
import { Table } from '../../core/store.ts';
import { ApiError, errorCodes } from '../../core/errors.ts';
import { parseInstant, iso } from '../../core/clock.ts';
import { WireCache } from '../../core/wire.ts';
import { accountErrors } from '../accounts/errors.ts';
import { numberErrors } from '../numbers/errors.ts';
import { checkWebhookHeaders } from '../../peers/webhooks/headers.ts';
import { outboundErrors } from '../../rules/outbound.ts';
import { linkErrors } from './errors.ts';
import { AssignmentSessions } from './session.ts';
import { EXPIRE_JOB, type AssignmentLinksModelScope } from './ports.ts';
import {
  TTL_MAX,
  type AssignmentLinkWire,
  type AssignmentLinksState,
  type CreateLinkInput,
  type IssuingPage,
  type LinkRow,
  type LinkStatus,
} from './schema.ts';

export const ADDON = 'external_assignment';

/** What links ask of accounts, numbers and the receiver policy, as the model uses it (built from its ports). */
export interface LinkPorts {
  accountExists(accountId: string): boolean;
  hasAddon(accountId: string): boolean;
  subscriptionActive(accountId: string): boolean;
  lineLimit(accountId: string): number;
  linesHeld(accountId: string): number;
  orgName(accountId: string): string;
  /** Issues a pool number carrying the link's webhook settings; throws the numbers family's errors. */
  issueNumber(accountId: string, settings: Pick<LinkRow, 'webhookUrl' | 'webhookMethod' | 'webhookHeaders'>, linkId: string): string;
  /** When the number issued through the link was returned; null while held, undefined if none. */
  releasedAt(linkId: string): string | null | undefined;
  /** Refuses a receiver URL the customer gave (format; internal hosts in strict mode). */
  checkReceiverUrl(url: string, field: string): string;
}

function linkPorts({ accounts, numbers, receiverPolicy }: AssignmentLinksModelScope): LinkPorts {
  return {
    accountExists: (id) => accounts.get(id) !== undefined,
    hasAddon: (id) => accounts.hasAddon(id, ADDON),
    subscriptionActive: (id) => accounts.subscriptionActive(id),
    lineLimit: (id) => accounts.plan(id).lineLimit,
    linesHeld: (id) => numbers.listFor(id).length,
    orgName: (id) => accounts.require(id).name,
    issueNumber: (id, s, linkId) => numbers.issue(id, { webhookUrl: s.webhookUrl, webhookMethod: s.webhookMethod, webhookHeaders: s.webhookHeaders }, linkId).id,
    releasedAt: (linkId) => {
      const held = numbers.assignments.all().find((a) => a.linkId === linkId);
      return held === undefined ? undefined : held.to;
    },
    checkReceiverUrl: (url, field) => receiverPolicy.check(url, field),
  };
}

export class AssignmentLinksModel {
  links = new Table<LinkRow>(); // maps a link token (= linkId) to the link and its session
  issuingPages = new Map<string, IssuingPage>(); // maps accountId to its issuing-page settings (returnUrl hosts, brand)
  readonly ports: LinkPorts;
  /** The end user's session behind each link (its state lives on the link rows). */
  readonly sessions: AssignmentSessions;
  // The released instant is derived from the numbers family, so the cache keys on it too.
  private readonly wireCache = new WireCache<{ row: LinkRow; releasedAt: string | null }>(({ row, releasedAt }) => toWire(row, releasedAt));
  private readonly rowViews = new WeakMap<LinkRow, { row: LinkRow; releasedAt: string | null }>();

  constructor(private readonly rt: AssignmentLinksModelScope) {
    this.ports = linkPorts(rt);
    this.sessions = new AssignmentSessions(rt, this);
    rt.jobs.on(EXPIRE_JOB, (p) => this.expire(p.linkId));
  }

  clear(): void {
    this.links = new Table();
    this.issuingPages = new Map();
  }

  snapshot(): AssignmentLinksState {
    return { links: [...this.links.all()], issuingPages: Object.fromEntries([...this.issuingPages].map(([k, v]) => [k, { ...v, domains: [...v.domains] }])) };
  }

  restore(s: AssignmentLinksState): void {
    this.links = new Table(s.links);
    this.issuingPages = new Map(Object.entries(s.issuingPages).map(([k, v]) => [k, { ...v, domains: [...v.domains] }]));
  }

  // --- issuing-page settings (control plane) ---

  /** Replaces the account's issuing-page settings; omitted brand fields become null. */
  setIssuingPage(accountId: string, input: { domains: string[]; brandServiceName?: string | null; brandColor?: string | null; brandLogoUrl?: string | null }): IssuingPage {
    if (!this.ports.accountExists(accountId)) throw accountErrors.ACCOUNT_NOT_FOUND(`account ${accountId} does not exist`);
    const hosts = input.domains.map((d, i) => {
      const host = d.trim().toLowerCase();
      if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)) {
        throw ApiError.validation(`domains[${i}] must be a host name such as app.example.com (no scheme, port or path), got "${d}"`, [{ path: `domains.${i}`, message: 'not a host name' }]);
      }
      return host;
    });
    const page: IssuingPage = {
      domains: [...new Set(hosts)],
      brandServiceName: input.brandServiceName ?? null,
      brandColor: input.brandColor ?? null,
      brandLogoUrl: input.brandLogoUrl ?? null,
    };
    this.issuingPages.set(accountId, page);
    return this.issuingPageOf(accountId);
  }

  issuingPageOf(accountId: string): IssuingPage {
    const p = this.issuingPages.get(accountId);
    return p ? { ...p, domains: [...p.domains] } : { domains: [], brandServiceName: null, brandColor: null, brandLogoUrl: null };
  }

  // --- links ---

  /** createAssignmentLink. Every check runs before the first write. */
  create(accountId: string, input: CreateLinkInput, origin: string): LinkRow {
    if (!this.ports.accountExists(accountId)) throw accountErrors.ACCOUNT_NOT_FOUND(`account ${accountId} does not exist`);
    if (!this.ports.hasAddon(accountId)) throw errorCodes.FEATURE_DISABLED(`creating assignment links needs the managed-number add-on (${ADDON})`);
    const webhookUrl = input.webhookUrl === undefined ? null : this.ports.checkReceiverUrl(input.webhookUrl, 'webhookUrl');
    if (input.webhookHeaders) checkWebhookHeaders(input.webhookHeaders);
    const returnUrl = input.returnUrl === undefined ? null : this.checkReturnUrl(accountId, input.returnUrl);
    if (!this.ports.subscriptionActive(accountId)) throw outboundErrors.NO_SUBSCRIPTION(`account ${accountId} has no active subscription`);
    // The slot limit: lines held plus links still pending (API document).
    const held = this.ports.linesHeld(accountId);
    const pending = this.links.all().filter((l) => l.accountId === accountId && l.status === 'pending').length;
    const limit = this.ports.lineLimit(accountId);
    if (held + pending >= limit) throw numberErrors.QUOTA_EXCEEDED(`Phone number quota exceeded (${held} lines + ${pending} pending links of ${limit})`);

    const now = this.rt.clock.now();
    const token = this.newToken();
    const expires = now + (input.ttlSeconds ?? TTL_MAX) * 1000;
    const row: LinkRow = {
      id: token,
      accountId,
      url: `${origin}/assign/${token}`,
      status: 'pending',
      createdAt: iso(now),
      expiresAt: iso(expires),
      consumedAt: null,
      revokedAt: null,
      webhookUrl,
      webhookMethod: input.webhookMethod ?? 'POST',
      webhookHeaders: input.webhookHeaders ?? null,
      note: input.note ?? null,
      returnUrl,
      number: null,
      step: 'selectType',
      subscriberType: null,
      consents: [],
      verificationIds: [],
      kyc: null,
    };
    this.links.insert(row);
    this.rt.jobs.schedule(EXPIRE_JOB, expires, { linkId: token });
    return row;
  }

  list(accountId: string, status?: LinkStatus): readonly LinkRow[] {
    return this.links.newestFirstCached(`${accountId}\u0000${status ?? ''}`, (l) => l.accountId === accountId && (status === undefined || l.status === status));
  }

  require(accountId: string, linkId: string): LinkRow {
    const row = this.links.get(linkId);
    if (!row || row.accountId !== accountId) throw linkErrors.LINK_NOT_FOUND(`no assignment link ${linkId} in this account`);
    return row;
  }

  /** revokeAssignmentLink: pending -> revoked; any other state is 409 NOT_PENDING, unchanged. */
  revoke(accountId: string, linkId: string): LinkRow {
    const row = this.require(accountId, linkId);
    if (!this.ports.hasAddon(accountId)) throw errorCodes.FEATURE_DISABLED(`cancelling assignment links needs the managed-number add-on (${ADDON})`);
    if (row.status !== 'pending') throw linkErrors.NOT_PENDING(`the link is ${row.status}; only a pending link can be cancelled`, { status: row.status });
    return this.links.replace({ ...row, status: 'revoked', revokedAt: this.rt.clock.nowIso() });
  }

  /** The clock job at expiresAt: pending -> expired; a link in any other state stays. */
  expire(linkId: string): void {
    const row = this.links.get(linkId);
    if (row && row.status === 'pending' && parseInstant(row.expiresAt)! <= this.rt.clock.now()) {
      this.links.replace({ ...row, status: 'expired' });
    }
  }

  /** The session's finalize: pending -> consumed with the issued number (checked by session.ts). */
  consume(row: LinkRow, number: string): LinkRow {
    return this.links.replace({ ...row, status: 'consumed', consumedAt: this.rt.clock.nowIso(), number, step: 'done' });
  }

  /** The link as the API shows it (JSON text, cached). */
  json(row: LinkRow): string {
    return this.wireCache.json(this.view(row));
  }

  listJson(rows: readonly LinkRow[], meta: { page: number; pageSize: number; total: number }): string {
    return this.wireCache.list(rows.map((r) => this.view(r)), meta);
  }

  wire(row: LinkRow): AssignmentLinkWire {
    return toWire(row, this.releasedAtOf(row));
  }

  private view(row: LinkRow): { row: LinkRow; releasedAt: string | null } {
    const releasedAt = this.releasedAtOf(row);
    const hit = this.rowViews.get(row);
    if (hit && hit.releasedAt === releasedAt) return hit;
    const v = { row, releasedAt };
    this.rowViews.set(row, v);
    return v;
  }

  private releasedAtOf(row: LinkRow): string | null {
    return row.number === null ? null : (this.ports.releasedAt(row.id) ?? null);
  }

  private checkReturnUrl(accountId: string, value: string): string {
    let u: URL | undefined;
    try {
      u = new URL(value);
    } catch {
      u = undefined;
    }
    if (!u || (u.protocol !== 'https:' && u.protocol !== 'http:')) {
      throw ApiError.validation(`returnUrl must be an http or https URL, got "${value}"`, [{ path: 'returnUrl', message: 'must be an http(s) URL' }]);
    }
    const domains = this.issuingPages.get(accountId)?.domains ?? [];
    // Exact host match: a registered example.com does not allow app.example.com (spec).
    if (!domains.includes(u.hostname.toLowerCase())) {
      const known = domains.length === 0 ? 'no issuing-page domain is registered' : `registered: ${domains.join(', ')}`;
      throw ApiError.validation(`returnUrl host ${u.hostname} is not a registered issuing-page domain (${known}; subdomains are not implied)`, [{ path: 'returnUrl', message: 'host not registered' }]);
    }
    return u.href;
  }

  /** 43 URL-safe characters (256 bits) from the seeded generator, like the service's tokens. */
  private newToken(): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (;;) {
      let t = '';
      for (let i = 0; i < 43; i++) t += alphabet[this.rt.random.int(0, 63)];
      if (!this.links.has(t)) return t;
    }
  }
}

function toWire(r: LinkRow, releasedAt: string | null): AssignmentLinkWire {
  return {
    linkId: r.id,
    url: r.url,
    status: r.status,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    consumedAt: r.consumedAt,
    webhookUrl: r.webhookUrl,
    webhookMethod: r.webhookMethod,
    note: r.note,
    returnUrl: r.returnUrl,
    webhookHeaders: r.webhookHeaders,
    assignment:
      r.status === 'consumed' && r.number !== null
        ? { number: r.number, name: r.kyc?.name ?? null, consumedAt: r.consumedAt!, releasedAt }
        : null,
  };
}
