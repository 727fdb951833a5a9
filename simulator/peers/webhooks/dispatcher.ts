// Asynchronous delivery to receivers the user runs: per-receiver queues, the HTTP attempts in
// flight, and picking both up again when the state is replaced (reset, restore). It knows items
// only by id; its owner keeps their state (in the snapshot) and decides what each attempt sends
// and what its answer means. The webhook engine is one owner; anything else that must call out
// over HTTP in a deterministic order (a call's status callbacks, a flow's `http` block, MCP
// test calls) can be another: see docs/contributing.md "Asynchronous delivery".
//
// - Each receiver (the caller's key, e.g. a URL origin) gets one request at a time, in queue
//   order, so the order a receiver sees depends only on the order items were queued.
// - Attempts start after the current request or clock job (a microtask), once the producer is done.
// - It is a PendingIo (core/io.ts): busy while anything is queued or in flight, so the clock
//   advance waits for it and timed steps after an answer stay deterministic.
// - After the owner's state is replaced, `replace` rebuilds the queues; an answer to an attempt
//   the new state does not own changes nothing.
import type { PendingIo } from '../../core/io.ts';
import type { OutgoingRequest } from './request.ts';
import type { AttemptOutcome } from './receiver-client.ts';

/** What the dispatcher asks of the owner of the items it queues. */
export interface DispatchOwner {
  /**
   * Starts the next attempt of item `id` at the head of its receiver's queue: the attempt's id
   * and the request to send, or null when nothing goes out (the item is no longer queued, was
   * dropped, or ended at once); the dispatcher then moves on to the receiver's next item.
   */
  start(id: string): { attemptId: string; request: OutgoingRequest } | null;
  /** The answer to an attempt the current state owns arrived (wall time); the item leaves the head of its queue. */
  land(attemptId: string, outcome: AttemptOutcome): void;
}

/** Sends one request (receiver-client.ts); never rejects, failures are outcomes. */
export interface Sender {
  send(request: OutgoingRequest): Promise<AttemptOutcome>;
}

/** An item waiting for its receiver. */
export interface Queued {
  receiver: string;
  id: string;
}

/** One HTTP attempt in flight. */
interface Flight {
  attemptId: string;
  receiver: string;
}

export class Dispatcher implements PendingIo {
  private queues = new Map<string, string[]>(); // maps a receiver to its queued and sending item ids, in order
  private readonly flights = new Set<Flight>(); // every attempt in flight, including those of a state since replaced
  private readonly busyReceivers = new Map<string, number>(); // maps a receiver to its attempts in flight
  private owned = new Map<string, Flight>(); // maps an attempt id of the current state to its flight
  private pumpScheduled = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly owner: DispatchOwner,
    private readonly sender: Sender,
  ) {}

  /** Puts the item at the end of its receiver's queue. */
  enqueue({ receiver, id }: Queued): void {
    this.queueOf(receiver).push(id);
    this.schedulePump();
  }

  /** Whether the attempt is in flight for the current state (its answer will apply). */
  inFlight(attemptId: string): boolean {
    return this.owned.has(attemptId);
  }

  /**
   * The owner's state was replaced: `queued` are its items waiting or being sent, in queue
   * order; `sending` the attempt ids it has in flight. Flights of other attempts are disowned.
   */
  replace(queued: readonly Queued[], sending: ReadonlySet<string>): void {
    const owned = new Map<string, Flight>();
    for (const [id, f] of this.owned) if (sending.has(id)) owned.set(id, f);
    this.owned = owned;
    this.queues = new Map();
    for (const q of queued) this.queueOf(q.receiver).push(q.id);
    this.schedulePump();
  }

  private queueOf(key: string): string[] {
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = []));
    return q;
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
        const started = this.owner.start(ids[0]!);
        if (started) {
          this.send(key, started.attemptId, started.request);
          break;
        }
        ids.shift(); // finished, dropped or no longer queued
      }
      if (ids.length === 0) this.queues.delete(key);
    }
    this.notifyIdle();
  }

  private send(receiver: string, attemptId: string, request: OutgoingRequest): void {
    const flight: Flight = { attemptId, receiver };
    this.flights.add(flight);
    this.owned.set(attemptId, flight);
    this.busyReceivers.set(receiver, (this.busyReceivers.get(receiver) ?? 0) + 1);
    void this.sender.send(request).then((outcome) => this.land(flight, outcome));
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
      this.owner.land(flight.attemptId, outcome);
    }
    this.schedulePump();
    this.notifyIdle();
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
}
