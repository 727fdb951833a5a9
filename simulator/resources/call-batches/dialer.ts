// Dialing batches on the virtual clock. One job kind, a per-batch tick, runs `pump`: it moves
// the batch between its timed states (scheduled -> running at StartAt, expired at EndAt), sends
// texts whose time has come, and dials due tasks while the batch is under its concurrency
// limit and its pace, each round in its windows and the legal hours. Calls are placed through
// the calls model (the carrier decides them, the flow runs, callflow.ended is sent there); the
// calls model tells every ended call, and the task takes its outcome: the next round when the
// outcome is one the round waits for, else done or failed. Nothing here scans all tasks except
// cancel and expiry (once each): queues are heaps per round, counts are kept as tasks change.
import { ApiError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { IdSet } from '../../core/text-columns.ts';
import type { CallRow, CreateCallInput } from '../calls/schema.ts';
import { render } from '../calls/interpreter.ts';
import type { Live } from './live.ts';
import { legalOpen, nextLegalStart, type CallingTime } from './windows.ts';
import { TICK_JOB, type CallBatchesModelScope } from './ports.ts';
import { CALL_BATCH_IDS, ENDED_BATCH, type BatchAction, type BatchStatus, type TaskRow } from './schema.ts';

const MINUTE = 60_000;
/** A text not sent within this long of its failure is skipped (reference MessagePolicy). */
const TEXT_STALE_MS = 24 * 3_600_000;

/** What the dialer uses of the family's scope (ports.ts). */
export type DialerPorts = Pick<CallBatchesModelScope, 'clock' | 'random' | 'events' | 'jobs' | 'calls' | 'messages' | 'blockLists'>;

interface TaskRef {
  batchId: string;
  pos: number;
}

export class Dialer {
  /** maps the id of a call in progress to its task */
  private calls = new Map<string, TaskRef>();
  /** maps the id of a text not yet reported by the carrier to its task */
  private texts = new Map<string, TaskRef>();
  /** every task id handed out (ids are unique across batches), packed */
  private taskIds = new IdSet(CALL_BATCH_IDS.callBatchTask);

  constructor(
    private readonly rt: DialerPorts,
    private readonly time: CallingTime,
    private readonly live: (batchId: string) => Live | undefined,
  ) {
    rt.jobs.on(TICK_JOB, (p) => this.tick(p.batchId));
    rt.events.on('call.ended', (e) => this.callEnded(e.payload));
    rt.events.on('message.sent', (e) => this.textReported(e.resourceId, 'sent'));
    rt.events.on('message.failed', (e) => this.textReported(e.resourceId, 'failed'));
  }

  reset(): void {
    this.calls = new Map();
    this.texts = new Map();
    this.taskIds = new IdSet(CALL_BATCH_IDS.callBatchTask);
  }

  /** Rebuilds what is derived from a restored batch's tasks: queues, calls and texts in flight. */
  adopt(live: Live): void {
    const tasks = live.tasks;
    const waiting: number[] = [];
    for (let pos = 0; pos < tasks.length; pos++) {
      this.taskIds.add(tasks.id(pos));
      const status = tasks.status(pos);
      const callId = tasks.callId(pos);
      if (status === 'pending') live.queues[tasks.dialRound(pos)]!.push(tasks.nextAttemptAt(pos) ?? live.batch.dateCreated, pos);
      if (status === 'dialing' && callId !== null) {
        live.dialing++;
        this.calls.set(callId, { batchId: live.batch.id, pos });
      }
      if (tasks.messageStatus(pos) === 'pending') waiting.push(pos);
      const messageId = tasks.messageId(pos);
      if (messageId !== null && tasks.messageDeliveryStatus(pos) === 'queued') this.texts.set(messageId, { batchId: live.batch.id, pos });
    }
    waiting.sort((a, b) => tasks.messageDueAt(a)! - tasks.messageDueAt(b)! || a - b);
    live.texts.push(...waiting);
  }

  /** New recipients, pending for round 1 from StartAt (or now). */
  addTasks(live: Live, tasks: { to: string; vars: Record<string, string> }[]): void {
    const now = this.rt.clock.now();
    const due = Math.max(now, live.batch.startAt ?? now);
    for (const t of tasks) {
      const id = freshId(this.rt.random, CALL_BATCH_IDS.callBatchTask, (x) => this.taskIds.has(x));
      this.taskIds.add(id);
      const pos = live.tasks.length;
      live.add({
        id,
        seq: pos,
        to: t.to,
        vars: t.vars,
        status: 'pending',
        attempt: 0,
        dialRound: 0,
        nextAttemptAt: due,
        callId: null,
        disposition: null,
        answeredBy: null,
        result: null,
        lastError: null,
        messageKind: null,
        messageStatus: null,
        messageDeliveryStatus: null,
        messageError: null,
        messageId: null,
        messageDueAt: null,
      });
      live.queues[0]!.push(due, pos);
    }
  }

  act(live: Live, action: BatchAction): void {
    const now = this.rt.clock.now();
    if (action === 'pause') this.setStatus(live, 'paused');
    else if (action === 'resume') this.setStatus(live, live.batch.startAt !== null && live.batch.startAt > now ? 'scheduled' : 'running');
    else this.finish(live, 'canceled');
    this.wake(live, now);
  }

  /** Makes sure the batch's tick runs at `at` (or earlier). */
  wake(live: Live, at: number): void {
    const now = this.rt.clock.now();
    const when = Math.max(at, now);
    if (live.tick !== undefined && live.tick >= now && live.tick <= when) return;
    live.tick = when;
    this.rt.jobs.schedule(TICK_JOB, when, { batchId: live.batch.id });
  }

  /** When a pending task is expected to be dialed: its policy time moved into its round's window and the legal hours. */
  expectedDialAt(live: Live, t: TaskRow): number | null {
    if (t.status !== 'pending' || t.nextAttemptAt === null) return null;
    const b = live.batch;
    const from = Math.max(t.nextAttemptAt, this.rt.clock.now(), b.startAt ?? 0);
    return this.time.nextOpen(b.rounds[t.dialRound]!.windows, b.timezone, from) ?? null;
  }

  // --- the tick ---

  private tick(batchId: string): void {
    const live = this.live(batchId);
    if (!live) return;
    if (live.tick !== undefined && live.tick <= this.rt.clock.now()) live.tick = undefined;
    this.pump(live);
  }

  private pump(live: Live): void {
    const now = this.rt.clock.now();
    if (ENDED_BATCH.includes(live.batch.status)) return;
    if (live.batch.endAt !== null && now >= live.batch.endAt) return this.finish(live, 'expired');
    if (live.batch.status === 'scheduled' && (live.batch.startAt === null || now >= live.batch.startAt)) this.setStatus(live, 'running');
    const b = live.batch;
    let wake = b.endAt ?? Infinity;
    if (b.status === 'scheduled') wake = Math.min(wake, b.startAt!);
    if (b.status === 'running') {
      wake = Math.min(wake, this.releaseTexts(live, now));
      wake = Math.min(wake, this.dialDue(live, now));
      if (live.counts.pending === 0 && live.dialing === 0 && live.pendingTexts() === 0) return this.finish(live, 'completed');
    }
    if (wake !== Infinity) this.wake(live, wake);
  }

  /** Dials every task due now that the limits allow; returns when to look again (Infinity: on a call's end). */
  private dialDue(live: Live, now: number): number {
    const spacing = Math.ceil(MINUTE / live.batch.pacingPerMinute);
    while (live.dialing < live.batch.maxConcurrency) {
      const b = live.batch;
      const paceAt = live.lastDialAt === null ? now : Math.max(now, live.lastDialAt + spacing);
      let round = -1;
      let at = Infinity;
      let due = Infinity;
      for (let r = 0; r < live.queues.length; r++) {
        const d = live.queues[r]!.peekDue();
        if (d === undefined) continue;
        const open = this.time.nextOpen(b.rounds[r]!.windows, b.timezone, Math.max(d, paceAt, b.startAt ?? 0));
        if (open === undefined) continue; // windows are checked at creation, so this does not happen
        if (open < at || (open === at && d < due)) {
          round = r;
          at = open;
          due = d;
        }
      }
      if (round < 0) return Infinity;
      if (at > now) return at;
      this.dial(live, live.queues[round]!.pop()!, round, now);
    }
    return Infinity;
  }

  private dial(live: Live, pos: number, round: number, now: number): void {
    const b = live.batch;
    const tasks = live.tasks;
    const to = tasks.to(pos);
    // Opt-outs are checked at each dial (guides: campaigns pass the same check and skip the target).
    if (this.rt.blockLists.isRecipientBlocked(b.accountId, to, 'call')) {
      live.set(pos, { status: 'suppressed', nextAttemptAt: null, lastError: 'recipient_blocked' });
      return;
    }
    const input: CreateCallInput = { To: to, From: b.from };
    if (b.callFlowId !== null) {
      input.CallFlowId = b.callFlowId;
      input.Variables = tasks.vars(pos);
    }
    if (b.url !== null) input.Url = b.url;
    if (b.agentId !== null) {
      // A recipient's Variables reach the agent as its CallContext variables ({{var.name}}); no per-call instruction.
      input.AgentId = b.agentId;
      if (tasks.hasVars(pos)) input.CallContext = { Instruction: '', Variables: tasks.vars(pos) };
    }
    if (b.machineDetection !== null) input.MachineDetection = b.machineDetection;
    let call: CallRow;
    try {
      call = this.rt.calls.create(b.accountId, input);
    } catch (e) {
      // The account or the flow changed since creation (subscription, flow deleted): the task fails with the code.
      if (!(e instanceof ApiError)) throw e;
      live.set(pos, { status: 'failed', nextAttemptAt: null, lastError: e.code });
      return;
    }
    live.lastDialAt = now;
    live.dialing++;
    this.calls.set(call.id, { batchId: b.id, pos });
    live.dialed(pos, round + 1, call.id);
  }

  /** The calls model tells every ended call; a batch call moves its task on. */
  private callEnded(row: CallRow): void {
    const ref = this.calls.get(row.id);
    if (!ref) return;
    this.calls.delete(row.id);
    const live = this.live(ref.batchId);
    if (!live) return;
    live.dialing--;
    const now = this.rt.clock.now();
    const b = live.batch;
    const tasks = live.tasks;
    const pos = ref.pos;
    const dialRound = tasks.dialRound(pos);
    const machine = row.answeredBy === 'machine';
    // Reached: a person answered. A machine answer is a connected call but nobody was reached.
    const reached = row.status === 'completed' && !machine;
    const outcome = machine ? 'machine' : row.status;
    const next = b.rounds[dialRound];
    const active = !ENDED_BATCH.includes(b.status);
    if (active && !reached && next && next.on!.includes(outcome as never)) {
      const at = now + next.after! * MINUTE;
      live.ended(pos, 'pending', at, row);
      live.queues[dialRound]!.push(at, pos);
      if (tasks.attempt(pos) === 1 && b.onFirstFail !== null) this.queueText(live, pos, 'first', now);
    } else {
      live.ended(pos, reached ? 'done' : 'failed', undefined, row);
      if (!reached && b.onFinalFail !== null) {
        if (active) this.queueText(live, pos, 'final', now);
        else live.set(pos, { messageKind: 'final', messageStatus: 'skipped' });
      }
    }
    // Dial on at once (the calls model has finished with this call): no job per ended call.
    this.pump(live);
  }

  // --- texts ---

  private queueText(live: Live, pos: number, kind: 'first' | 'final', now: number): void {
    live.set(pos, { messageKind: kind, messageStatus: 'pending', messageDeliveryStatus: null, messageError: null, messageId: null, messageDueAt: now });
    live.texts.push(pos);
  }

  /** Sends waiting texts in order while the legal hours allow; returns when to look again. */
  private releaseTexts(live: Live, now: number): number {
    const tasks = live.tasks;
    while (live.textHead < live.texts.length) {
      const pos = live.texts[live.textHead]!;
      if (tasks.messageStatus(pos) === 'pending') {
        if (now - tasks.messageDueAt(pos)! >= TEXT_STALE_MS) {
          live.set(pos, { messageStatus: 'skipped' });
        } else {
          if (!legalOpen(now)) return nextLegalStart(now);
          this.send(live, pos);
        }
      }
      live.textHead++;
    }
    if (live.textHead > 0) {
      live.texts.splice(0, live.textHead);
      live.textHead = 0;
    }
    return Infinity;
  }

  private send(live: Live, pos: number): void {
    const b = live.batch;
    const tasks = live.tasks;
    const template = tasks.messageKind(pos) === 'first' ? b.onFirstFail! : b.onFinalFail!;
    try {
      const { row } = this.rt.messages.send(b.accountId, { To: tasks.to(pos), From: b.from, Body: render(template, tasks.vars(pos)) });
      live.set(pos, { messageStatus: 'queued', messageId: row.id, messageDeliveryStatus: row.status === 'failed' ? 'failed' : row.status === 'sent' ? 'sent' : 'queued' });
      if (row.status === 'queued') this.texts.set(row.id, { batchId: b.id, pos });
    } catch (e) {
      // The messaging slice's refusals (opt-out, quota, subscription...) are recorded, not thrown.
      if (!(e instanceof ApiError)) throw e;
      live.set(pos, { messageStatus: 'failed', messageError: e.code });
    }
  }

  private textReported(messageId: string, status: 'sent' | 'failed'): void {
    const ref = this.texts.get(messageId);
    if (!ref) return;
    this.texts.delete(messageId);
    const live = this.live(ref.batchId);
    if (!live || ref.pos >= live.tasks.length || live.tasks.messageId(ref.pos) !== messageId) return;
    live.set(ref.pos, { messageDeliveryStatus: status });
  }

  // --- states ---

  private setStatus(live: Live, status: BatchStatus): void {
    live.batch = { ...live.batch, status, dateUpdated: this.rt.clock.now() };
  }

  /** Completed, canceled or expired: pending recipients take the batch's end, waiting texts are skipped; calls in progress go on. */
  private finish(live: Live, status: 'completed' | 'canceled' | 'expired'): void {
    if (status !== 'completed') {
      for (const q of live.queues) q.clear();
      const tasks = live.tasks;
      for (let pos = 0; pos < tasks.length; pos++) {
        if (tasks.status(pos) === 'pending') live.set(pos, { status, nextAttemptAt: null });
        if (tasks.messageStatus(pos) === 'pending') live.set(pos, { messageStatus: 'skipped' });
      }
      live.texts.length = 0;
      live.textHead = 0;
    }
    this.setStatus(live, status);
  }
}
