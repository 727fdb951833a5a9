// The delivery engine's state: deliveries (one event on its way to one receiver), the journal of
// their attempts, and the counters that number them. Plain JSON rows, all in the snapshot; no
// I/O and no policy (when to retry, whom to send to): the engine decides, this only keeps.
import { Table } from '../../core/store.ts';
import type { OutgoingRequest } from './request.ts';
import type { AttemptOutcome } from './receiver-client.ts';
import { filterAttempts, filterDeliveries, withinLimit } from './journal.ts';
import type { AttemptRow, DeliveryRow, EngineState, JournalFilter, Target } from './schema.ts';

/** What a new delivery says; the state adds its id and progress. */
export interface NewDelivery {
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

/** Attempt n of a delivery: `<deliveryId>_<n>`. */
export function attemptId(deliveryId: string, attempt: number): string {
  return `${deliveryId}_${attempt}`;
}

/** The delivery id and attempt number of an attempt id. */
export function parseAttemptId(id: string): { deliveryId: string; attempt: number } {
  const cut = id.lastIndexOf('_');
  return { deliveryId: id.slice(0, cut), attempt: Number(id.slice(cut + 1)) };
}

function deliveryId(n: number): string {
  return `whd_${String(n).padStart(8, '0')}`;
}

/** The engine's snapshot without the signing keys (which the engine adds). */
export type DeliveryStateSnapshot = Omit<EngineState, 'signingKeys'>;

export class DeliveryState {
  private deliveries = new Table<DeliveryRow>(); // maps a delivery id to its event, receiver and progress
  private attempts = new Table<AttemptRow>(); // maps an attempt id to the request sent and its outcome (the journal)
  private nextDelivery = 1; // the next delivery id's number
  private nextQueued = 1; // the next receiver-queue position

  get(id: string): DeliveryRow | undefined {
    return this.deliveries.get(id);
  }

  replace(row: DeliveryRow): DeliveryRow {
    return this.deliveries.replace(row);
  }

  /** Every delivery, in creation order. */
  all(): readonly DeliveryRow[] {
    return this.deliveries.all();
  }

  /** A mark to read the deliveries made after it with `since`. */
  mark(): number {
    return this.nextDelivery;
  }

  /** Deliveries made after `mark` (still in the journal), in creation order. */
  since(mark: number): DeliveryRow[] {
    const out: DeliveryRow[] = [];
    for (let n = mark; n < this.nextDelivery; n++) {
      const row = this.deliveries.get(deliveryId(n));
      if (row) out.push(row);
    }
    return out;
  }

  insert(d: NewDelivery): DeliveryRow {
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

  /** The delivery waits for its receiver, behind everything queued before it. */
  queue(row: DeliveryRow): DeliveryRow {
    return this.deliveries.replace({ ...row, phase: 'queued', queuedSeq: this.nextQueued++, nextAttemptAt: null });
  }

  /** Attempt n of the delivery goes out now (`at`, virtual) with this request. */
  recordAttempt(d: DeliveryRow, n: number, req: OutgoingRequest, at: string): void {
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
      createdAt: at,
      completedAt: null,
    });
    this.trim();
  }

  /** The attempt's answer (or failure) came at `at` (virtual). */
  completeAttempt(id: string, delivered: boolean, outcome: AttemptOutcome, at: string): void {
    const attempt = this.attempts.get(id);
    if (!attempt) return;
    this.attempts.replace({
      ...attempt,
      status: delivered ? 'delivered' : 'failed',
      responseStatus: outcome.responseStatus,
      responseBody: outcome.responseBody,
      responseBodyTruncated: outcome.responseBodyTruncated,
      latencyMs: outcome.latencyMs,
      error: outcome.error,
      completedAt: at,
    });
  }

  /** The delivery has ended at `at` (virtual); returns its final row. */
  finish(row: DeliveryRow, status: 'delivered' | 'failed', reason: string | null, at: string): DeliveryRow {
    const done = this.deliveries.replace({ ...row, status, phase: 'done', queuedSeq: null, nextAttemptAt: null, finishedAt: at, reason });
    this.trim();
    return done;
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

  // --- snapshot ---

  clear(): void {
    this.deliveries = new Table();
    this.attempts = new Table();
    this.nextDelivery = 1;
    this.nextQueued = 1;
  }

  snapshot(): DeliveryStateSnapshot {
    return {
      nextDelivery: this.nextDelivery,
      nextQueued: this.nextQueued,
      deliveries: [...this.deliveries.all()],
      attempts: [...this.attempts.all()],
    };
  }

  /**
   * Takes a validated snapshot. An attempt in flight in it that `stillSending` does not know
   * (nobody will answer it here) is forgotten and its delivery queued again, so it goes out
   * again; one still being sent (a rollback to a moment ago) keeps its place and its answer applies.
   */
  restore(s: DeliveryStateSnapshot, stillSending: (attemptId: string) => boolean): void {
    const resend = new Set<string>();
    const deliveries = s.deliveries.map((d) => {
      if (d.phase !== 'sending' || stillSending(attemptId(d.id, d.attempts))) return d;
      resend.add(attemptId(d.id, d.attempts));
      return { ...d, phase: 'queued' as const, attempts: d.attempts - 1 };
    });
    this.deliveries = new Table(deliveries);
    this.attempts = new Table(s.attempts.filter((a) => !resend.has(a.id)));
    this.nextDelivery = s.nextDelivery;
    this.nextQueued = s.nextQueued;
  }

  /** Attempt ids of the deliveries being sent now. */
  sendingAttempts(): Set<string> {
    return new Set(this.deliveries.all().filter((d) => d.phase === 'sending').map((d) => attemptId(d.id, d.attempts)));
  }

  /** Deliveries queued or being sent, in queue order (to rebuild the receivers' queues). */
  inQueueOrder(): DeliveryRow[] {
    return this.deliveries
      .all()
      .filter((d) => d.phase === 'queued' || d.phase === 'sending')
      .sort((a, b) => (a.queuedSeq ?? 0) - (b.queuedSeq ?? 0));
  }
}
