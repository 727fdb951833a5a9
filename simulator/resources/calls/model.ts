// Calls (spec "Call", "Calls", "callflow.ended"): the public API. Outbound calls are checked in
// full, stored as queued and handed to the fake carrier, which decides how the phone answers;
// inbound calls arrive through the control plane and follow the number's routing. What happens
// next on the virtual clock (ringing, answering, the walk of a flow or VoiceML and its effects,
// the end) is the progression's (progress.ts, effects.ts); this model owns it and its state.
import { Table, type TableOptions } from '../../core/store.ts';
import { packedState, tableFromPacked } from '../../core/packed-transfer.ts';
import { jsonCopy } from '../../core/json-copy.ts';
import { freshId } from '../../core/ids.ts';
import { parseInstant } from '../../core/clock.ts';
import { normalizePhone } from '../../core/phone.ts';
import { WireCache } from '../../core/wire.ts';
import { ApiError } from '../../core/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { RecordingLinks } from '../../rules/recording-links.ts';
import { DEFAULT_CALLEE, replyOf, type Callee } from '../../peers/carrier/schema.ts';
import { OutboundRules } from '../../rules/outbound.ts';
import { blankCall, DEFAULT_RING_SECONDS } from './blank-call.ts';
import { platformSide, type Ending } from './endings.ts';
import { FlowHttpClient } from './flow-http.ts';
import { emptyTrace } from './walk-trace.ts';
import { TransferLegs } from './transfer-legs.ts';
import type { WireDialers } from './wire-dial.ts';
import { billableSeconds, transferParties } from './transfers.ts';
import type { CallEventSource } from './call-events.ts';
import { VoiceMlRunner } from './voiceml/runner.ts';
import { initialVoiceState } from './voiceml/walker.ts';
import { MediaStreamClient } from './voiceml/media-stream.ts';
import { CallProgress } from './progress.ts';
import { HandledCalls } from './handled.ts';
import { contextOf } from './call-context.ts';
import { callVariables, startVariables } from './variables.ts';
import { CallUsageIndex } from './usage-index.ts';
import { CallListIndex, type ListQuery, type RowList } from './list-index.ts';
import { callWire, callbackEvents, callbackEventsLenient } from './wire.ts';
import { inboundRoute } from './inbound.ts';
import { phoneCalls, usageEntries } from './ledger.ts';
import type { CallsModelScope } from './ports.ts';
import {
  CALL_IDS,
  DEFAULT_STATUS_CALLBACK_EVENTS,
  IN_PROGRESS,
  CallRowSchema,
  type CallRow,
  type CallStatus,
  type CallsState,
  type CreateCallInput,
} from './schema.ts';

import { callErrors } from './errors.ts';

export { callErrors, callWire, startVariables, DEFAULT_RING_SECONDS };

/** Seconds from placing a call to the phone ringing. */
export const SETUP_SECONDS = 1;
/** Timeout (ring seconds) ceiling (reference: createCall); the default is blank-call.ts's. */
export const MAX_RING_SECONDS = 600;

export interface CallFilter {
  status?: CallStatus;
  from?: string[];
  to?: string[];
  number?: string[];
  since?: string;
  until?: string;
  minDuration?: number;
  maxDuration?: number;
  hangupCause?: string[];
}

export interface InboundCallInput {
  from: string;
  to: string;
  keys?: string[] | null;
  hangupAfterSeconds?: number | null;
  speakSeconds?: number | null;
  replies?: { heard: string; keys: string; speakSeconds?: number | null; say?: string | null }[] | null;
  lines?: string[] | null;
}

/** The calls table: an ended call is kept packed (core/packed-rows.ts), one in progress as its row. */
const CALL_TABLE_OPTIONS: TableOptions<CallRow> = { packWhen: (r) => !IN_PROGRESS.includes(r.status) };

export function callTable(rows: readonly CallRow[] = []): Table<CallRow> {
  return new Table(rows, CALL_TABLE_OPTIONS);
}

/** The table a snapshot's part holds: every call a row (version 1) or ended calls packed (version 2). */
export function restoredCallTable(state: CallsState): Table<CallRow> {
  return state.packed === undefined ? callTable(state.calls) : tableFromPacked(state.calls, state.packed, CallRowSchema, 'calls.packed', CALL_TABLE_OPTIONS);
}

export class CallsModel {
  calls = callTable(); // maps a callId to the call
  readonly wire = new WireCache<CallRow>(callWire);
  readonly http: FlowHttpClient;
  /** Url calls and webhook-routed numbers: the customer's VoiceML (voiceml/). */
  readonly voiceml: VoiceMlRunner;
  /** VoiceML <Connect><Stream> WebSockets (voiceml/media-stream.ts). */
  readonly streams: MediaStreamClient;
  /** Signed recording links before 2026-07-28 (rules/recording-links.ts). */
  private readonly links: RecordingLinks;
  /** listCalls' filters in columns (list-index.ts). */
  private readonly listIndex = new CallListIndex<CallRow>(() => this.calls);

  private readonly outbound: OutboundRules;
  /** Transfer legs of calls (transfer-legs.ts). */
  readonly legs: TransferLegs;
  /** Events other parts add to listCallEvents (recordings, transcripts); call-events.ts. */
  readonly eventSources: CallEventSource[] = [];
  /** Ringing, answering, walking and ending calls on the virtual clock (progress.ts). */
  private readonly progress: CallProgress;
  /** Calls handled by a registered handler (an agent), and the actions handlers get (handled.ts). */
  readonly handled: HandledCalls;

  constructor(private readonly rt: CallsModelScope) {
    this.links = new RecordingLinks(() => rt.seed);
    this.legs = new TransferLegs(rt, () => this.calls);
    this.outbound = new OutboundRules(rt);
    this.http = new FlowHttpClient(rt.egress, rt.io);
    rt.io.register(this.http);
    this.streams = new MediaStreamClient(rt.egress, rt.io);
    rt.io.register(this.streams);
    this.voiceml = new VoiceMlRunner({
      signingKey: (accountId) => rt.webhookEngine.signingKeys.get(accountId),
      refusal: (url) => this.http.refusal(url),
      deliver: (event, target) => void rt.webhookEngine.deliver(event, [target]),
      nowMs: () => rt.clock.now(),
      nowIso: () => rt.clock.nowIso(),
    });
    const link = (path: string) => this.link(path);
    this.progress = new CallProgress({
      rt,
      calls: () => this.calls,
      graphOf: (accountId, flowId) => rt.callFlows.find(accountId, flowId)?.graph,
      legs: this.legs,
      voiceml: this.voiceml,
      http: this.http,
      streams: this.streams,
      handled: () => this.handled,
      link,
      forget: (row) => this.wire.forget(row),
    });
    this.handled = new HandledCalls({
      rt,
      calls: () => this.calls,
      legs: this.legs,
      end: (row, ending, source, cause) => this.progress.end(this.progress.dropWalk(row), ending, source, cause),
      answer: (row) => this.progress.answerOffered(row.id),
    });
    this.legs.onMoved = (row, leg) => this.handled.legMoved(row, leg);
    rt.carrier.onOutcome('call', (d) => this.progress.carrierReported(d));
    rt.carrier.onPhoneCalls((n) => phoneCalls(this.calls, n));
    // Kinds and payloads are in snapshots (scheduled jobs): keep them (ports.ts).
    rt.jobs.on('calls.ring', (p) => this.progress.ring(p.callId));
    rt.jobs.on('calls.answer', (p) => this.progress.answerInbound(p.callId));
    rt.jobs.on('calls.resume', (p) => this.progress.resume(p.callId, p.seq, p.input));
    rt.jobs.on('calls.phoneHangup', (p) => this.progress.phoneHangup(p.callId));
    // Usage: the entries (the reference path) and the same in columns (usage-index.ts).
    const linkOf = (a: string, n: string) => this.outbound.linkIdOf(a, n);
    const usage = new CallUsageIndex(() => this.calls, linkOf, billableSeconds);
    rt.usage.register({ entries: (accountId) => usageEntries(this.calls.all(), accountId, linkOf), scan: (accountId) => usage.scan(accountId) });
    // A call's status callbacks are deliveries to its StatusCallback.
    rt.webhookEngine.targets.route('call.status', (event) => {
      const row = this.calls.get(event.resourceId);
      if (!row?.statusCallback) return [];
      return [{ kind: 'url', url: row.statusCallback, method: 'POST', headers: {} }];
    });
  }

  /** The link handed out now for a recording's download path: signed before 2026-07-28. */
  link(path: string): string {
    return this.links.issue(path, this.rt.clock.now());
  }

  clear(): void {
    this.legs.forgetWire();
    this.calls = callTable();
  }

  /** Where a SIP listener registers the dialer that rings SIP URIs on the wire (wire-dial.ts). */
  get wireDialers(): WireDialers {
    return this.legs.wire;
  }

  /** Ended calls in their packed form (core/packed-transfer.ts), the others as rows; a copy as JSON gives it (index.ts: snapshotsCopy). */
  snapshot(): CallsState {
    const { rows, packed } = packedState(this.calls);
    return packed === undefined ? { calls: jsonCopy(rows) } : { calls: jsonCopy(rows), packed };
  }

  /**
   * A part the runtime validated (index.ts); a new table, so answers still in flight for the old
   * state are dropped. The rows kept as objects are copies (the part is not copied before).
   */
  restore(state: CallsState): void {
    this.legs.forgetWire();
    this.calls = restoredCallTable({ ...state, calls: structuredClone(state.calls) });
  }

  /** Puts the table of now back (all or nothing: restore only swaps tables); the wire's live legs stay. */
  hold(): () => void {
    const table = this.calls;
    return () => {
      this.calls = table;
    };
  }

  // --- the API ---

  /** createCall. Every check runs before the first write; a refusal stores nothing and draws no id. */
  create(accountId: string, input: CreateCallInput): CallRow {
    const to = normalizePhone(input.To, 'To');
    const from = this.outbound.ownedSender(accountId, input.From, 'From');
    const modeCount = (input.Url === undefined ? 0 : 1) + (input.AgentId === undefined ? 0 : 1) + (input.CallFlowId === undefined ? 0 : 1);
    const modes = modeCount > 1 ? (['Url', 'AgentId', 'CallFlowId'] as const).filter((k) => input[k] !== undefined) : []; // listed only for a refusal (a batch dials through here)
    if (modes.length > 1) throw ApiError.validation(`${modes.join(' and ')} are exclusive; give one of Url, AgentId, CallFlowId`, modes.map((m) => ({ path: m, message: 'exclusive with ' + modes.filter((x) => x !== m).join(', ') })));
    if (input.Variables !== undefined && input.CallFlowId === undefined) throw ApiError.validation('Variables go only with CallFlowId', [{ path: 'Variables', message: 'needs CallFlowId' }]);
    if (input.CallContext !== undefined && input.AgentId === undefined) throw ApiError.validation('CallContext goes only with AgentId', [{ path: 'CallContext', message: 'needs AgentId' }]);
    const startVars = startVariables(input.Variables ?? {});
    const statusCallback = input.StatusCallback === undefined ? null : this.rt.receiverPolicy.check(input.StatusCallback, 'StatusCallback');
    const events = callbackEvents(input.StatusCallbackEvent);
    const voiceUrl = input.Url === undefined ? null : this.rt.receiverPolicy.check(input.Url, 'Url');
    let handler: CallRow['handler'];
    if (input.AgentId !== undefined) {
      this.checkAgent(accountId, input.AgentId);
      handler = { kind: 'agent', target: input.AgentId };
    }
    if (input.CallFlowId === undefined && voiceUrl === null && handler === undefined) {
      // No Url, AgentId or CallFlowId: the Agent SDK runtime connected to From takes the call.
      const sdk = this.handled.handlers.get('sdk');
      if (!sdk) throw callErrors.AGENT_NOT_CONNECTED(`no Agent SDK is connected to ${from}; give CallFlowId, AgentId or Url`);
      sdk.check(accountId, from);
      handler = { kind: 'sdk', target: from };
    }
    if (input.CallFlowId !== undefined) this.requireFlow(accountId, input.CallFlowId);
    this.outbound.requireSubscription(accountId);
    this.outbound.refuseOptedOut(accountId, to, 'call');

    // The optional parts, then the three always set, in the order of the spread they replace (no empty objects spread per call).
    const extra: Partial<CallRow> = voiceUrl === null ? {} : { voiceml: initialVoiceState(voiceUrl, 'POST', {}), trace: emptyTrace({}) };
    if (handler !== undefined) Object.assign(extra, { handler, context: contextOf(input.CallContext), dictionaryId: this.rt.numbers.find(from)?.dictionaryId ?? null, conversation: [] });
    extra.machineDetection = input.MachineDetection ?? null;
    extra.statusCallback = statusCallback;
    extra.statusCallbackEvents = events;
    return this.place(accountId, from, to, input.Timeout, input.CallFlowId ?? null, callVariables(from, to, startVars), extra);
  }

  /**
   * A call a registered handler places itself (a SIP client's INVITE, handlers.ts): the checks of
   * createCall that apply (To domestic, From the account's, the handler's own check, the
   * subscription, the opt-out list), then the same record, carrier outcome and usage; the handler
   * takes the call when it is answered, and the call is recorded whole from the answer (the
   * handler may hand the recordings its audio). A refusal stores nothing.
   */
  placeForHandler(accountId: string, input: { From: string; To: string; handler: NonNullable<CallRow['handler']> }): CallRow {
    const to = normalizePhone(input.To, 'To');
    const from = this.outbound.ownedSender(accountId, input.From, 'From');
    const handler = this.handled.handlers.get(input.handler.kind);
    if (!handler) throw new Error(`no call handler of kind ${input.handler.kind} is registered`);
    handler.check(accountId, input.handler.target);
    this.outbound.requireSubscription(accountId);
    this.outbound.refuseOptedOut(accountId, to, 'call');
    return this.place(accountId, from, to, undefined, null, { caller: from, callee: to }, { handler: { ...input.handler }, context: null, dictionaryId: null, conversation: [] });
  }

  /** Stores a checked outbound call as queued, hands it to the carrier and schedules its ringing. */
  private place(accountId: string, from: string, to: string, timeout: number | undefined, flowId: string | null, vars: Record<string, string>, extra: Partial<CallRow>): CallRow {
    const ringSeconds = timeout === undefined || timeout < 1 ? DEFAULT_RING_SECONDS : Math.min(timeout, MAX_RING_SECONDS);
    const id = freshId(this.rt.random, CALL_IDS.call, (x) => this.calls.has(x));
    const decision = this.rt.carrier.decide(to, 'call', ringSeconds);
    const delivery = this.rt.carrier.submit(
      { accountId, owner: 'call', ownerId: id, type: 'call', from, to, content: '' },
      { ...decision, delaySeconds: SETUP_SECONDS + decision.delaySeconds },
    );
    // The blank row filled in place (the members and their order of a spread over it, one object made, not two).
    const row = Object.assign(blankCall(this.rt.clock.nowIso(), accountId, id, 'outbound', from, to, flowId, vars), extra);
    row.ringSeconds = ringSeconds;
    row.callee = decision.callee ?? { ...DEFAULT_CALLEE };
    row.deliveryId = delivery.id;
    this.calls.insert(row);
    this.rt.jobs.schedule('calls.ring', this.rt.clock.now() + SETUP_SECONDS * 1000, { callId: id });
    this.progress.callback(row, 'initiated');
    return row;
  }

  /** Refuses an AgentId the account does not have (404 agent_not_found): the agents' handler decides. */
  checkAgent(accountId: string, agentId: string): void {
    const agents = this.handled.handlers.get('agent');
    if (!agents) throw callErrors.AGENT_NOT_FOUND(`no agent ${agentId} in this account`, { errors: [{ path: 'AgentId', message: 'no such agent' }] });
    agents.check(accountId, agentId);
  }

  get(accountId: string, callId: string): CallRow {
    const row = this.calls.get(callId);
    if (!row || row.accountId !== accountId) throw callErrors.CALL_NOT_FOUND(`no call ${callId} in this account`);
    return row;
  }

  /** Newest first; list filters are OR within one parameter and AND across parameters (list-index.ts). */
  list(accountId: string, f: CallFilter): RowList<CallRow> {
    const norm = (xs: string[] | undefined, field: string) => (xs === undefined ? undefined : new Set(xs.map((x) => normalizePhone(x, field))));
    const q: ListQuery = {
      status: f.status,
      from: norm(f.from, 'from'),
      to: norm(f.to, 'to'),
      number: norm(f.number, 'number'),
      since: f.since === undefined ? undefined : parseInstant(f.since)!,
      until: f.until === undefined ? undefined : parseInstant(f.until)!,
      minDuration: f.minDuration,
      maxDuration: f.maxDuration,
      hangupCause: f.hangupCause === undefined ? undefined : new Set(f.hangupCause),
    };
    const key = JSON.stringify([accountId, q.status, [...(q.from ?? [])], [...(q.to ?? [])], [...(q.number ?? [])], q.since, q.until, q.minDuration, q.maxDuration, [...(q.hangupCause ?? [])]]);
    return this.listIndex.query(key, accountId, q);
  }

  /** updateCall Status=completed: hangs up a connected call, cancels one not yet answered. */
  hangUp(accountId: string, callId: string): CallRow {
    const row = this.get(accountId, callId);
    if (!IN_PROGRESS.includes(row.status)) {
      throw callErrors.HANGUP_NOT_APPLICABLE(`call ${callId} has already ended (${row.status})`, { callId: row.id, status: row.status });
    }
    const ending: Ending = row.status === 'in-progress' ? 'normal' : 'canceled';
    return this.progress.end(this.progress.dropWalk(row), ending, platformSide(row.direction));
  }

  // --- inbound calls (control plane) ---

  /** A phone calls `to`; null when the call is refused before a record exists (blocked caller). */
  inbound(input: InboundCallInput): string | null {
    const to = normalizePhone(input.to, 'to');
    const from = normalizePhone(input.from, 'from');
    const accountId = this.rt.numbers.ownerOf(to);
    if (!accountId) throw sharedErrors.NUMBER_NOT_FOUND(`no account owns ${to}; inbound calls go to a number of some account`);
    // Spec "Blocked caller": rejected without answering; the spec keeps no trace of it.
    if (this.rt.blockLists.isCallerBlocked(accountId, from)) return null;
    const route = inboundRoute({ numbers: this.rt.numbers, flows: this.rt.callFlows, handled: this.handled }, accountId, to);
    const number = this.rt.numbers.find(to)!;
    const id = freshId(this.rt.random, CALL_IDS.call, (x) => this.calls.has(x));
    const flowId = route.kind === 'callflow' ? route.flowId : null;
    const row = this.calls.insert({
      ...blankCall(this.rt.clock.nowIso(), accountId, id, 'inbound', from, to, flowId, { caller: from, callee: to }),
      ...(route.kind === 'voiceml' ? { voiceml: initialVoiceState(route.url, route.method, route.headers), trace: emptyTrace({}) } : {}),
      ...(route.kind === 'handler' ? { handler: route.handler, context: null, contextUrl: route.contextUrl, dictionaryId: route.dictionaryId, conversation: [] } : {}),
      status: 'ringing',
      timeline: [{ status: 'ringing', at: this.rt.clock.nowIso() }],
      statusCallback: number.statusCallback ?? null,
      statusCallbackEvents: number.statusCallbackEvents ? callbackEventsLenient(number.statusCallbackEvents) : [...DEFAULT_STATUS_CALLBACK_EVENTS],
      callee: {
        ...DEFAULT_CALLEE,
        keys: [...(input.keys ?? [])],
        hangupAfterSeconds: input.hangupAfterSeconds ?? null,
        speakSeconds: input.speakSeconds ?? DEFAULT_CALLEE.speakSeconds,
        replies: (input.replies ?? []).map(replyOf),
        ...(input.lines ? { lines: [...input.lines] } : {}),
      },
    });
    this.progress.callback(row, 'initiated');
    this.progress.callback(row, 'ringing');
    // The customer's own agent answers at once (reference: inbound SDK calls are answered at or
    // before call.incoming; the caller hears silence until its media opens).
    if (route.kind === 'handler' && route.handler.kind === 'sdk') this.progress.answerInbound(id);
    else if (route.kind === 'callflow' || route.kind === 'voiceml' || route.kind === 'handler') this.rt.jobs.schedule('calls.answer', this.rt.clock.now() + SETUP_SECONDS * 1000, { callId: id });
    else this.progress.end(row, route.ending, route.source, route.cause);
    return id;
  }

  // --- views for other parts ---

  /** Parties who joined the call through a connected transfer leg (transcripts: one speaker each); 0 for an unknown call. */
  transferPartiesOf(accountId: string, callId: string): number {
    const row = this.calls.get(callId);
    return row && row.accountId === accountId ? transferParties(row.transfers) : 0;
  }

  /** The recordings family deleted the call's recording or its retention ended: recordingUrl is null again. */
  forgetRecording(callId: string): void {
    const row = this.calls.get(callId);
    if (row && row.recordingUrl !== null) this.calls.replace({ ...row, recordingUrl: null });
  }

  /** A call of any account, for the control plane; 404 call_not_found when there is none. */
  getAny(callId: string): CallRow {
    const row = this.calls.get(callId);
    if (!row) throw callErrors.CALL_NOT_FOUND(`no call ${callId} in this simulator`);
    return row;
  }

  // --- helpers ---

  private requireFlow(accountId: string, flowId: string): void {
    const flow = this.rt.callFlows.find(accountId, flowId);
    if (!flow) throw callErrors.CALL_FLOW_NOT_FOUND(`no call flow ${flowId} in this account`);
    if (!flow.graph) throw callErrors.CALL_FLOW_UNREADABLE(`call flow ${flowId} has a graph the current schema cannot read; replace it with a full PUT`);
  }

}

export type { Callee };
