// Call batches (spec "Call batch", "Call batch get"; reference createCallBatch and friends):
// a list of recipients called in rounds through the calls model, within windows, the legal
// calling hours, a concurrency limit and a pace, with texts to those not reached. This file
// holds the API: checks, the batch's states and actions, the task lists. The dialing on the
// virtual clock is dialer.ts; each batch's live state (queues, counts) is live.ts.
import { ApiError, defineError } from '../../core/errors.ts';
import { freshId } from '../../core/ids.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import { normalizePhone } from '../../core/phone.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import { callErrors } from '../calls/errors.ts';
import { startVariables } from '../calls/variables.ts';
import { variableNames } from '../calls/interpreter.ts';
import { SMS_MAX_BYTES, eucKrBytes } from '../messages/content.ts';
import { CallingTime, ZoneOffsets, clockText, knownTimeZone, parseClock } from './windows.ts';
import { Live } from './live.ts';
import { Dialer } from './dialer.ts';
import { BatchSeriesBook } from './series.ts';
import type { CallBatchesModelScope } from './ports.ts';
import {
  BATCH_ACTIONS,
  CALL_BATCH_IDS,
  DEFAULT_MAX_CONCURRENCY,
  DEFAULT_PACING_PER_MINUTE,
  DEFAULT_TIMEZONE,
  ENDED_BATCH,
  ROUND_OUTCOMES,
  type BatchAction,
  type BatchRow,
  type CallBatchesState,
  type CreateCallBatchInput,
  type RoundOutcome,
  type RoundRow,
  type TaskInput,
  type TaskRow,
  type TaskStatus,
  type WindowRow,
} from './schema.ts';

export const batchErrors = {
  NOT_FOUND: defineError({ code: 'call_batch_not_found', status: 404, origin: 'simulator', description: 'No call batch with this id in this account.' }),
  ENDED: defineError({
    code: 'call_batch_ended', status: 409, origin: 'reference',
    description: 'The batch is completed, canceled or expired: no action applies and no task can be added (reference: 409). The body carries its `status`.',
  }),
  ACTION_NOT_ALLOWED: defineError({
    code: 'call_batch_action_not_allowed', status: 409, origin: 'simulator',
    description: 'The action does not apply to the batch\'s current state (pause of a batch not dialing, resume of one not paused or draft). The body carries its `status`; nothing changed.',
  }),
  INVALID_ACTION: defineError({ code: 'invalid_batch_action', status: 400, origin: 'reference', description: 'Action is not pause, resume or cancel (reference: 400).' }),
  INVALID_TARGET: defineError({ code: 'invalid_batch_target', status: 400, origin: 'reference', description: 'Exactly one of CallFlowId, AgentId and Url must be given (reference: 400).' }),
  INVALID_ROUND: defineError({
    code: 'invalid_round', status: 400, origin: 'reference',
    description: 'After or On given in round 1, missing from a later round, or After outside 1 to 1440 minutes (reference: Rounds).',
  }),
  INVALID_ROUND_OUTCOME: defineError({ code: 'invalid_round_outcome', status: 400, origin: 'reference', description: `A value of Rounds[].On is not one of ${ROUND_OUTCOMES.join(', ')}.` }),
  INVALID_WINDOW: defineError({ code: 'invalid_window', status: 400, origin: 'simulator', description: 'A window\'s Days are not 1 (Monday) to 7 (Sunday), or Start/End are not HH:MM with Start before End.' }),
  WINDOW_UNSATISFIABLE: defineError({
    code: 'window_unsatisfiable', status: 400, origin: 'reference',
    description: 'A window never meets the legal calling hours (08:00 to 21:00 Korea time), so its round could never dial (reference: 400).',
  }),
  INVALID_TIMEZONE: defineError({ code: 'invalid_timezone', status: 400, origin: 'simulator', description: 'Timezone is not an IANA time zone name.' }),
  END_BEFORE_START: defineError({ code: 'end_before_start', status: 400, origin: 'simulator', description: 'EndAt is not after StartAt.' }),
  END_IN_PAST: defineError({ code: 'end_in_past', status: 400, origin: 'simulator', description: 'EndAt has already passed: the batch could dial no one.' }),
  FIRST_FAIL_WITHOUT_RETRY: defineError({
    code: 'first_fail_without_retry', status: 400, origin: 'reference',
    description: 'MessagePolicy.OnFirstFail needs a retry round: with one round the first failure is the final one (use OnFinalFail).',
  }),
  MESSAGE_VARIABLE_MISSING: defineError({
    code: 'message_variable_missing', status: 400, origin: 'reference',
    description: 'A MessagePolicy body refers to {{name}} and some recipient has no such variable (reference: 400; a text with a blank cannot be taken back).',
  }),
  TASKS_REQUIRED: defineError({ code: 'tasks_required', status: 400, origin: 'simulator', description: 'Tasks is empty; only a draft batch may start without recipients.' }),
};

const MAX_AFTER_MINUTES = 1440;
/** A window must meet the legal hours within this long from creation, or it never will. */
const WINDOW_PROBE_MS = 8 * 86_400_000;

export interface TaskPage {
  rows: readonly TaskRow[];
  total: number;
}

export class CallBatchesModel {
  /** maps a batchId to the batch, its tasks and its live dialing state */
  private lives = new Map<string, Live>();
  private readonly outbound: OutboundRules;
  readonly time = new CallingTime(new ZoneOffsets());
  private readonly dialer: Dialer;
  /** each batch's counts and dials over virtual time (the inspector's batch view); snapshot part in state.ts */
  readonly series: BatchSeriesBook;

  constructor(private readonly rt: CallBatchesModelScope) {
    this.series = new BatchSeriesBook(rt.clock);
    this.outbound = new OutboundRules(rt);
    this.dialer = new Dialer(rt, this.time, (id) => this.lives.get(id));
  }

  clear(): void {
    this.lives = new Map();
    this.dialer.reset();
  }

  snapshot(): CallBatchesState {
    return { batches: [...this.lives.values()].map((l) => ({ batch: l.row(), tasks: l.rows() })) };
  }

  /** A state the runtime validated against CallBatchesStateSchema; the dialer's queues are rebuilt from it. */
  restore(state: CallBatchesState): void {
    this.lives = new Map();
    this.dialer.reset();
    for (const b of state.batches) {
      const live = new Live(b.batch, b.tasks);
      live.watch = this.series.of(live);
      this.lives.set(b.batch.id, live);
      this.dialer.adopt(live);
    }
  }

  // --- the API ---

  /** createCallBatch: every check before the first write; a refusal stores and schedules nothing. */
  create(accountId: string, input: CreateCallBatchInput): { batch: BatchRow; warnings: string[]; live: Live } {
    const now = this.rt.clock.now();
    const from = this.outbound.ownedSender(accountId, input.From, 'From');
    const targets = (['CallFlowId', 'AgentId', 'Url'] as const).filter((k) => input[k] !== undefined);
    if (targets.length !== 1) {
      throw batchErrors.INVALID_TARGET(targets.length === 0 ? 'give one of CallFlowId, AgentId, Url' : `${targets.join(' and ')} are exclusive; give one of CallFlowId, AgentId, Url`, {
        errors: (targets.length === 0 ? ['CallFlowId'] : targets).map((path) => ({ path, message: 'exactly one of CallFlowId, AgentId, Url' })),
      });
    }
    const timezone = input.Timezone ?? DEFAULT_TIMEZONE;
    if (!knownTimeZone(timezone)) throw batchErrors.INVALID_TIMEZONE(`Timezone "${timezone}" is not an IANA time zone (e.g. Asia/Seoul)`, { errors: [{ path: 'Timezone', message: 'unknown time zone' }] });
    const rounds = this.parseRounds(input.Rounds, timezone, now);
    const startAt = input.StartAt === undefined ? null : parseInstant(input.StartAt)!;
    const endAt = input.EndAt === undefined ? null : parseInstant(input.EndAt)!;
    if (endAt !== null && startAt !== null && endAt <= startAt) {
      throw batchErrors.END_BEFORE_START(`EndAt ${input.EndAt} is not after StartAt ${input.StartAt}`, { errors: [{ path: 'EndAt', message: 'not after StartAt' }] });
    }
    if (endAt !== null && endAt <= now) throw batchErrors.END_IN_PAST(`EndAt ${input.EndAt} has already passed (now ${iso(now)})`, { errors: [{ path: 'EndAt', message: 'in the past' }] });
    const onFirstFail = input.MessagePolicy?.OnFirstFail?.Body ?? null;
    const onFinalFail = input.MessagePolicy?.OnFinalFail?.Body ?? null;
    if (onFirstFail !== null && rounds.length < 2) {
      throw batchErrors.FIRST_FAIL_WITHOUT_RETRY('MessagePolicy.OnFirstFail needs at least two Rounds; with one attempt use OnFinalFail', { errors: [{ path: 'MessagePolicy.OnFirstFail', message: 'needs a retry round' }] });
    }
    const status = input.Status ?? 'running';
    if (input.Tasks.length === 0 && status !== 'draft') throw batchErrors.TASKS_REQUIRED('Tasks is empty; give recipients, or create the batch with Status "draft"', { errors: [{ path: 'Tasks', message: 'empty' }] });
    const tasks = this.parseTasks(input.Tasks, [onFirstFail, onFinalFail]);
    this.requireTarget(accountId, input);
    this.outbound.requireSubscription(accountId);

    const warnings = this.warnings(accountId, from, tasks.length, [onFirstFail, onFinalFail]);
    const id = freshId(this.rt.random, CALL_BATCH_IDS.callBatch, (x) => this.lives.has(x));
    const batch: BatchRow = {
      id,
      accountId,
      name: input.Name,
      status: status === 'running' ? (startAt !== null && startAt > now ? 'scheduled' : 'running') : status,
      from,
      callFlowId: input.CallFlowId ?? null,
      agentId: input.AgentId ?? null,
      url: input.Url ?? null,
      maxConcurrency: input.MaxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
      pacingPerMinute: input.PacingPerMinute ?? DEFAULT_PACING_PER_MINUTE,
      timezone,
      startAt,
      endAt,
      machineDetection: input.MachineDetection === undefined || input.MachineDetection === 'None' ? null : input.MachineDetection,
      rounds,
      onFirstFail,
      onFinalFail,
      priority: input.Priority ?? 0,
      dateCreated: now,
      dateUpdated: now,
      lastDialAt: null,
    };
    const live = new Live(batch, []);
    live.watch = this.series.of(live);
    this.lives.set(id, live);
    this.dialer.addTasks(live, tasks);
    this.dialer.wake(live, now);
    return { batch: live.batch, warnings, live };
  }

  /** When a pending task is expected to be dialed (null for other tasks). */
  expectedDialAt(live: Live, task: TaskRow): number | null {
    return this.dialer.expectedDialAt(live, task);
  }

  get(accountId: string, batchId: string): Live {
    const live = this.lives.get(batchId);
    if (!live || live.batch.accountId !== accountId) throw batchErrors.NOT_FOUND(`no call batch ${batchId} in this account`);
    return live;
  }

  /** Newest first. */
  list(accountId: string): Live[] {
    return [...this.lives.values()].filter((l) => l.batch.accountId === accountId).reverse();
  }

  /** Batches of the account that are not over and call with this agent (an agent in use is not deleted). */
  usingAgent(accountId: string, agentId: string): string[] {
    return [...this.lives.values()].filter((l) => l.batch.accountId === accountId && l.batch.agentId === agentId && !ENDED_BATCH.includes(l.batch.status)).map((l) => l.batch.id);
  }

  /** A page of a batch's tasks (from `get`) in batch order (page counted from 1), optionally of one status. */
  tasks(live: Live, status: TaskStatus | undefined, page: number, pageSize: number): TaskPage {
    const start = (page - 1) * pageSize;
    if (status === undefined) return { rows: live.slice(start, pageSize), total: live.tasks.length };
    return { rows: live.withStatus(status, start, pageSize), total: live.counts[status] };
  }

  /** addCallBatchTasks: to a batch not ended; the new recipients start at round 1. */
  addTasks(accountId: string, batchId: string, input: TaskInput[]): number {
    const live = this.get(accountId, batchId);
    this.refuseEnded(live, 'add tasks to');
    const tasks = this.parseTasks(input, [live.batch.onFirstFail, live.batch.onFinalFail]);
    this.dialer.addTasks(live, tasks);
    this.dialer.wake(live, this.rt.clock.now());
    return tasks.length;
  }

  /** controlCallBatch: pause (calls in progress go on), resume, cancel (pending recipients canceled, calls in progress go on). */
  control(accountId: string, batchId: string, action: string): Live {
    const live = this.get(accountId, batchId);
    if (!(BATCH_ACTIONS as readonly string[]).includes(action)) {
      throw batchErrors.INVALID_ACTION(`Action "${action}" is not one of ${BATCH_ACTIONS.join(', ')}`, { errors: [{ path: 'Action', message: `one of ${BATCH_ACTIONS.join(', ')}` }] });
    }
    this.refuseEnded(live, action);
    const status = live.batch.status;
    const allowed: Record<BatchAction, readonly string[]> = {
      pause: ['scheduled', 'running'],
      resume: ['draft', 'paused'],
      cancel: ['draft', 'scheduled', 'running', 'paused'],
    };
    if (!allowed[action as BatchAction].includes(status)) {
      throw batchErrors.ACTION_NOT_ALLOWED(`cannot ${action} a batch that is ${status} (${action} applies to ${allowed[action as BatchAction].join(' or ')} batches)`, { status });
    }
    this.dialer.act(live, action as BatchAction);
    return live;
  }

  // --- checks ---

  private refuseEnded(live: Live, what: string): void {
    if (ENDED_BATCH.includes(live.batch.status)) {
      throw batchErrors.ENDED(`cannot ${what} batch ${live.batch.id}: it is ${live.batch.status}`, { status: live.batch.status });
    }
  }

  private requireTarget(accountId: string, input: CreateCallBatchInput): void {
    if (input.CallFlowId !== undefined) {
      const flow = this.rt.callFlows.find(accountId, input.CallFlowId);
      if (!flow) throw callErrors.CALL_FLOW_NOT_FOUND(`no call flow ${input.CallFlowId} in this account`);
      if (!flow.graph) throw callErrors.CALL_FLOW_UNREADABLE(`call flow ${input.CallFlowId} has a graph the current schema cannot read; replace it with a full PUT`);
    }
    // An agent the account does not have: createCall's 404 agent_not_found.
    if (input.AgentId !== undefined) this.rt.calls.checkAgent(accountId, input.AgentId);
    if (input.Url !== undefined) this.rt.receiverPolicy.check(input.Url, 'Url');
  }

  private parseRounds(raw: CreateCallBatchInput['Rounds'], zone: string, now: number): RoundRow[] {
    if (raw === undefined || raw.length === 0) return [{ after: null, on: null, windows: null }];
    return raw.map((r, i) => {
      const path = `Rounds.${i}`;
      const bad = (field: string, message: string) => batchErrors.INVALID_ROUND(`${path}.${field} ${message}`, { errors: [{ path: `${path}.${field}`, message }] });
      if (i === 0 && r.After !== undefined) throw bad('After', 'is not allowed in round 1 (there is no previous call); use StartAt');
      if (i === 0 && r.On !== undefined) throw bad('On', 'is not allowed in round 1 (there is no previous outcome)');
      if (i > 0 && r.After === undefined) throw bad('After', 'is required from round 2');
      if (i > 0 && (r.On === undefined || r.On.length === 0)) throw bad('On', 'is required from round 2 (at least one outcome)');
      if (r.After !== undefined && (r.After < 1 || r.After > MAX_AFTER_MINUTES)) throw bad('After', `must be 1 to ${MAX_AFTER_MINUTES} minutes, got ${r.After}`);
      const unknown = (r.On ?? []).findIndex((o) => !(ROUND_OUTCOMES as readonly string[]).includes(o));
      if (unknown >= 0) {
        throw batchErrors.INVALID_ROUND_OUTCOME(`${path}.On.${unknown} "${r.On![unknown]}" is not an outcome; use ${ROUND_OUTCOMES.join(', ')}`, { errors: [{ path: `${path}.On.${unknown}`, message: 'unknown outcome' }] });
      }
      const windows = r.Windows === undefined ? null : r.Windows.map((w, k) => this.parseWindow(w, `${path}.Windows.${k}`, zone, now));
      return { after: r.After ?? null, on: r.On === undefined ? null : ([...new Set(r.On)] as RoundOutcome[]), windows: windows && windows.length > 0 ? windows : null };
    });
  }

  private parseWindow(w: { Days: number[]; Start: string; End: string }, path: string, zone: string, now: number): WindowRow {
    const bad = (field: string, message: string) => batchErrors.INVALID_WINDOW(`${path}.${field} ${message}`, { errors: [{ path: `${path}.${field}`, message }] });
    if (w.Days.length === 0) throw bad('Days', 'is empty; give days 1 (Monday) to 7 (Sunday)');
    const badDay = w.Days.find((d) => d < 1 || d > 7);
    if (badDay !== undefined) throw bad('Days', `has ${badDay}; days are 1 (Monday) to 7 (Sunday)`);
    const start = parseClock(w.Start, false);
    const end = parseClock(w.End, true);
    if (start === undefined) throw bad('Start', `"${w.Start}" is not HH:MM (00:00 to 23:59)`);
    if (end === undefined) throw bad('End', `"${w.End}" is not HH:MM (00:01 to 24:00)`);
    if (end <= start) throw bad('End', `${w.End} is not after Start ${w.Start} (a window lies within one day)`);
    const row: WindowRow = { days: [...new Set(w.Days)].sort(), start, end };
    const first = this.time.nextOpen([row], zone, now);
    if (first === undefined || first > now + WINDOW_PROBE_MS) {
      throw batchErrors.WINDOW_UNSATISFIABLE(`${path} (${clockText(start)} to ${clockText(end)}, ${zone}) never meets the legal calling hours 08:00 to 21:00 Korea time; its round could never dial`, {
        errors: [{ path, message: 'outside the legal calling hours' }],
      });
    }
    return row;
  }

  /** Recipients checked like createCall's To and Variables; every variable a text refers to must be there. */
  private parseTasks(raw: TaskInput[], texts: (string | null)[]): { to: string; vars: Record<string, string> }[] {
    // The names the dialer's render() will fill, read by the same pattern.
    const needed = [...new Set(texts.flatMap((t) => (t === null ? [] : variableNames(t))))];
    return raw.map((t, i) => {
      const to = normalizePhone(t.To, `Tasks.${i}.To`);
      let vars: Record<string, string>;
      try {
        vars = startVariables(t.Variables ?? {});
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        throw ApiError.validation(`Tasks.${i}.${e.message}`, [{ path: `Tasks.${i}.Variables`, message: e.message }]);
      }
      const missing = needed.find((n) => !Object.hasOwn(vars, n));
      if (missing !== undefined) {
        throw batchErrors.MESSAGE_VARIABLE_MISSING(`Tasks.${i} has no variable "${missing}", which a MessagePolicy body uses; every recipient needs it`, { errors: [{ path: `Tasks.${i}.Variables.${missing}`, message: 'missing' }] });
      }
      return { to, vars };
    });
  }

  /** Non-fatal notices for the creation answer (reference: warnings). */
  private warnings(accountId: string, from: string, recipients: number, texts: (string | null)[]): string[] {
    if (texts.every((t) => t === null)) return [];
    const out: string[] = [];
    const sent = this.rt.messages.list(accountId, { number: from }).some((m) => m.direction === 'outbound' && m.from === from);
    if (!sent) {
      out.push(`${from} has never sent a text: registering a number for texts is separate from voice, and the carrier may refuse every text from an unregistered number.`);
    }
    const longest = Math.max(...texts.map((t) => (t === null ? 0 : eucKrBytes(t))));
    const type = longest > SMS_MAX_BYTES ? 'lms' : 'sms';
    const line = this.rt.messages.quotaView(accountId).types[type];
    if (!line.overage && line.limit - line.used < recipients) {
      out.push(`The ${type} quota left this month (${Math.max(0, line.limit - line.used)}) is below the number of recipients (${recipients}); texts past it will be refused.`);
    }
    return out;
  }
}

