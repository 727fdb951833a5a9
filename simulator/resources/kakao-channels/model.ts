// Messenger channel connections (public API document, "KakaoChannels"): an account connects a
// channel that exists at the messenger by proving a manager's phone with a token the messenger
// sends it. One channel belongs to at most one account. The list shows what is stored; getting
// one channel checks it at the messenger and updates its status. Disconnecting deletes the
// account's templates on that channel. Built from its scope (ports.ts); the runtime snapshots
// and restores its table (index.ts).
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { normalizePhone } from '../../core/phone.ts';
import { WireCache } from '../../core/wire.ts';
import { CATEGORIES, maskPhone, searchIdOf } from '../../peers/messenger/model.ts';
import type { KakaoChannelsModelScope } from './ports.ts';
import { type ConnectInput, type KakaoChannelRow, type KakaoChannelWire, KAKAO_CHANNEL_IDS } from './schema.ts';

export const kakaoChannelErrors = {
  CHANNEL_NOT_FOUND: defineError({
    code: 'kakao_channel_not_found', status: 404, origin: 'reference',
    description: 'No channel with this channelId is connected to the account (or it was disconnected).',
  }),
  ALREADY_LINKED: defineError({
    code: 'KAKAO_CHANNEL_ALREADY_LINKED', status: 409, origin: 'reference',
    description: 'The channel is connected to another account; retrying gives the same answer.',
  }),
  TOKEN_INVALID: defineError({
    code: 'KAKAO_TOKEN_INVALID', status: 422, origin: 'reference',
    description: 'The token does not match the newest one sent to this manager, or it expired (5 minutes) or was used; ask for a new one.',
  }),
  UNKNOWN_CATEGORY: defineError({
    code: 'KAKAO_CATEGORY_NOT_FOUND', status: 400, origin: 'simulator',
    description: 'categoryCode is not a code from listKakaoChannelCategories.',
  }),
};

function wire(r: KakaoChannelRow): KakaoChannelWire {
  const { accountId: _accountId, ...rest } = r;
  return rest;
}

export class KakaoChannelsModel {
  readonly channels = new Table<KakaoChannelRow>(); // maps a connection id to the connection
  readonly wire = new WireCache<KakaoChannelRow>(wire);

  // Its directory is plugged into messages by the family's `wire` (index.ts), before the model is built.
  constructor(private readonly rt: KakaoChannelsModelScope) {}

  list(accountId: string, status: 'connected' | 'needs_attention' | 'all'): readonly KakaoChannelRow[] {
    return this.channels.newestFirst((c) => c.accountId === accountId && (status === 'all' || c.status === status));
  }

  /** requestKakaoChannelToken: the messenger sends a token to the manager's phone. */
  requestToken(accountId: string, input: { searchId: string; phoneNumber: string }) {
    void accountId; // any account may ask; the token proves the manager, not the account
    const searchId = searchIdOf(input.searchId);
    const phone = normalizePhone(input.phoneNumber, 'phoneNumber');
    const { retryAfterSeconds } = this.rt.messenger.sendToken(searchId, phone);
    return { requested: true, searchId, phoneNumberMasked: maskPhone(phone), retryAfterSeconds };
  }

  /** createKakaoChannel: 201 when newly connected, 200 (created false) when already this account's. */
  connect(accountId: string, input: ConnectInput): { row: KakaoChannelRow; created: boolean } {
    const searchId = searchIdOf(input.searchId);
    const phone = normalizePhone(input.phoneNumber, 'phoneNumber');
    if (!CATEGORIES.some((c) => c.code === input.categoryCode)) {
      throw kakaoChannelErrors.UNKNOWN_CATEGORY(`no category ${input.categoryCode}; use a code from listKakaoChannelCategories`, { errors: [{ path: 'categoryCode', message: 'unknown category' }] });
    }
    this.rt.messenger.call();
    const channel = this.rt.messenger.requireManager(searchId, phone);
    const holder = this.channels.all().find((c) => c.channelId === channel.channelId);
    if (holder?.accountId === accountId) return { row: holder, created: false }; // the token is not used
    if (holder) throw kakaoChannelErrors.ALREADY_LINKED(`@${searchId} is connected to another account`);
    if (!this.rt.messenger.useToken(searchId, phone, input.token.trim())) {
      throw kakaoChannelErrors.TOKEN_INVALID('the token does not match the newest one sent to this manager, or it expired or was used; request a new one', { errors: [{ path: 'token', message: 'invalid or expired' }] });
    }
    const now = this.rt.clock.nowIso();
    const row: KakaoChannelRow = {
      accountId,
      id: freshId(this.rt.random, KAKAO_CHANNEL_IDS.kakaoChannel, (id) => this.channels.has(id)),
      channelId: channel.channelId,
      searchId,
      name: channel.name,
      categoryCode: input.categoryCode,
      status: 'connected',
      managerPhoneMasked: maskPhone(phone),
      connectedAt: now,
      syncedAt: now,
      createdAt: now,
      updatedAt: now,
    };
    this.channels.insert(row);
    return { row, created: true };
  }

  /** getKakaoChannel: checks the channel at the messenger; a failed or negative check is needs_attention. */
  check(accountId: string, channelId: string): KakaoChannelRow {
    const row = this.require(accountId, channelId);
    let found: boolean;
    try {
      this.rt.messenger.call();
      found = this.rt.messenger.channel(row.searchId)?.channelId === row.channelId;
    } catch {
      found = false; // the connection record stays valid; the status says to look again
    }
    const now = this.rt.clock.nowIso();
    const status = found ? 'connected' : 'needs_attention';
    return this.channels.replace({ ...row, status, syncedAt: now, updatedAt: status === row.status ? row.updatedAt : now });
  }

  /** deleteKakaoChannel: disconnects (the channel stays at the messenger) and deletes its templates. */
  disconnect(accountId: string, channelId: string): KakaoChannelRow {
    const row = this.require(accountId, channelId);
    this.rt.messenger.call();
    this.channels.delete(row.id);
    this.rt.messages.templates.removeChannel(accountId, row.channelId);
    return row;
  }

  /**
   * The account's connection named by either id: the messenger's `channelId` (the public document)
   * or the connection's own `id` (today's SDK, docs/compatibility.md); our own id is tried first.
   */
  find(accountId: string, channelOrConnectionId: string): KakaoChannelRow | undefined {
    const own = this.channels.get(channelOrConnectionId);
    if (own?.accountId === accountId) return own;
    return this.channels.all().find((c) => c.accountId === accountId && c.channelId === channelOrConnectionId);
  }

  private require(accountId: string, channelId: string): KakaoChannelRow {
    const row = this.find(accountId, channelId);
    if (!row) throw kakaoChannelErrors.CHANNEL_NOT_FOUND(`no channel ${channelId} is connected to this account`);
    return row;
  }
}
