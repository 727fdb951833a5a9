// Block lists (spec "Blocked caller", "Blocked recipient", "States and transitions"): one
// active entry per number (and channel); release keeps the row as history with active=false
// and the unblocked* fields; re-registering an active pair returns the existing entry. The
// runtime snapshots and restores the two tables (the descriptor's state part) and the fixture
// part seeds them (fixture.ts); the model rebuilds its index of active entries after either.
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { newId, type IdFormat } from '../../core/ids.ts';
import { normalizePhone } from '../../core/phone.ts';
import { normalizeRecipient, normalizeRecipientFilter, type Channel } from './recipient.ts';
import { WireCache } from '../../core/wire.ts';
import type { KernelParts } from '../../core/scope.ts';
import { type BlockRow, type PhoneChannel, BLOCKLIST_IDS } from './schema.ts';

/** What the model uses of its scope: the clock and the seeded random. */
export type BlockListsPorts = Pick<KernelParts, 'clock' | 'random'>;

export const blockErrors = {
  BLOCKED_CALLER_NOT_FOUND: defineError({
    code: 'blocked_caller_not_found', status: 404, origin: 'simulator',
    description: 'No blocked-caller entry with this id in the account.',
  }),
  BLOCKED_RECIPIENT_NOT_FOUND: defineError({
    code: 'blocked_recipient_not_found', status: 404, origin: 'simulator',
    description: 'No blocked-recipient entry with this id in the account.',
  }),
};

export type StatusFilter = 'active' | 'released' | 'all';

export interface BlockInput {
  number: string;
  /** The body field the number came from, named in errors (recipient is number's alias). */
  field?: string;
  channel?: Channel | null;
  note?: string | null;
  source: string;
  sourceRef?: string | null;
  createdBy?: string | null;
}

export interface ReleaseInput {
  note?: string | null;
  source: string;
  by?: string | null;
}

/**
 * The active entries' ids by number, then by account and channel: a lookup of a number nobody
 * blocked builds no key (a batch asks about every recipient it dials).
 */
class ActiveEntries {
  private readonly byNumber = new Map<string, Map<string, string>>();

  get(accountId: string, channel: string | null, number: string): string | undefined {
    return this.byNumber.get(number)?.get(ownerKey(accountId, channel));
  }

  set(accountId: string, channel: string | null, number: string, id: string): void {
    let owners = this.byNumber.get(number);
    if (owners === undefined) this.byNumber.set(number, (owners = new Map()));
    owners.set(ownerKey(accountId, channel), id);
  }

  delete(accountId: string, channel: string | null, number: string): void {
    const owners = this.byNumber.get(number);
    if (owners === undefined) return;
    owners.delete(ownerKey(accountId, channel));
    if (owners.size === 0) this.byNumber.delete(number);
  }
}

function ownerKey(accountId: string, channel: string | null): string {
  return `${accountId}|${channel ?? ''}`;
}

/** "" and null both mean "no note" (spec: PATCH null or "" clears). */
function noteValue(note: string | null | undefined): string | null {
  return note === undefined || note === null || note === '' ? null : note;
}

/** One block list; the model holds two (callers, recipients) that differ only in channel. */
export class BlockList {
  readonly rows = new Table<BlockRow>(); // maps an entry id to the entry (active or released)
  private activeIndex = new ActiveEntries(); // the active entries (derived from the rows)
  readonly wire: WireCache<BlockRow>;

  constructor(
    private readonly rt: BlockListsPorts,
    private readonly idFormat: IdFormat,
    private readonly notFound: (typeof blockErrors)['BLOCKED_CALLER_NOT_FOUND'],
    toWire: (row: BlockRow) => unknown,
  ) {
    this.wire = new WireCache(toWire);
  }

  /** Rebuilds the index of active entries from the rows (after a restore or a reset). */
  reindex(): void {
    this.activeIndex = new ActiveEntries();
    for (const r of this.rows.all()) if (r.active) this.activeIndex.set(r.accountId, r.channel, r.number, r.id);
  }

  /** A seed entry of the fixture, dated `createdAt` when it gives one. */
  seed(accountId: string, input: BlockInput, createdAt: string | undefined): void {
    const { row } = this.create(accountId, input);
    if (createdAt) this.rows.replace({ ...row, createdAt, updatedAt: createdAt });
  }

  /** Entries of the account, newest first, filtered as the list operations say. */
  list(accountId: string, filter: { number?: string; field?: string; channel?: string; status: StatusFilter }): readonly BlockRow[] {
    // Callers are phone numbers only; recipients may be addresses (the email channel).
    const number =
      filter.number === undefined
        ? undefined
        : this.idFormat === BLOCKLIST_IDS.blockedRecipient
          ? normalizeRecipientFilter(filter.number, filter.channel, filter.field ?? 'number')
          : normalizePhone(filter.number, 'number');
    const { channel, status } = filter;
    return this.rows.newestFirstCached(
      `${accountId}|${number ?? ''}|${channel ?? ''}|${status}`,
      (r) =>
        r.accountId === accountId &&
        (number === undefined || r.number === number) &&
        (channel === undefined || r.channel === channel) &&
        (status === 'all' || r.active === (status === 'active')),
    );
  }

  get(accountId: string, id: string): BlockRow {
    const row = this.rows.get(id);
    if (!row || row.accountId !== accountId) throw this.notFound(`no entry ${id} in this account`);
    return row;
  }

  findActive(accountId: string, number: string, channel: string | null = null): BlockRow | undefined {
    const id = this.activeIndex.get(accountId, channel, number);
    return id === undefined ? undefined : this.rows.get(id);
  }

  /** Registers a block; an active entry for the same number (and channel) is returned as is. */
  create(accountId: string, input: BlockInput): { row: BlockRow; created: boolean } {
    const channel = input.channel ?? null;
    const number = normalizeRecipient(input.number, channel, input.field ?? 'number');
    const existing = this.findActive(accountId, number, channel);
    if (existing) return { row: existing, created: false };
    const now = this.rt.clock.nowIso();
    const row: BlockRow = {
      id: this.freshId(),
      accountId,
      number,
      channel,
      active: true,
      source: input.source,
      sourceRef: noteValue(input.sourceRef),
      note: noteValue(input.note),
      createdBy: input.createdBy ?? null,
      createdAt: now,
      updatedAt: now,
      unblockedAt: null,
      unblockedSource: null,
      unblockedBy: null,
      unblockedNote: null,
    };
    this.rows.insert(row);
    this.activeIndex.set(accountId, channel, number, row.id);
    return { row, created: true };
  }

  /** PATCH note semantics: null or "" clears, undefined leaves it. */
  updateNote(accountId: string, id: string, note: string | null | undefined): BlockRow {
    const row = this.get(accountId, id);
    if (note === undefined) return row;
    const next = { ...row, note: noteValue(note), updatedAt: this.rt.clock.nowIso() };
    return this.rows.replace(next);
  }

  /** Release keeps the row as history; releasing again changes nothing and succeeds. */
  release(accountId: string, id: string, input: ReleaseInput): BlockRow {
    const row = this.get(accountId, id);
    if (!row.active) return row;
    const now = this.rt.clock.nowIso();
    this.activeIndex.delete(accountId, row.channel, row.number);
    return this.rows.replace({
      ...row,
      active: false,
      updatedAt: now,
      unblockedAt: now,
      unblockedSource: input.source,
      unblockedBy: input.by ?? null,
      unblockedNote: noteValue(input.note),
    });
  }

  private freshId(): string {
    for (;;) {
      const id = newId(this.rt.random, this.idFormat);
      if (!this.rows.has(id)) return id;
    }
  }
}

/** The wire shape of an entry; recipients add `channel` and `sourceRef` (field order as documented). */
function blockWire(r: BlockRow, recipient: boolean) {
  return {
    id: r.id,
    number: r.number,
    // The real service's later name for the same value (docs/compatibility.md).
    ...(recipient ? { recipient: r.number, channel: r.channel } : {}),
    active: r.active,
    source: r.source,
    ...(recipient ? { sourceRef: r.sourceRef } : {}),
    note: r.note,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    unblockedAt: r.unblockedAt,
    unblockedSource: r.unblockedSource,
    unblockedBy: r.unblockedBy,
    unblockedNote: r.unblockedNote,
  };
}

export const callerWire = (r: BlockRow) => blockWire(r, false);
export const recipientWire = (r: BlockRow) => blockWire(r, true);

export class BlockListsModel {
  readonly callers: BlockList;
  readonly recipients: BlockList;

  constructor(rt: BlockListsPorts) {
    this.callers = new BlockList(rt, BLOCKLIST_IDS.blockedCaller, blockErrors.BLOCKED_CALLER_NOT_FOUND, callerWire);
    this.recipients = new BlockList(rt, BLOCKLIST_IDS.blockedRecipient, blockErrors.BLOCKED_RECIPIENT_NOT_FOUND, recipientWire);
  }

  /** Whether sending to `number` on `channel` is refused (the outbound check other slices call). */
  isRecipientBlocked(accountId: string, number: string, channel: PhoneChannel): boolean {
    return this.recipients.findActive(accountId, number, channel) !== undefined;
  }

  isCallerBlocked(accountId: string, number: string): boolean {
    return this.callers.findActive(accountId, number, null) !== undefined;
  }
}
