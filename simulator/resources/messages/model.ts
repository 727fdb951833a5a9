// Messages (spec "Message"; guides "Messages"): outbound texts are checked in full, stored as
// queued and handed to the fake carrier, which reports sent or failed on the virtual clock;
// inbound texts arrive through the control plane as received. A refused send stores nothing,
// counts nothing and draws no id. A failed ata message is followed by its fallback text. Built
// from its scope (ports.ts); the runtime snapshots and restores its tables (index.ts).
import { Table } from '../../core/store.ts';
import { freshId } from '../../core/ids.ts';
import { normalizePhone } from '../../core/phone.ts';
import { WireCache } from '../../core/wire.ts';
import { ApiError } from '../../core/errors.ts';
import type { DeliveryRow } from '../../peers/carrier/schema.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { messageErrors as E } from './errors.ts';
import { chooseTextType, planContent, type PlannedContent } from './content.ts';
import { downloadMedia, mediaApiPaths, mediaUrlsAt } from './media.ts';
import type { OutboundRules } from '../../rules/outbound.ts';
import type { ChannelDirectory, MessagesModelScope } from './ports.ts';
import { MessageQuota, countsTowardUsage } from './quota.ts';
import { KakaoTemplates } from './templates.ts';
import { BrandImages, BrandTemplates } from './brand-assets.ts';
import { isBrandNight, planBrand } from './brand-content.ts';
import {
  type InboundMessageInput,
  type MessageRow,
  type MessageStatus,
  type MessageType,
  type SendMessageInput,
  type StoredMedia,
  type UsageRecordWire,
  MESSAGE_IDS,
} from './schema.ts';

/** A message on the wire, its media paths as URLs on `origin` (where the client reached the API). */
export function messageWire(r: MessageRow, origin: string) {
  return {
    messageId: r.id,
    status: r.status,
    type: r.type,
    subject: r.subject,
    to: r.to,
    from: r.from,
    body: r.body,
    numMedia: r.mediaUrl.length,
    mediaUrl: mediaUrlsAt(origin, r.mediaUrl),
    direction: r.direction,
    accountId: r.accountId,
    dateCreated: r.dateCreated,
    dateUpdated: r.dateUpdated,
  };
}

export interface MessageFilter {
  type?: MessageType;
  status?: MessageStatus;
  number?: string;
}

type OutboundFields = Pick<MessageRow, 'accountId' | 'from' | 'to' | 'idempotencyKey' | 'linkId' | 'fallbackFor' | 'media'> &
  Omit<PlannedContent, 'mediaUrl'>;

/** How many origins keep a cache of serialised messages (a client sends one Host; forged ones come and go). */
const CACHED_ORIGINS = 8;

export class MessagesModel {
  readonly messages = new Table<MessageRow>(); // maps a messageId to a sent or received message
  readonly templates: KakaoTemplates;
  readonly brandTemplates: BrandTemplates;
  readonly brandImages: BrandImages;
  private readonly wires = new Map<string, WireCache<MessageRow>>(); // maps an origin to its serialised messages

  /** Serialised messages as a client that reached the API at `origin` sees them. */
  wireAt(origin: string): WireCache<MessageRow> {
    let wire = this.wires.get(origin);
    if (!wire) {
      if (this.wires.size >= CACHED_ORIGINS) this.wires.delete(this.wires.keys().next().value!);
      wire = new WireCache<MessageRow>((r) => messageWire(r, origin));
      this.wires.set(origin, wire);
    }
    return wire;
  }
  private readonly quota: MessageQuota; // monthly counts per type (derived from the rows)
  private idempotency = new Map<string, string>(); // maps account|IdempotencyKey to the first message's id (derived)
  private channels: ChannelDirectory | undefined; // the messenger-channel family's directory, once it plugged it in

  constructor(
    private readonly rt: MessagesModelScope,
    private readonly outbound: OutboundRules,
  ) {
    this.templates = new KakaoTemplates(rt);
    const kernel = { clock: rt.clock, random: () => rt.random };
    this.brandTemplates = new BrandTemplates(kernel);
    this.brandImages = new BrandImages(kernel);
    this.quota = new MessageQuota(rt);
    rt.carrier.onOutcome('message', (d) => this.carrierReported(d));
    rt.usage.register((accountId) =>
      this.usageRecords(accountId).map((r) => ({ meter: r.meter, quantity: r.quantity, at: r.at, phoneNumber: r.phoneNumber, linkId: r.linkId })),
    );
  }

  /** The messenger-channel family plugs in how a sent ChannelId names a channel (messages do not depend on it). */
  useChannelDirectory(directory: ChannelDirectory): void {
    this.channels = directory;
  }

  /** Rebuilds what is derived from the rows (monthly counts, idempotency keys) after a restore or a clear. */
  reindex(): void {
    this.quota.rebuild(this.messages.all());
    this.idempotency = new Map();
    for (const r of this.messages.all()) if (r.idempotencyKey !== null) this.idempotency.set(`${r.accountId}|${r.idempotencyKey}`, r.id);
  }

  /**
   * The messenger's channel id for a `ChannelId` as sent: today's SDK sends the connection's own id
   * (docs/compatibility.md), the public document the messenger's; templates are filed under the latter.
   */
  private messengerChannelId(accountId: string, channelId: string): string {
    return this.channels?.find(accountId, channelId)?.channelId ?? channelId;
  }

  /**
   * sendMessage. Every check runs before the first write, in this order: idempotent replay,
   * content (400), numbers (400), image downloads (400), subscription (422), operations bar
   * (403), opt-out, template approval, type, monthly cap and operations cap (422).
   */
  send(accountId: string, input: SendMessageInput): { row: MessageRow; replayed: boolean } {
    const key = input.IdempotencyKey ?? null;
    const earlier = key === null ? undefined : this.idempotency.get(`${accountId}|${key}`);
    if (earlier !== undefined) return { row: this.messages.get(earlier)!, replayed: true };

    const content = input.Brand
      ? planBrand(input, {
          channelId: (sent) => this.messengerChannelId(accountId, sent),
          template: (channelId, templateId) => this.brandTemplates.find(accountId, channelId, templateId),
          image: (imageId) => this.brandImages.get(accountId, imageId),
        })
      : planContent(input, (channelId, templateId) => this.templates.find(accountId, this.messengerChannelId(accountId, channelId), templateId));
    const to = normalizePhone(input.To, 'To');
    const from = this.outbound.ownedSender(accountId, input.From, 'From');
    const media = downloadMedia(this.rt.imageHost, content.mediaUrl, 'MediaUrl');
    this.outbound.requireSubscription(accountId);
    if (this.barred(accountId)) throw E.MESSAGING_BLOCKED(`account ${accountId} is barred from sending messages by the service's operations`);
    this.outbound.refuseOptedOut(accountId, to, 'message');
    if (content.type === 'bms' && isBrandNight(this.rt.clock.now())) {
      throw E.KAKAO_BRAND_NIGHT_BLOCKED('brand messages cannot be sent from 20:50 to 08:00 Korea time; send again after 08:00 KST');
    }
    if (content.template && content.template.status !== 'APPROVED') {
      throw E.KAKAO_TEMPLATE_NOT_SENDABLE(`template ${content.template.id} is ${content.template.status}; only APPROVED templates can be sent`);
    }
    const refusal = this.quota.refusal(accountId, content.type);
    if (refusal) throw refusal;

    const row = this.queue({ ...content, media, accountId, from, to, idempotencyKey: key, linkId: this.outbound.linkIdOf(accountId, from), fallbackFor: null });
    return { row, replayed: false };
  }

  get(accountId: string, messageId: string): MessageRow {
    const row = this.messages.get(messageId);
    if (!row || row.accountId !== accountId) throw E.MESSAGE_NOT_FOUND(`no message ${messageId} in this account`);
    return row;
  }

  /** Sent and received together, newest first; `number` matches either side after normalisation. */
  list(accountId: string, filter: MessageFilter): readonly MessageRow[] {
    const number = filter.number === undefined ? undefined : normalizePhone(filter.number, 'number');
    const { type, status } = filter;
    return this.messages.newestFirstCached(
      `${accountId}|${type ?? ''}|${status ?? ''}|${number ?? ''}`,
      (r) =>
        r.accountId === accountId &&
        (type === undefined || r.type === type) &&
        (status === undefined || r.status === status) &&
        (number === undefined || r.from === number || r.to === number),
    );
  }

  /** Stored image `index` of a message (getMessageMedia). */
  media(accountId: string, messageId: string, index: string): StoredMedia {
    const row = this.get(accountId, messageId);
    const i = /^(0|[1-9]\d{0,5})$/.test(index) ? Number(index) : NaN;
    const found = row.media[i];
    if (!found) {
      throw E.MEDIA_NOT_FOUND(`message ${messageId} has ${row.media.length === 0 ? 'no images' : `images 0 to ${row.media.length - 1}`}; there is no image ${index}`);
    }
    return found;
  }

  /**
   * Control plane: a text from a phone to a number some account owns arrives as received. Its
   * images come through the fake image host like a send's. `origin` (where the control plane was
   * reached) makes the media URLs of the message.received webhook absolute.
   */
  receive(input: InboundMessageInput, origin: string): MessageRow {
    const to = normalizePhone(input.to, 'to');
    const from = normalizePhone(input.from, 'from');
    const accountId = this.rt.numbers.ownerOf(to);
    if (!accountId) throw sharedErrors.NUMBER_NOT_FOUND(`no account owns ${to}; inbound messages go to a number of some account`);
    const mediaUrl = input.mediaUrl ?? [];
    const subject = input.subject ? input.subject : null;
    const body = input.body ?? null;
    const type = input.type ?? chooseTextType(body ?? '', subject, mediaUrl.length);
    if (mediaUrl.length > 0 && type !== 'mms') {
      throw ApiError.validation(`only mms carries images, not ${type}`, [{ path: 'mediaUrl', message: 'needs type mms' }]);
    }
    const media = downloadMedia(this.rt.imageHost, mediaUrl, 'mediaUrl');
    const blank = this.blankRow(accountId, from, to);
    const row: MessageRow = {
      ...blank,
      direction: 'inbound',
      type,
      status: 'received',
      subject,
      body,
      mediaUrl: mediaApiPaths(accountId, blank.id, media.length),
      media,
    };
    this.messages.insert(row);
    this.announce('message.received', row, origin);
    return row;
  }

  /** What the usage aggregation will read: one count per outbound message not failed (spec meters). */
  usageRecords(accountId: string): UsageRecordWire[] {
    return this.messages
      .all()
      .filter((r) => r.accountId === accountId && countsTowardUsage(r))
      .map((r) => ({
        messageId: r.id,
        meter: r.type,
        unit: 'count' as const,
        quantity: 1,
        day: r.dateCreated.slice(0, 10),
        phoneNumber: r.from,
        linkId: r.linkId,
        at: r.dateCreated,
      }));
  }

  quotaView(accountId: string) {
    return this.quota.view(accountId);
  }

  // --- internals ---

  private barred(accountId: string): boolean {
    return this.rt.accounts.get(accountId)?.messagingOps.blocked ?? false;
  }

  private blankRow(accountId: string, from: string, to: string): MessageRow {
    return {
      id: freshId(this.rt.random, MESSAGE_IDS.message, (id) => this.messages.has(id)),
      accountId,
      direction: 'outbound',
      type: 'sms',
      status: 'queued',
      from,
      to,
      subject: null,
      body: null,
      mediaUrl: [],
      media: [],
      dateCreated: this.rt.clock.nowIso(),
      dateUpdated: null,
      idempotencyKey: null,
      linkId: null,
      template: null,
      fallback: null,
      fallbackFor: null,
    };
  }

  /** Stores an accepted outbound message as queued and hands it to the carrier. */
  private queue(f: OutboundFields): MessageRow {
    const blank = this.blankRow(f.accountId, f.from, f.to);
    const row: MessageRow = {
      ...blank,
      type: f.type,
      subject: f.subject,
      body: f.body,
      mediaUrl: mediaApiPaths(f.accountId, blank.id, f.media.length),
      media: f.media,
      idempotencyKey: f.idempotencyKey,
      linkId: f.linkId,
      template: f.template ? { channelId: f.template.channelId, templateId: f.template.id } : null,
      fallback: f.fallback,
      fallbackFor: f.fallbackFor,
      ...(f.brand ? { brand: f.brand } : {}),
    };
    this.messages.insert(row);
    this.quota.add(row);
    if (row.idempotencyKey !== null) this.idempotency.set(`${row.accountId}|${row.idempotencyKey}`, row.id);
    this.rt.carrier.submit({
      accountId: row.accountId,
      owner: 'message',
      ownerId: row.id,
      type: row.type,
      from: row.from,
      to: row.to,
      subject: row.subject,
      content: row.body ?? '',
      // The phone receives the images themselves; the carrier's log names them by their source.
      mediaUrl: row.media.map((m) => m.source),
    });
    return row;
  }

  private carrierReported(d: DeliveryRow): void {
    const row = this.messages.get(d.ownerId);
    if (!row || row.status !== 'queued') return;
    const status = d.status === 'delivered' ? 'sent' : 'failed';
    const done = this.messages.replace({ ...row, status, dateUpdated: this.rt.clock.nowIso() });
    if (status === 'failed') this.quota.remove(row);
    this.announce(status === 'sent' ? 'message.sent' : 'message.failed', done);
    if (status === 'failed' && done.fallback) this.sendFallback(done);
  }

  /**
   * The fallback text of a failed ata message: a separate message with its own id and charge.
   * It is sent only if the account could send it now (subscription, opt-out, quota); else none.
   */
  private sendFallback(ata: MessageRow): void {
    const plan = ata.fallback!;
    if (!this.rt.accounts.subscriptionActive(ata.accountId) || this.barred(ata.accountId)) return;
    if (this.rt.blockLists.isRecipientBlocked(ata.accountId, ata.to, 'message')) return;
    if (this.quota.refusal(ata.accountId, plan.type)) return;
    this.queue({
      accountId: ata.accountId,
      from: ata.from,
      to: ata.to,
      type: plan.type,
      body: plan.body,
      subject: plan.subject,
      brand: null,
      media: [],
      template: null,
      fallback: null,
      idempotencyKey: null,
      linkId: ata.linkId,
      fallbackFor: ata.id,
    });
  }

  /** Domain event for the webhook engine: the message webhook's form fields (guides 2a). */
  private announce(type: 'message.sent' | 'message.failed' | 'message.received', row: MessageRow, origin = ''): void {
    const at = this.rt.clock.now();
    const payload: Record<string, string> = {
      MessageId: row.id,
      AccountId: row.accountId,
      From: row.from,
      To: row.to,
      Direction: row.direction,
      Type: row.type,
      Status: row.status,
      Timestamp: this.rt.clock.nowIso(),
    };
    if (type === 'message.received') {
      payload.Subject = row.subject ?? '';
      payload.Body = row.body ?? '';
      payload.NumMedia = String(row.mediaUrl.length);
      mediaUrlsAt(origin, row.mediaUrl).forEach((url, i) => (payload[`MediaUrl${i}`] = url));
    }
    this.rt.events.emit(type, { accountId: row.accountId, resourceId: row.id, at, payload });
  }
}
