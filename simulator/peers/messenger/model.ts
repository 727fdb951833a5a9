// Fake messenger provider: the business channels that exist on the messenger's side (who manages
// them), the business categories, and the verification tokens it sends to a channel manager's
// phone when an account asks to connect a channel. Tests script it through the control plane
// (docs/control-plane.md, "Messenger"): add or remove channels, make the provider fail, read the
// tokens a manager received. Tokens are the only secret here; they are shown nowhere else.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError, defineError } from '../../core/errors.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { normalizePhone } from '../../core/phone.ts';
import type { MessengerModelScope } from './ports.ts';

/** How long a token can be used, and how soon another may be asked for the same manager. */
export const TOKEN_TTL_SECONDS = 300;
export const TOKEN_COOLDOWN_SECONDS = 60;
export const FAILURE_MODES = ['none', 'outage', 'rate_limited'] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

/** Business categories a channel is filed under (the provider's list; codes are opaque). */
export const CATEGORIES = [
  { code: '00100010001', name: 'Retail / Online shopping' },
  { code: '00100010002', name: 'Retail / Groceries' },
  { code: '00200010001', name: 'Food / Restaurants' },
  { code: '00300010001', name: 'Logistics / Delivery' },
  { code: '00400010001', name: 'Services / Other' },
];

export const MessengerChannelSchema = Type.Object(
  {
    searchId: Type.String({ description: 'The id people search the channel by, without "@", lowercase.' }),
    channelId: Type.String({ description: 'The provider\'s channel id (templates name it).' }),
    name: Type.String(),
    managers: Type.Array(Type.String({ description: 'Domestic notation.' }), { description: 'Phones registered as the channel\'s managers.' }),
  },
  { $id: 'SimMessengerChannel', additionalProperties: false },
);
export type MessengerChannel = Static<typeof MessengerChannelSchema>;

const TokenSchema = Type.Object(
  {
    searchId: Type.String(),
    phoneNumber: Type.String(),
    token: Type.String(),
    sentAt: DateTime(),
    expiresAt: DateTime(),
    usedAt: Nullable(DateTime()),
  },
  { $id: 'SimMessengerToken', additionalProperties: false },
);
export type MessengerToken = Static<typeof TokenSchema>;

export const MessengerStateSchema = Type.Object(
  { channels: Type.Array(MessengerChannelSchema), tokens: Type.Array(TokenSchema), failure: StringEnum(FAILURE_MODES) },
  { additionalProperties: false },
);
export type MessengerState = Static<typeof MessengerStateSchema>;

export const messengerErrors = {
  CHANNEL_NOT_FOUND: defineError({
    code: 'KAKAO_CHANNEL_NOT_FOUND', status: 400, origin: 'simulator',
    description: 'No messenger channel has this search id.',
  }),
  MANAGER_NOT_REGISTERED: defineError({
    code: 'KAKAO_MANAGER_NOT_REGISTERED', status: 400, origin: 'reference',
    description: 'The phone is not registered as a manager of the channel, so no token is sent.',
  }),
  RATE_LIMITED: defineError({
    code: 'KAKAO_RATE_LIMITED', status: 429, origin: 'reference',
    description: 'The provider refuses more calls for now (a token asked for again too soon, or scripted); retry after retryAfterSeconds. Nothing was done.',
  }),
  PROVIDER_UNAVAILABLE: defineError({
    code: 'KAKAO_PROVIDER_UNAVAILABLE', status: 503, origin: 'reference',
    description: 'The messenger provider does not answer; nothing was done. After a connect attempt, read the channel list instead of retrying.',
  }),
};

/** A search id as the provider compares them (no leading "@", lowercase); undefined when malformed. */
export function normalizeSearchId(raw: string): string | undefined {
  const id = raw.trim().replace(/^@/, '').toLowerCase();
  return /^[a-z0-9][a-z0-9_.-]{0,63}$/.test(id) ? id : undefined;
}

export function searchIdOf(raw: string, field = 'searchId'): string {
  const id = normalizeSearchId(raw);
  if (id === undefined) {
    throw ApiError.validation(`${field} must be a channel search id (letters, digits, _ . -; an optional leading @), got "${raw}"`, [{ path: field, message: 'is not a search id' }]);
  }
  return id;
}

export class FakeMessenger {
  private channels = new Map<string, MessengerChannel>(); // maps a search id to the provider's channel
  private tokens: MessengerToken[] = []; // every token sent, oldest first
  failure: FailureMode = 'none';

  constructor(private readonly rt: MessengerModelScope) {}

  clear(): void {
    this.channels = new Map();
    this.tokens = [];
    this.failure = 'none';
  }

  snapshot(): MessengerState {
    return { channels: this.listChannels(), tokens: this.tokens.map((t) => ({ ...t })), failure: this.failure };
  }

  /** A state the runtime validated against MessengerStateSchema. */
  restore(s: MessengerState): void {
    this.channels = new Map(s.channels.map((c) => [c.searchId, { ...c, managers: [...c.managers] }]));
    this.tokens = s.tokens.map((t) => ({ ...t }));
    this.failure = s.failure;
  }

  listChannels(): MessengerChannel[] {
    return [...this.channels.values()].map((c) => ({ ...c, managers: [...c.managers] }));
  }

  channel(searchId: string): MessengerChannel | undefined {
    return this.channels.get(searchId);
  }

  /** Control plane and fixture: a channel as it exists on the messenger's side. */
  putChannel(input: { searchId: string; channelId: string; name: string; managers: string[] }): MessengerChannel {
    const searchId = searchIdOf(input.searchId);
    const taken = [...this.channels.values()].find((c) => c.channelId === input.channelId && c.searchId !== searchId);
    if (taken) throw ApiError.validation(`channel id ${input.channelId} already belongs to @${taken.searchId}`, [{ path: 'channelId', message: 'is taken' }]);
    const managers = [...new Set(input.managers.map((m, i) => normalizePhone(m, `managers[${i}]`)))];
    const channel = { searchId, channelId: input.channelId, name: input.name, managers };
    this.channels.set(searchId, channel);
    return { ...channel, managers: [...managers] };
  }

  /** Control plane: the channel is gone on the messenger's side (connections notice on their next check). */
  removeChannel(searchId: string): boolean {
    return this.channels.delete(searchIdOf(searchId));
  }

  /** Throws the scripted provider failure, if any. */
  call(): void {
    if (this.failure === 'outage') throw messengerErrors.PROVIDER_UNAVAILABLE('the messenger provider is not answering (scripted outage)');
    if (this.failure === 'rate_limited') throw messengerErrors.RATE_LIMITED('the messenger provider limits calls for now (scripted)', { retryAfterSeconds: TOKEN_COOLDOWN_SECONDS });
  }

  /** Sends a token to a manager's phone; refuses a repeat within the cooldown. */
  sendToken(searchId: string, phoneNumber: string): { retryAfterSeconds: number } {
    this.call();
    const channel = this.requireManager(searchId, phoneNumber);
    const now = this.rt.clock.now();
    const last = this.tokens.findLast((t) => t.searchId === searchId && t.phoneNumber === phoneNumber);
    const wait = last ? Math.ceil((parseInstant(last.sentAt)! + TOKEN_COOLDOWN_SECONDS * 1000 - now) / 1000) : 0;
    if (wait > 0) throw messengerErrors.RATE_LIMITED(`a token was sent to this manager ${TOKEN_COOLDOWN_SECONDS - wait} s ago; ask again in ${wait} s`, { retryAfterSeconds: wait });
    const token = String(this.rt.random.int(0, 999_999)).padStart(6, '0');
    this.tokens.push({ searchId: channel.searchId, phoneNumber, token, sentAt: iso(now), expiresAt: iso(now + TOKEN_TTL_SECONDS * 1000), usedAt: null });
    return { retryAfterSeconds: TOKEN_COOLDOWN_SECONDS };
  }

  /** Uses the newest live token sent to this manager if it matches; false otherwise. */
  useToken(searchId: string, phoneNumber: string, token: string): boolean {
    const now = this.rt.clock.now();
    const live = this.tokens.findLast((t) => t.searchId === searchId && t.phoneNumber === phoneNumber && t.usedAt === null && parseInstant(t.expiresAt)! > now);
    if (!live || live.token !== token) return false;
    live.usedAt = iso(now);
    return true;
  }

  /** Control plane: the tokens a phone received, newest first (where a test reads them). */
  tokensSentTo(phoneNumber: string): MessengerToken[] {
    return this.tokens.filter((t) => t.phoneNumber === phoneNumber).reverse().map((t) => ({ ...t }));
  }

  requireManager(searchId: string, phoneNumber: string): MessengerChannel {
    const channel = this.channels.get(searchId);
    if (!channel) throw messengerErrors.CHANNEL_NOT_FOUND(`no messenger channel is found as @${searchId}`, { errors: [{ path: 'searchId', message: 'no such channel' }] });
    if (!channel.managers.includes(phoneNumber)) {
      throw messengerErrors.MANAGER_NOT_REGISTERED(`${phoneNumber} is not a manager of @${searchId}; use the phone registered on the channel`, { errors: [{ path: 'phoneNumber', message: 'not a manager of the channel' }] });
    }
    return channel;
  }
}

/** 010-****-5678: the middle digits hidden. */
export function maskPhone(n: string): string {
  const m = /^(\d{2,3})(\d{3,4})(\d{4})$/.exec(n);
  return m ? `${m[1]}-${'*'.repeat(m[2]!.length)}-${m[3]}` : n.replace(/\d(?=\d{4})/g, '*');
}
