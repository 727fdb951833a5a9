// Numbers an account owns, the pool they are issued from, and the history of who held which
// number when (the usage `number` axis is cut at these boundaries, usage rule 6). Built from
// its scope (ports.ts); the runtime runs its snapshot part (index.ts) and its fixture part
// loads the fixture's numbers and pools (fixture.ts).
import { SIP_TRUNK_REQUIRED } from '../../rules/errors.ts';
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import { numberErrors } from './errors.ts';
import { iso } from '../../core/clock.ts';
import { normalizePhone, tryNormalizePhone } from '../../core/phone.ts';
import { newNumberRow } from './row.ts';
import type { NumbersModelScope } from './ports.ts';
import { checkWebhookHeaders } from '../../peers/webhooks/headers.ts';
import {
  STATUS_CALLBACK_EVENTS,
  type AssignmentRow,
  type NumberRow,
  type NumbersState,
  type Pool,
  type RegisterNumberInput,
  type RoutingType,
  type UpdateNumberInput,
} from './schema.ts';

/** The routing target field each routing type needs. */
const ROUTING_TARGET: Record<RoutingType, keyof NumberRow> = {
  webhook: 'webhookUrl',
  agent: 'agentId',
  callflow: 'callFlowId',
  forward: 'forwardTo',
  sip: 'sipEndpointId',
  softphone: 'sipCredentialId',
};

/** Fields that belong to one routing type only and are nulled when routing moves away. */
const ROUTING_ONLY_FIELDS = ['agentId', 'callFlowId', 'forwardTo', 'sipEndpointId', 'sipCredentialId', 'callContextUrl'] as const;
const FIELD_ROUTING: Record<(typeof ROUTING_ONLY_FIELDS)[number], RoutingType> = {
  agentId: 'agent',
  callFlowId: 'callflow',
  forwardTo: 'forward',
  sipEndpointId: 'sip',
  sipCredentialId: 'softphone',
  callContextUrl: 'agent',
};

/** Reference kinds routing names (core/refs.ts): the family that owns each answers; without it, nobody does. */
type RoutingRef = 'agent' | 'callFlow' | 'sipEndpoint' | 'sipCredential' | 'dictionary';

const REF_CHECKS: { field: 'agentId' | 'callFlowId' | 'sipEndpointId' | 'sipCredentialId' | 'dictionaryId'; kind: RoutingRef; error: keyof typeof numberErrors }[] = [
  { field: 'agentId', kind: 'agent', error: 'INVALID_AGENT' },
  { field: 'callFlowId', kind: 'callFlow', error: 'INVALID_CALL_FLOW' },
  { field: 'sipEndpointId', kind: 'sipEndpoint', error: 'INVALID_ENDPOINT' },
  { field: 'sipCredentialId', kind: 'sipCredential', error: 'INVALID_CREDENTIAL' },
  { field: 'dictionaryId', kind: 'dictionary', error: 'INVALID_DICTIONARY' },
];

export class NumbersModel {
  numbers = new Table<NumberRow>(); // maps a domestic number to its settings and owner
  assignments = new Table<AssignmentRow>(); // maps an assignment id to one holding period of a number
  pool: Pool = { first: '07040000000', size: 1, nextOffset: 0, returned: [] }; // the free numbers
  representativePool: Pool | null = null; // the free 15xx-19xx numbers, when the fixture has a pool
  private openLinks: { table: Table<AssignmentRow>; version: number; links: Map<string, string | null> } | undefined; // derived from assignments

  constructor(private readonly rt: NumbersModelScope) {}

  /** Back to no numbers and an empty pool (reset, before the fixture loads). */
  clear(): void {
    this.numbers = new Table();
    this.assignments = new Table();
    this.pool = { first: '07040000000', size: 1, nextOffset: 0, returned: [] };
    this.representativePool = null;
  }

  /** Puts the fixture's pools and an account's numbers in place (its fixture part loads them). */
  loadPools(pool: { first: string; size: number }, representative: { first: string; size: number } | undefined): void {
    this.pool = { first: pool.first, size: pool.size, nextOffset: 0, returned: [] };
    this.representativePool = representative ? { first: representative.first, size: representative.size, nextOffset: 0, returned: [] } : null;
  }

  /** A seed number held by the account since `createdAt` (its fixture part). */
  loadNumber(accountId: string, number: string, createdAt: string, webhook: { url?: string | null; method?: 'POST' | 'GET' }): void {
    const row = newNumberRow(accountId, number, createdAt);
    if (webhook.url !== undefined) row.webhookUrl = webhook.url;
    if (webhook.method) row.webhookMethod = webhook.method;
    this.numbers.insert(row);
    this.openAssignment(row.id, accountId, row.createdAt, null);
  }

  snapshot(): NumbersState {
    const copy = (p: Pool) => ({ ...p, returned: [...p.returned] });
    return {
      numbers: [...this.numbers.all()],
      assignments: [...this.assignments.all()],
      pool: copy(this.pool),
      representativePool: this.representativePool && copy(this.representativePool),
    };
  }

  /** A part the runtime validated (index.ts). */
  restore(s: NumbersState): void {
    this.numbers = new Table(s.numbers);
    this.assignments = new Table(s.assignments);
    this.pool = { ...s.pool, returned: [...s.pool.returned] };
    this.representativePool = s.representativePool && { ...s.representativePool, returned: [...s.representativePool.returned] };
  }

  listFor(accountId: string): NumberRow[] {
    return this.numbers.newestFirst((n) => n.accountId === accountId);
  }

  /** The row of a held number (domestic notation), if any account holds it. */
  find(number: string): NumberRow | undefined {
    return this.numbers.get(number);
  }

  /** The account's numbers that route to the SIP endpoint, sorted. */
  routedToSipEndpoint(accountId: string, endpointId: string): string[] {
    return this.numbers
      .all()
      .filter((n) => n.accountId === accountId && n.routingType === 'sip' && n.sipEndpointId === endpointId)
      .map((n) => n.id)
      .sort();
  }

  /** The account's numbers whose inbound calls route to the call flow (routingType callflow), sorted. */
  routedToCallFlow(accountId: string, callFlowId: string): string[] {
    return this.numbers
      .all()
      .filter((n) => n.accountId === accountId && n.routingType === 'callflow' && n.callFlowId === callFlowId)
      .map((n) => n.id)
      .sort();
  }

  ownerOf(number: string): string | undefined {
    return this.numbers.get(number)?.accountId;
  }

  /** The assignment link the account's current holding of the number came through (usage rule 7). */
  openLinkOf(accountId: string, number: string): string | null {
    return this.openHoldings().get(`${accountId} ${number}`) ?? null;
  }

  /**
   * The first open assignment of each (account, number), rebuilt when the assignments change:
   * usage asks for the link of every number of a million calls, and the assignments are a list.
   */
  private openHoldings(): Map<string, string | null> {
    const table = this.assignments;
    const cached = this.openLinks;
    if (cached && cached.table === table && cached.version === table.version) return cached.links;
    const links = new Map<string, string | null>();
    for (const a of table.all()) {
      const key = `${a.accountId} ${a.number}`;
      if (a.to === null && !links.has(key)) links.set(key, a.linkId);
    }
    this.openLinks = { table, version: table.version, links };
    return links;
  }

  /** A number of this account, looked up from a path or body value in any accepted spelling. */
  requireOwned(accountId: string, raw: string): NumberRow {
    const r = tryNormalizePhone(raw);
    const row = r.ok ? this.numbers.get(r.number) : undefined;
    if (!row) throw numberErrors.NUMBER_NOT_FOUND(`number ${raw} was not found`);
    if (row.accountId !== accountId) throw numberErrors.NUMBER_NOT_OWNED(`number ${row.id} belongs to another account`);
    return row;
  }

  /** Issues a number from the pool (registerNumber). */
  issue(accountId: string, input: RegisterNumberInput = {}, linkId: string | null = null): NumberRow {
    if (!this.rt.accounts.subscriptionActive(accountId)) {
      throw numberErrors.NO_ACTIVE_SUBSCRIPTION(`account ${accountId} has no active subscription`);
    }
    this.checkLineLimit(accountId);
    const settings = this.checkSettings(input);
    const number = this.takeFromPool(this.pool);
    const row: NumberRow = { ...newNumberRow(accountId, number, this.rt.clock.nowIso()), ...settings };
    this.numbers.insert(row);
    this.openAssignment(number, accountId, row.createdAt, linkId);
    return row;
  }

  /**
   * createRepresentativeNumber: a 15xx-19xx number from its own pool. It routes by forward only;
   * until forwardTo is set, callers hear an announcement (guides). The plan's line limit is not
   * applied (the reference lists no 422 for it).
   */
  issueRepresentative(accountId: string): NumberRow {
    if (!this.rt.accounts.subscriptionActive(accountId)) {
      throw numberErrors.NO_ACTIVE_SUBSCRIPTION(`account ${accountId} has no active subscription`);
    }
    if (!this.rt.accounts.hasAddon(accountId, 'representative_number')) {
      throw numberErrors.ADDON_REQUIRED('representative numbers need the representative_number add-on');
    }
    if (!this.representativePool) throw numberErrors.REPRESENTATIVE_POOL_EMPTY('the representative number pool has no free number');
    const number = this.takeFromPool(this.representativePool, () => numberErrors.REPRESENTATIVE_POOL_EMPTY('the representative number pool has no free number'));
    const row = newNumberRow(accountId, number, this.rt.clock.nowIso());
    this.numbers.insert(row);
    this.openAssignment(number, accountId, row.createdAt, null);
    return row;
  }

  /** Control plane: gives the account a specific free number, or the next pool number. */
  grant(accountId: string, raw?: string): NumberRow {
    const number = raw === undefined ? this.takeFromPool(this.pool) : normalizePhone(raw);
    const owner = this.ownerOf(number);
    if (owner) throw ApiError.validation(`number ${number} is already owned by ${owner}`, [{ path: 'numbers', message: 'already owned' }]);
    this.pool.returned = this.pool.returned.filter((n) => n !== number);
    const row = newNumberRow(accountId, number, this.rt.clock.nowIso());
    this.numbers.insert(row);
    this.openAssignment(number, accountId, row.createdAt, null);
    return row;
  }

  /** Where grants stand now; calling what it answers takes back every grant since (the newest rows) and the pool (a failed account creation). */
  grantCheckpoint(): () => void {
    const numbers = this.numbers.size;
    const assignments = this.assignments.size;
    const pool = { ...this.pool, returned: [...this.pool.returned] };
    return () => {
      this.numbers.dropNewest(numbers);
      this.assignments.dropNewest(assignments);
      this.pool = pool;
    };
  }

  update(accountId: string, raw: string, input: UpdateNumberInput): NumberRow {
    const current = this.requireOwned(accountId, raw);
    if (Object.keys(input).length === 0) throw numberErrors.NOTHING_TO_UPDATE('the body has no field to update');
    const next: NumberRow = { ...current, ...this.checkSettings(input) };

    const routing = input.routingType ?? current.routingType;
    const representative = current.numberType === 'representative';
    if (representative && routing !== 'forward') {
      throw numberErrors.REPRESENTATIVE_FORWARD_ONLY(`${current.id} is a representative number; it routes only by forward`, { errors: [{ path: 'routingType', message: 'must be forward' }] });
    }
    if (input.routingType !== undefined && input.routingType !== current.routingType) {
      // Switching routing clears the targets of the old routing (reference: numbers guide).
      for (const f of ROUTING_ONLY_FIELDS) if (!(f in input)) next[f] = null;
    }
    for (const f of ROUTING_ONLY_FIELDS) {
      const v = input[f];
      if (v !== undefined && v !== null && FIELD_ROUTING[f] !== routing) {
        throw numberErrors.ROUTING_FIELD_MISMATCH(`${f} applies only with routingType "${FIELD_ROUTING[f]}", but the number routes by "${routing}"`, { errors: [{ path: f, message: `needs routingType ${FIELD_ROUTING[f]}` }] });
      }
    }
    const targetField = ROUTING_TARGET[routing];
    // A representative number without forwardTo plays an announcement (guides): no target needed.
    if (!representative && (next[targetField] === null || next[targetField] === undefined)) {
      throw numberErrors.ROUTING_TARGET_MISSING(`routingType "${routing}" needs ${targetField}`, { errors: [{ path: targetField, message: 'is required for this routingType' }] });
    }
    if (routing === 'sip' || routing === 'softphone') {
      if (!this.rt.accounts.hasAddon(accountId, 'sip_trunk')) {
        throw SIP_TRUNK_REQUIRED(`routingType "${routing}" needs the sip_trunk add-on`);
      }
    }
    if (input.forwardTo !== undefined && input.forwardTo !== null) {
      const target = tryNormalizePhone(input.forwardTo, 'forwardTo');
      if (!target.ok) throw numberErrors.INVALID_FORWARD_TO(target.message, { errors: [{ path: 'forwardTo', message: target.message }] });
      if (target.number === current.id) throw numberErrors.INVALID_FORWARD_TO('forwardTo cannot be the number itself');
      if (this.ownerOf(target.number) !== accountId) {
        throw numberErrors.INVALID_FORWARD_TO(`forwardTo ${target.number} is not a number of this account`);
      }
      next.forwardTo = target.number;
    }
    for (const { field, kind, error } of REF_CHECKS) {
      const id = input[field];
      if (id === undefined || id === null) continue;
      const found = this.rt.refs.check(kind, accountId, id);
      if (found === false) throw numberErrors[error](`${field} ${id} does not exist in this account`);
      if (typeof found === 'string') throw numberErrors.TARGET_INACTIVE(`${field} ${id}: ${found}`);
    }
    this.numbers.replace(next);
    return next;
  }

  /** Listeners told when a number leaves its account (the Agent SDK closes its sockets with 4403). */
  private readonly releasedListeners: ((accountId: string, number: string) => void)[] = [];

  /** Hears every number released from its account, after the release. */
  onReleased(listener: (accountId: string, number: string) => void): void {
    this.releasedListeners.push(listener);
  }

  /** A deleted dictionary: the account's numbers that named it fall back to the default (reference: SetNull). */
  detachDictionary(accountId: string, dictionaryId: string): void {
    for (const n of this.numbers.all()) {
      if (n.accountId === accountId && n.dictionaryId === dictionaryId) this.numbers.replace({ ...n, dictionaryId: null });
    }
  }

  /** Numbers of the account routed to this managed agent (the agent's phoneNumbers). */
  routedToAgent(accountId: string, agentId: string): string[] {
    return this.numbers.all().filter((n) => n.accountId === accountId && n.routingType === 'agent' && n.agentId === agentId).map((n) => n.id);
  }

  /** deleteNumber: the number returns to the pool and its holding period ends. */
  release(accountId: string, raw: string): void {
    const row = this.requireOwned(accountId, raw);
    this.numbers.delete(row.id);
    for (const l of this.releasedListeners) l(accountId, row.id);
    this.closeAssignment(row.id);
    (row.numberType === 'representative' && this.representativePool ? this.representativePool : this.pool).returned.push(row.id);
    // Numbers that forwarded to it lose their target (reference: numbers guide).
    for (const n of this.numbers.all()) {
      if (n.forwardTo === row.id) this.numbers.replace({ ...n, forwardTo: null });
    }
  }

  // --- helpers ---

  private checkLineLimit(accountId: string): void {
    const limit = this.rt.accounts.plan(accountId).lineLimit;
    const held = this.numbers.all().filter((n) => n.accountId === accountId).length;
    if (held >= limit) throw numberErrors.QUOTA_EXCEEDED(`Phone number quota exceeded (${held}/${limit})`);
  }

  private takeFromPool(pool: Pool, empty = () => numberErrors.NUMBER_POOL_EMPTY('the number pool has no free number')): string {
    const first = Number(pool.first);
    while (pool.nextOffset < pool.size) {
      const n = String(first + pool.nextOffset++).padStart(pool.first.length, '0');
      if (!this.numbers.has(n)) return n;
    }
    const reused = pool.returned.shift();
    if (reused !== undefined) return reused;
    throw empty();
  }

  private openAssignment(number: string, accountId: string, from: string, linkId: string | null): void {
    this.assignments.insert({ id: `asg_${this.assignments.size + 1}`, number, accountId, linkId, from, to: null });
  }

  private closeAssignment(number: string): void {
    const open = this.assignments.all().find((a) => a.number === number && a.to === null);
    if (open) this.assignments.replace({ ...open, to: iso(this.rt.clock.now()) });
  }

  /** Checks and normalises the settings fields shared by register and update. */
  private checkSettings<T extends RegisterNumberInput>(input: T): Partial<NumberRow> {
    const out: Partial<NumberRow> = {};
    for (const [k, v] of Object.entries(input)) (out as Record<string, unknown>)[k] = v;
    if (input.webhookUrl) {
      checkHttpUrl(input.webhookUrl, 'webhookUrl');
      this.rt.receiverPolicy.refuseInternal(input.webhookUrl, 'webhookUrl');
    }
    if (input.statusCallback !== undefined) {
      out.statusCallback = input.statusCallback === '' ? null : input.statusCallback;
      if (out.statusCallback) {
        checkHttpUrl(out.statusCallback, 'statusCallback');
        this.rt.receiverPolicy.refuseInternal(out.statusCallback, 'statusCallback');
      }
    }
    if (input.statusCallbackEvents !== undefined && input.statusCallbackEvents !== null) {
      const events = input.statusCallbackEvents.trim().split(/\s+/).filter(Boolean);
      const unknown = events.filter((e) => !(STATUS_CALLBACK_EVENTS as readonly string[]).includes(e));
      if (unknown.length > 0) {
        throw ApiError.validation(`statusCallbackEvents has unknown events: ${unknown.join(', ')} (known: ${STATUS_CALLBACK_EVENTS.join(' ')})`, [{ path: 'statusCallbackEvents', message: 'unknown event' }]);
      }
      out.statusCallbackEvents = events.length === 0 ? null : [...new Set(events)].join(' ');
    }
    if (input.webhookHeaders) checkWebhookHeaders(input.webhookHeaders);
    const cc = (input as UpdateNumberInput).callContextUrl;
    if (cc) checkHttpUrl(cc, 'callContextUrl');
    return out;
  }
}

function checkHttpUrl(value: string, field: string): void {
  let ok = false;
  try {
    const u = new URL(value);
    ok = (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '';
  } catch {
    ok = false;
  }
  if (!ok) throw ApiError.validation(`${field} must be an http or https URL, got "${value}"`, [{ path: field, message: 'must be an http(s) URL' }]);
}
