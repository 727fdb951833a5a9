// The webhook delivery engine: every domain event on its way to the receivers that want it
// (spec "Events": form-encoded, X-Signature, at-least-once, non-2xx retried).
//
// - An event becomes one delivery per receiver (targets.ts), queued at the event's instant.
// - Each receiver (a URL origin) gets one request at a time, in queue order: that order, and so
//   the order a receiver sees, depends only on the order of events and retries.
// - A failed attempt (non-2xx, connection error, timeout) schedules a retry as a virtual-clock
//   job RETRY_DELAYS_MS later; after MAX_ATTEMPTS the delivery has failed for good.
// - The HTTP attempt itself is real I/O (receiver-client.ts). The engine reports itself busy
//   while attempts are queued or in flight (core/io.ts), and the clock advance waits for it, so
//   on a manual clock retries and their order are deterministic.
// - Deliveries, the journal of attempts and the signing keys are plain JSON state: a snapshot
//   carries them, and an attempt in flight when the snapshot was taken is sent again on restore.
import { Table } from '../../core/store.ts';
import { defineError } from '../../core/errors.ts';
import { iso } from '../../core/clock.ts';
import { validate } from '../../core/schema.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { PendingIo } from '../../core/io.ts';
import type { Kernel } from '../../core/ports.ts';
import type { AccountsModel } from '../../resources/accounts/model.ts';
import type { ReceiverPolicy } from './receiver-policy.ts';
import { TEST_EVENT, type WebhookRow } from '../../resources/webhooks/schema.ts';
import { buildRequest, toFormFields, type OutgoingRequest } from './request.ts';
import { ReceiverClient, type AttemptOutcome } from './receiver-client.ts';
import { DeliveryTargets, type TargetsPorts } from './targets.ts';
import { SigningKeys } from './signing-keys.ts';
import { filterAttempts, filterDeliveries, withinLimit } from './journal.ts';
import { EngineStateSchema, type AttemptRow, type DeliveryRow, type EngineState, type JournalFilter, type Target } from './schema.ts';

/** Wait before retry n (after failed attempt n): 10 s, 1 min, 5 min, 30 min, 2 h. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000] as const;
/** The first attempt plus one per retry delay; then the delivery has failed for good. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

const RETRY_JOB = 'webhooks.retry';

export const deliveryErrors = {
  DELIVERY_NOT_FOUND: defineError({
    code: 'delivery_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no webhook delivery matches (unknown id, or nothing for that resource and event).',
  }),
};

/** One HTTP attempt in flight. */
interface Flight {
  attemptId: string;
  receiver: string;
}

interface NewDelivery {
  accountId: string;
  event: string;
  resourceId: string;
  target: Target;
  fields: [string, string][];
  duplicateOf: string | null;
  test: boolean;
  maxAttempts: number;
  createdAt: string;
}

function attemptId(deliveryId: string, attempt: number): string {
  return `${deliveryId}_${attempt}`;
}

function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** What the engine uses: the kernel's clock, events and I/O barrier, the receivers' settings
 * (through its targets), the accounts for their signing keys, the URL policy and the seed. */
export interface EnginePorts extends Pick<Kernel, 'clock' | 'events' | 'io'>, TargetsPorts {
  accounts: Pick<AccountsModel, 'list'>;
  receiverPolicy: ReceiverPolicy;
  /** The current seed (signing keys derive from it); read at each use, a reset changes it. */
  readonly seed: number;
}

export class WebhookEngine implements PendingIo {
  readonly targets: DeliveryTargets;
  readonly signingKeys: SigningKeys;
  private readonly client: ReceiverClient;

  private deliveries = new Table<DeliveryRow>(); // maps a delivery id to its event, receiver and progress
  private attempts = new Table<AttemptRow>(); // maps an attempt id to the request sent and its outcome (the journal)
  private nextDelivery = 1; // the next delivery id's number
  private nextQueued = 1; // the next receiver-queue position

  // Derived from the state above or about live I/O; never in a snapshot.
  private queues = new Map<string, string[]>(); // maps a receiver (URL origin) to its queued and sending delivery ids, in order
  private flights = new Set<Flight>(); // every HTTP attempt in flight, including those of a state since replaced
  private busyReceivers = new Map<string, number>(); // maps a receiver to its attempts in flight
  private owned = new Map<string, Flight>(); // maps an attempt id of the current state to its flight
  private pumpScheduled = false;
  private idleWaiters: (() => void)[] = [];
  private finishWaiters = new Map<string, ((row: DeliveryRow | undefined) => void)[]>();

  constructor(private readonly rt: EnginePorts) {
    this.targets = new DeliveryTargets(rt);
    this.signingKeys = new SigningKeys(() => rt.seed);
    this.client = new ReceiverClient(rt.receiverPolicy);
    rt.clock.on(RETRY_JOB, (p: { deliveryId: string }) => this.retryDue(p.deliveryId));
    rt.events.subscribe((e) => void this.deliver(e));
    rt.io.register(this);
  }

  /** Receiver timeout (wall-clock milliseconds per attempt). */
  configure(options: { timeoutMs?: number }): void {
    if (options.timeoutMs !== undefined) this.client.useTimeout(options.timeoutMs);
  }

  get timeoutMs(): number {
    return this.client.timeout;
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  // --- producing deliveries ---

  /** Queues the event for each receiver (by default, whoever subscribes or is routed to it). */
  deliver(event: DomainEvent, targets: Target[] = this.targets.resolve(event)): DeliveryRow[] {
    const fields = toFormFields(event.payload);
    return targets.map((target) =>
      this.enqueue(
        this.insertDelivery({
          accountId: event.accountId,
          event: event.type,
          resourceId: event.resourceId,
          target,
          fields,
          duplicateOf: null,
          test: false,
          maxAttempts: MAX_ATTEMPTS,
          createdAt: iso(event.at),
        }),
      ),
    );
  }

  /** Emits the event on the domain bus and returns the deliveries it caused. */
  emit(event: DomainEvent): DeliveryRow[] {
    const first = this.nextDelivery;
    this.rt.events.emit(event);
    const out: DeliveryRow[] = [];
    for (let n = first; n < this.nextDelivery; n++) {
      const row = this.deliveries.get(deliveryId(n));
      if (row) out.push(row);
    }
    return out;
  }

  /** testWebhook: one attempt of a test event, also to an inactive webhook; resolves when done. */
  sendTest(webhook: WebhookRow): Promise<DeliveryRow | undefined> {
    const now = this.rt.clock.nowIso();
    const row = this.enqueue(
      this.insertDelivery({
        accountId: webhook.accountId,
        event: TEST_EVENT,
        resourceId: webhook.id,
        target: { kind: 'webhook', webhookId: webhook.id },
        fields: [
          ['Event', TEST_EVENT],
          ['WebhookId', webhook.id],
          ['AccountId', webhook.accountId],
          ['Timestamp', now],
        ],
        duplicateOf: null,
        test: true,
        maxAttempts: 1,
        createdAt: now,
      }),
    );
    return this.finished(row.id);
  }

  /** Sends a delivery's event to its receiver once more, as a new delivery (at-least-once). */
  duplicate(originalId: string): DeliveryRow {
    const o = this.deliveries.get(originalId);
    if (!o) throw deliveryErrors.DELIVERY_NOT_FOUND(`no delivery ${originalId}`);
    return this.enqueue(
      this.insertDelivery({
        accountId: o.accountId,
        event: o.event,
        resourceId: o.resourceId,
        target: o.target,
        fields: o.fields,
        duplicateOf: o.duplicateOf ?? o.id,
        test: o.test,
        maxAttempts: o.maxAttempts,
        createdAt: this.rt.clock.nowIso(),
      }),
    );
  }

  /** The newest delivery matching the filter, for "duplicate the last callflow.ended of CA1". */
  latest(filter: JournalFilter): DeliveryRow | undefined {
    const rows = this.listDeliveries(filter);
    return rows[rows.length - 1];
  }

  /** Resolves with the delivery once it is delivered or failed (undefined if the state is replaced without it). */
  finished(id: string): Promise<DeliveryRow | undefined> {
    const row = this.deliveries.get(id);
    if (!row || row.phase === 'done') return Promise.resolve(row);
    return new Promise((resolve) => {
      const list = this.finishWaiters.get(id) ?? [];
      list.push(resolve);
      this.finishWaiters.set(id, list);
    });
  }

  // --- the queue and the attempts ---

  private insertDelivery(d: NewDelivery): DeliveryRow {
    return this.deliveries.insert({
      id: deliveryId(this.nextDelivery++),
      ...d,
      status: 'pending',
      phase: 'queued',
      attempts: 0,
      queuedSeq: null,
      nextAttemptAt: null,
      finishedAt: null,
      reason: null,
    });
  }

  private receiverKey(row: DeliveryRow): string {
    const r = this.targets.receiver(row.target, row.accountId, { test: row.test });
    if ('gone' in r) return '';
    return new URL(r.url).origin;
  }

  private enqueue(row: DeliveryRow): DeliveryRow {
    const next = this.deliveries.replace({ ...row, phase: 'queued', queuedSeq: this.nextQueued++, nextAttemptAt: null });
    this.queueOf(this.receiverKey(next)).push(next.id);
    this.schedulePump();
    return next;
  }

  private queueOf(key: string): string[] {
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = []));
    return q;
  }

  private retryDue(id: string): void {
    const row = this.deliveries.get(id);
    if (row && row.phase === 'waiting') this.enqueue(row);
  }

  /** Runs after the current request or job, so attempts start once the producer is done. */
  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    queueMicrotask(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  /** Starts the head of every idle receiver's queue. */
  private pump(): void {
    for (const [key, ids] of this.queues) {
      while (ids.length > 0 && !this.busyReceivers.has(key)) {
        const row = this.deliveries.get(ids[0]!);
        if (row && row.phase === 'queued' && this.start(row, key)) break;
        ids.shift(); // finished, dropped or no longer queued
      }
      if (ids.length === 0) this.queues.delete(key);
    }
    this.notifyIdle();
  }

  /** Starts the next attempt; false when the delivery ended without one going out. */
  private start(row: DeliveryRow, key: string): boolean {
    const receiver = this.targets.receiver(row.target, row.accountId, { test: row.test });
    if ('gone' in receiver) {
      this.finish(row, 'failed', `dropped: ${receiver.gone}`);
      return false;
    }
    const n = row.attempts + 1;
    const request = buildRequest({ ...receiver, fields: row.fields, signingKey: this.signingKeys.get(row.accountId) });
    const sending = this.deliveries.replace({ ...row, phase: 'sending', attempts: n, nextAttemptAt: null });
    this.record(sending, n, request);
    const id = attemptId(row.id, n);
    const blocked = this.rt.receiverPolicy.internalReason(new URL(request.url).hostname);
    if (blocked) {
      this.applyOutcome(id, { responseStatus: null, responseBody: null, responseBodyTruncated: false, latencyMs: 0, error: `address not allowed in strict mode: ${blocked}`, permanent: true });
      return false;
    }
    const flight: Flight = { attemptId: id, receiver: key };
    this.flights.add(flight);
    this.owned.set(id, flight);
    this.busyReceivers.set(key, (this.busyReceivers.get(key) ?? 0) + 1);
    void this.client.send(request).then((outcome) => this.land(flight, outcome));
    return true;
  }

  private record(d: DeliveryRow, n: number, req: OutgoingRequest): void {
    const id = attemptId(d.id, n);
    if (this.attempts.has(id)) this.attempts.delete(id); // an attempt sent again after a restore
    this.attempts.insert({
      id,
      deliveryId: d.id,
      accountId: d.accountId,
      event: d.event,
      resourceId: d.resourceId,
      webhookId: d.target.kind === 'webhook' ? d.target.webhookId : null,
      number: d.target.kind === 'number' ? d.target.number : null,
      duplicateOf: d.duplicateOf,
      attempt: n,
      maxAttempts: d.maxAttempts,
      method: req.method,
      url: req.url,
      requestHeaders: req.headers,
      requestBody: req.body,
      requestFields: Object.fromEntries(d.fields),
      status: 'pending',
      responseStatus: null,
      responseBody: null,
      responseBodyTruncated: false,
      latencyMs: null,
      error: null,
      createdAt: this.rt.clock.nowIso(),
      completedAt: null,
    });
    this.trim();
  }

  /** An attempt's answer arrived (wall time). */
  private land(flight: Flight, outcome: AttemptOutcome): void {
    this.flights.delete(flight);
    const left = (this.busyReceivers.get(flight.receiver) ?? 1) - 1;
    if (left > 0) this.busyReceivers.set(flight.receiver, left);
    else this.busyReceivers.delete(flight.receiver);
    // An attempt of a state since reset or replaced changes nothing.
    if (this.owned.get(flight.attemptId) === flight) {
      this.owned.delete(flight.attemptId);
      this.applyOutcome(flight.attemptId, outcome);
    }
    this.schedulePump();
    this.notifyIdle();
  }

  private applyOutcome(id: string, outcome: AttemptOutcome): void {
    const cut = id.lastIndexOf('_');
    const row = this.deliveries.get(id.slice(0, cut));
    const n = Number(id.slice(cut + 1));
    if (!row || row.phase !== 'sending' || row.attempts !== n) return;
    const delivered = isSuccess(outcome.responseStatus);
    const attempt = this.attempts.get(id);
    if (attempt) {
      this.attempts.replace({
        ...attempt,
        status: delivered ? 'delivered' : 'failed',
        responseStatus: outcome.responseStatus,
        responseBody: outcome.responseBody,
        responseBodyTruncated: outcome.responseBodyTruncated,
        latencyMs: outcome.latencyMs,
        error: outcome.error,
        completedAt: this.rt.clock.nowIso(),
      });
    }
    if (delivered) return this.finish(row, 'delivered', null);
    if (outcome.permanent) return this.finish(row, 'failed', outcome.error);
    if (n >= row.maxAttempts) return this.finish(row, 'failed', row.maxAttempts === 1 ? outcome.error : `gave up after ${n} attempts: ${outcome.error}`);
    const due = this.rt.clock.now() + RETRY_DELAYS_MS[n - 1]!;
    this.rt.clock.schedule(RETRY_JOB, due, { deliveryId: row.id });
    this.deliveries.replace({ ...row, phase: 'waiting', queuedSeq: null, nextAttemptAt: iso(due), reason: outcome.error });
  }

  private finish(row: DeliveryRow, status: 'delivered' | 'failed', reason: string | null): void {
    const done = this.deliveries.replace({ ...row, status, phase: 'done', queuedSeq: null, nextAttemptAt: null, finishedAt: this.rt.clock.nowIso(), reason });
    const waiters = this.finishWaiters.get(row.id);
    this.finishWaiters.delete(row.id);
    for (const w of waiters ?? []) w(done);
    this.trim();
  }

  // --- PendingIo: the clock waits for this ---

  get busy(): boolean {
    return this.flights.size > 0 || this.queues.size > 0;
  }

  whenIdle(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private notifyIdle(): void {
    if (this.busy) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  // --- the journal ---

  /** Attempts matching the filter, in the order they started (virtual time, then delivery). */
  journal(filter: JournalFilter = {}): AttemptRow[] {
    return filterAttempts(this.attempts.all(), filter);
  }

  /** Deliveries matching the filter, in creation order. */
  listDeliveries(filter: JournalFilter = {}): DeliveryRow[] {
    return filterDeliveries(this.deliveries.all(), filter);
  }

  /** Forgets finished attempts and deliveries; deliveries under way continue and stay. */
  clearJournal(): void {
    this.deliveries = new Table(this.deliveries.all().filter((d) => d.phase !== 'done'));
    this.attempts = new Table(this.attempts.all().filter((a) => a.status === 'pending'));
  }

  /** Keeps the journal within JOURNAL_LIMIT (journal.ts). */
  private trim(): void {
    const attempts = withinLimit(this.attempts.all(), (a) => a.status !== 'pending');
    if (attempts) this.attempts = new Table(attempts);
    const deliveries = withinLimit(this.deliveries.all(), (d) => d.phase === 'done');
    if (deliveries) this.deliveries = new Table(deliveries);
  }

  // --- state ---

  clear(): void {
    this.deliveries = new Table();
    this.attempts = new Table();
    this.nextDelivery = 1;
    this.nextQueued = 1;
    this.signingKeys.clear();
    this.replaceLiveState();
  }

  snapshot(): EngineState {
    return {
      nextDelivery: this.nextDelivery,
      nextQueued: this.nextQueued,
      deliveries: [...this.deliveries.all()],
      attempts: [...this.attempts.all()],
      signingKeys: this.signingKeys.snapshot(this.rt.accounts.list().map((a) => a.id)),
    };
  }

  restore(state: unknown): void {
    validate(EngineStateSchema, state, 'snapshot webhookDeliveries', 'webhookDeliveries');
    const s = state as EngineState;
    // An attempt in flight in the snapshot: if this engine is still sending it (a rollback to a
    // moment ago) its answer will apply; otherwise nobody will answer, so it goes out again.
    const resend = new Set<string>();
    const deliveries = s.deliveries.map((d) => {
      if (d.phase !== 'sending' || this.owned.has(attemptId(d.id, d.attempts))) return d;
      resend.add(attemptId(d.id, d.attempts));
      return { ...d, phase: 'queued' as const, attempts: d.attempts - 1 };
    });
    this.deliveries = new Table(deliveries);
    this.attempts = new Table(s.attempts.filter((a) => !resend.has(a.id)));
    this.nextDelivery = s.nextDelivery;
    this.nextQueued = s.nextQueued;
    this.signingKeys.restore(s.signingKeys);
    this.replaceLiveState();
  }

  /** After the state was replaced: rebuild the queues, keep only flights the new state owns. */
  private replaceLiveState(): void {
    const owned = new Map<string, Flight>();
    for (const d of this.deliveries.all()) {
      const id = attemptId(d.id, d.attempts);
      const f = this.owned.get(id);
      if (d.phase === 'sending' && f) owned.set(id, f);
    }
    this.owned = owned;
    this.queues = new Map();
    const waiting = this.deliveries
      .all()
      .filter((d) => d.phase === 'queued' || d.phase === 'sending')
      .sort((a, b) => (a.queuedSeq ?? 0) - (b.queuedSeq ?? 0));
    for (const d of waiting) this.queueOf(this.receiverKey(d)).push(d.id);
    for (const [id, waiters] of [...this.finishWaiters]) {
      const row = this.deliveries.get(id);
      if (row && row.phase !== 'done') continue;
      this.finishWaiters.delete(id);
      for (const w of waiters) w(row);
    }
    this.schedulePump();
  }
}

function deliveryId(n: number): string {
  return `whd_${String(n).padStart(8, '0')}`;
}
