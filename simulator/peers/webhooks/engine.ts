// The webhook delivery engine: every domain event on its way to the receivers that want it
// (spec "Events": form-encoded, X-Signature, at-least-once, non-2xx retried). It holds the
// delivery policy and puts three parts together:
//
// - delivery-state.ts keeps the deliveries (one per event and receiver, targets.ts), the journal
//   of attempts and their counters: plain JSON, all in the snapshot;
// - dispatcher.ts sends them: one request at a time per receiver (a URL origin), in queue
//   order, attempts in flight, picked up again when the state is replaced. The HTTP attempt is
//   real I/O (receiver-client.ts); the dispatcher reports itself busy while anything is queued
//   or in flight (core/io.ts) and the clock advance waits for it, so on a manual clock retries
//   and their order are deterministic;
// - signing-keys.ts: each account's signing key (in the snapshot too).
//
// A failed attempt (non-2xx, connection error, timeout) schedules a retry as a virtual-clock job
// RETRY_DELAYS_MS later; after MAX_ATTEMPTS the delivery has failed for good. An attempt in
// flight when a snapshot was taken is sent again on restore. Its intake is the runtime's whole
// event feed (ports.ts): it names no event and imports no family.
import { defineError } from '../../core/errors.ts';
import { iso } from '../../core/clock.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { PendingIo } from '../../core/io.ts';
import { buildRequest, toFormFields, type OutgoingRequest } from './request.ts';
import { ReceiverClient, type AttemptOutcome } from './receiver-client.ts';
import { DeliveryTargets } from './targets.ts';
import { SigningKeys } from './signing-keys.ts';
import { DeliveryState, attemptId, parseAttemptId, type NewDelivery } from './delivery-state.ts';
import { Dispatcher, type DispatchOwner } from './dispatcher.ts';
import { RETRY_JOB, type EngineModelScope } from './ports.ts';
import { TEST_EVENT, type AttemptRow, type DeliveryRow, type EngineState, type JournalFilter, type Target } from './schema.ts';

/** Wait before retry n (after failed attempt n): 10 s, 1 min, 5 min, 30 min, 2 h. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 300_000, 1_800_000, 7_200_000] as const;
/** The first attempt plus one per retry delay; then the delivery has failed for good. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;

export const deliveryErrors = {
  DELIVERY_NOT_FOUND: defineError({
    code: 'delivery_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no webhook delivery matches (unknown id, or nothing for that resource and event).',
  }),
};

function isSuccess(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

export class WebhookEngine implements PendingIo, DispatchOwner {
  readonly targets: DeliveryTargets;
  readonly signingKeys: SigningKeys;
  private readonly client: ReceiverClient;
  private readonly state = new DeliveryState();
  private readonly dispatcher: Dispatcher;
  // About callers waiting, never in a snapshot: maps a delivery id to who waits for its end.
  private finishWaiters = new Map<string, ((row: DeliveryRow | undefined) => void)[]>();

  constructor(private readonly rt: EngineModelScope) {
    this.targets = new DeliveryTargets(rt.numbers);
    this.signingKeys = new SigningKeys(() => rt.seed);
    this.client = new ReceiverClient(rt.receiverPolicy);
    // Each attempt's outcome enters through the I/O barrier (recorded with durable state); an
    // attempt cut by a restart is sent again (at-least-once, spec "Events").
    this.dispatcher = new Dispatcher(this, { send: (request) => rt.io.outcome('webhook.attempt', () => this.client.send(request)) });
    rt.jobs.on(RETRY_JOB, (p) => this.retryDue(p.deliveryId));
    rt.eventFeed.subscribe((e) => void this.deliver(e));
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
    if (targets.length === 0) return []; // most events reach nobody: no fields made (a call batch ends a call every few ms)
    const fields = toFormFields(event.payload);
    return targets.map((target) =>
      this.enqueue(
        this.state.insert({
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

  /** Emits the event on the whole feed (as if its owner had) and returns the deliveries it caused. */
  emit(event: DomainEvent): DeliveryRow[] {
    const mark = this.state.mark();
    this.rt.eventFeed.emit(event);
    return this.state.since(mark);
  }

  /** testWebhook: one attempt of a test event, also to an inactive webhook; resolves when done. */
  sendTest(webhook: { id: string; accountId: string }): Promise<DeliveryRow | undefined> {
    const now = this.rt.clock.nowIso();
    const row = this.enqueue(
      this.state.insert({
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
    const o = this.state.get(originalId);
    if (!o) throw deliveryErrors.DELIVERY_NOT_FOUND(`no delivery ${originalId}`);
    const copy: NewDelivery = {
      accountId: o.accountId,
      event: o.event,
      resourceId: o.resourceId,
      target: o.target,
      fields: o.fields,
      duplicateOf: o.duplicateOf ?? o.id,
      test: o.test,
      maxAttempts: o.maxAttempts,
      createdAt: this.rt.clock.nowIso(),
    };
    return this.enqueue(this.state.insert(copy));
  }

  /** The newest delivery matching the filter, for "duplicate the last callflow.ended of CA1". */
  latest(filter: JournalFilter): DeliveryRow | undefined {
    const rows = this.listDeliveries(filter);
    return rows[rows.length - 1];
  }

  /** Resolves with the delivery once it is delivered or failed (undefined if the state is replaced without it). */
  finished(id: string): Promise<DeliveryRow | undefined> {
    const row = this.state.get(id);
    if (!row || row.phase === 'done') return Promise.resolve(row);
    return new Promise((resolve) => {
      const list = this.finishWaiters.get(id) ?? [];
      list.push(resolve);
      this.finishWaiters.set(id, list);
    });
  }

  // --- the queue and the attempts ---

  private receiverKey(row: DeliveryRow): string {
    const r = this.targets.receiver(row.target, row.accountId, { test: row.test });
    if ('gone' in r) return '';
    return new URL(r.url).origin;
  }

  private enqueue(row: DeliveryRow): DeliveryRow {
    const next = this.state.queue(row);
    this.dispatcher.enqueue({ receiver: this.receiverKey(next), id: next.id });
    return next;
  }

  private retryDue(id: string): void {
    const row = this.state.get(id);
    if (row && row.phase === 'waiting') this.enqueue(row);
  }

  /** DispatchOwner: starts the delivery's next attempt; null when it ended without one going out. */
  start(id: string): { attemptId: string; request: OutgoingRequest } | null {
    const row = this.state.get(id);
    if (!row || row.phase !== 'queued') return null;
    const receiver = this.targets.receiver(row.target, row.accountId, { test: row.test });
    if ('gone' in receiver) {
      this.finish(row, 'failed', `dropped: ${receiver.gone}`);
      return null;
    }
    const n = row.attempts + 1;
    const request = buildRequest({ ...receiver, fields: row.fields, signingKey: this.signingKeys.get(row.accountId) });
    const sending = this.state.replace({ ...row, phase: 'sending', attempts: n, nextAttemptAt: null });
    this.state.recordAttempt(sending, n, request, this.rt.clock.nowIso());
    const attempt = attemptId(row.id, n);
    const blocked = this.rt.receiverPolicy.internalReason(new URL(request.url).hostname);
    if (blocked) {
      this.land(attempt, { responseStatus: null, responseBody: null, responseBodyTruncated: false, latencyMs: 0, error: `address not allowed in strict mode: ${blocked}`, permanent: true });
      return null;
    }
    return { attemptId: attempt, request };
  }

  /** DispatchOwner: an attempt's outcome; delivered, failed for good, or a retry on the virtual clock. */
  land(id: string, outcome: AttemptOutcome): void {
    const { deliveryId, attempt: n } = parseAttemptId(id);
    const row = this.state.get(deliveryId);
    if (!row || row.phase !== 'sending' || row.attempts !== n) return;
    const delivered = isSuccess(outcome.responseStatus);
    this.state.completeAttempt(id, delivered, outcome, this.rt.clock.nowIso());
    if (delivered) return this.finish(row, 'delivered', null);
    if (outcome.permanent) return this.finish(row, 'failed', outcome.error);
    if (n >= row.maxAttempts) return this.finish(row, 'failed', row.maxAttempts === 1 ? outcome.error : `gave up after ${n} attempts: ${outcome.error}`);
    const due = this.rt.clock.now() + RETRY_DELAYS_MS[n - 1]!;
    this.rt.jobs.schedule(RETRY_JOB, due, { deliveryId: row.id });
    this.state.replace({ ...row, phase: 'waiting', queuedSeq: null, nextAttemptAt: iso(due), reason: outcome.error });
  }

  private finish(row: DeliveryRow, status: 'delivered' | 'failed', reason: string | null): void {
    const done = this.state.finish(row, status, reason, this.rt.clock.nowIso());
    const waiters = this.finishWaiters.get(row.id);
    this.finishWaiters.delete(row.id);
    for (const w of waiters ?? []) w(done);
  }

  // --- PendingIo: the clock waits for the dispatcher ---

  get busy(): boolean {
    return this.dispatcher.busy;
  }

  whenIdle(): Promise<void> {
    return this.dispatcher.whenIdle();
  }

  // --- the journal ---

  /** Attempts matching the filter, in the order they started (virtual time, then delivery). */
  journal(filter: JournalFilter = {}): AttemptRow[] {
    return this.state.journal(filter);
  }

  /** Deliveries matching the filter, in creation order. */
  listDeliveries(filter: JournalFilter = {}): DeliveryRow[] {
    return this.state.listDeliveries(filter);
  }

  /** Forgets finished attempts and deliveries; deliveries under way continue and stay. */
  clearJournal(): void {
    this.state.clearJournal();
  }

  // --- state ---

  clear(): void {
    this.state.clear();
    this.signingKeys.clear();
    this.replaceLiveState();
  }

  snapshot(): EngineState {
    return { ...this.state.snapshot(), signingKeys: this.signingKeys.snapshot(this.rt.accounts.list().map((a) => a.id)) };
  }

  /** A part the runtime already validated (the descriptor's state part). */
  restore(s: EngineState): void {
    // An attempt this engine is still sending keeps its place; any other in flight goes out again.
    this.state.restore(s, (id) => this.dispatcher.inFlight(id));
    this.signingKeys.restore(s.signingKeys);
    this.replaceLiveState();
  }

  /** After the state was replaced: the dispatcher's queues and flights, then waiting callers. */
  private replaceLiveState(): void {
    this.dispatcher.replace(
      this.state.inQueueOrder().map((d) => ({ receiver: this.receiverKey(d), id: d.id })),
      this.state.sendingAttempts(),
    );
    for (const [id, waiters] of [...this.finishWaiters]) {
      const row = this.state.get(id);
      if (row && row.phase !== 'done') continue;
      this.finishWaiters.delete(id);
      for (const w of waiters) w(row);
    }
  }
}
