// A call's progression on the virtual clock: it rings, the carrier's outcome answers or ends it,
// an inbound call is answered, the walk (call flow or VoiceML) takes one step per input and its
// effects run (effects.ts), the phone hangs up, and the call ends with its callbacks and
// callflow.ended, and then `call.ended` for the families that follow calls. The calls model owns
// one and wires the clock's 'calls.*' handlers here.
import { instantOf, iso } from '../../core/clock.ts';
import type { Table } from '../../core/store.ts';
import type { DeliveryRow } from '../../peers/carrier/schema.ts';
import type { FlowGraph } from './flow-graph.ts';
import { step, type WalkInput } from './interpreter.ts';
import { ENDINGS, carrierSource, phoneSide, platformSide, type Ending } from './endings.ts';
import type { FlowHttpClient } from './flow-http.ts';
import { recordStep } from './walk-trace.ts';
import { compactEnded } from './ended-call.ts';
import { flowEndedPayload, statusPayload } from './announce.ts';
import type { TransferLegs } from './transfer-legs.ts';
import type { VoiceMlRunner } from './voiceml/runner.ts';
import type { VoiceInput } from './voiceml/walker.ts';
import type { MediaStreamClient } from './voiceml/media-stream.ts';
import { CallEffects, type Draft, type EffectPorts } from './effects.ts';
import type { HandledCalls } from './handled.ts';
import { contextFromAnswer, contextRequest } from './call-context.ts';
import type { CallRow, HangupSource, StatusCallbackEvent } from './schema.ts';
import type { CallsModelScope } from './ports.ts';

/** The parts of the calls' scope the progression uses; read at each use, since a reset replaces `random`. */
export type ProgressPorts = EffectPorts & Pick<CallsModelScope, 'events' | 'webhookEngine'>;

export interface ProgressParts {
  rt: ProgressPorts;
  /** The calls table now (clear and restore replace it). */
  calls: () => Table<CallRow>;
  /** The graph of an account's call flow: undefined when there is none, null when unreadable. */
  graphOf: (accountId: string, flowId: string) => FlowGraph | null | undefined;
  legs: TransferLegs;
  voiceml: VoiceMlRunner;
  http: FlowHttpClient;
  streams: MediaStreamClient;
  /** Calls handled by a registered handler (handled.ts). */
  handled: () => HandledCalls;
  /** The link handed out now for a recording's download path (rules/recording-links.ts). */
  link: (path: string) => string;
  /** Drops what was cached of a row changed in place (its wire text). */
  forget: (row: CallRow) => void;
}

export class CallProgress {
  private readonly rt: ProgressPorts;
  private readonly rows: () => Table<CallRow>;
  private readonly graphOf: ProgressParts['graphOf'];
  private readonly link: ProgressParts['link'];
  private readonly legs: TransferLegs;
  private readonly voiceml: VoiceMlRunner;
  private readonly effects: CallEffects;
  private readonly handled: () => HandledCalls;
  private readonly http: FlowHttpClient;
  private readonly forget: (row: CallRow) => void;

  constructor(parts: ProgressParts) {
    this.handled = parts.handled;
    this.forget = parts.forget;
    this.http = parts.http;
    this.rt = parts.rt;
    this.rows = parts.calls;
    this.graphOf = parts.graphOf;
    this.link = parts.link;
    this.legs = parts.legs;
    this.voiceml = parts.voiceml;
    this.effects = new CallEffects({
      rt: parts.rt,
      calls: parts.calls,
      legs: parts.legs,
      http: parts.http,
      streams: parts.streams,
      resume: (callId, seq, input) => this.resume(callId, seq, input),
      link: parts.link,
    });
  }

  /** Read at each use: clear and restore replace the table. */
  private get calls(): Table<CallRow> {
    return this.rows();
  }

  /** 'calls.ring': a queued outbound call starts ringing. */
  ring(callId: string): void {
    const row = this.calls.get(callId);
    if (!row || row.status !== 'queued') return;
    const d = this.draft(row);
    d.status = 'ringing';
    d.timeline = [...row.timeline, { status: 'ringing', at: this.rt.clock.nowIso() }];
    const next = this.calls.replace(d);
    this.callback(next, 'ringing');
    if (next.handler) this.handled().ringing(next);
  }

  /** The carrier's outcome for an outbound call: answered, or ended as it says. */
  carrierReported(d: DeliveryRow): void {
    const row = this.calls.get(d.ownerId);
    if (!row || (row.status !== 'queued' && row.status !== 'ringing') || row.deliveryId !== d.id) return;
    if (d.status === 'delivered') return this.answer(row);
    const ending: Ending = d.status === 'no-answer' || d.status === 'busy' || d.status === 'rejected' ? d.status : 'failed';
    this.end(row, ending, carrierSource(ending));
  }

  /** 'calls.answer': a ringing inbound call is picked up by its flow, its VoiceML app or its handler. */
  answerInbound(callId: string): void {
    const row = this.calls.get(callId);
    if (!row || row.status !== 'ringing') return;
    // A webhook number asks the app first: its first verb that uses the line picks up (advanceVoiceMl).
    if (row.voiceml) return this.advance(row, { kind: 'start' });
    if (row.handler && row.contextUrl) return this.fetchContext(row, row.contextUrl);
    if (row.handler && this.handled().offered(row)) return; // its handler rings its device and answers later
    this.answer(row);
  }

  /** An offered call's device picked up (handled.ts). */
  answerOffered(callId: string): void {
    const row = this.calls.get(callId);
    if (row && row.status === 'ringing') this.answer(row);
  }

  /**
   * An agent number's callContextUrl, fetched just before the answer (guides "Phone numbers");
   * on any failure the call goes on with the agent's stored configuration. The answer is taken
   * at this instant: the clock advance waits for the request in flight.
   */
  private fetchContext(row: CallRow, url: string): void {
    const rows = this.calls;
    const answerWith = (context: CallRow['context']) => {
      const current = this.calls.get(row.id);
      if (this.calls !== rows || !current || current.status !== 'ringing') return;
      this.answer(this.calls.replace({ ...current, context: context ?? current.context ?? null, contextUrl: null }));
    };
    if (this.http.refusal(url) !== undefined) return answerWith(null);
    const req = contextRequest(row, url, this.rt.webhookEngine.signingKeys.get(row.accountId));
    this.http.send(req, (a) => answerWith(contextFromAnswer(a.status, a.body)));
  }

  private answer(row: CallRow): void {
    const detected = row.direction === 'outbound' && row.machineDetection !== null ? row.callee.answeredBy : null;
    const answered = this.pickedUp(row, detected);
    if (row.machineDetection === 'Hangup' && detected === 'machine') {
      this.end(this.dropWalk(answered), 'normal', platformSide(row.direction));
      return;
    }
    this.hangUpLater(row);
    if (answered.walk || answered.voiceml) this.advance(answered, { kind: 'start' });
    else if (answered.handler) this.handled().answered(answered);
  }

  /** The call answered now: in progress, its answered callback sent. */
  private pickedUp(row: CallRow, answeredBy: CallRow['answeredBy']): CallRow {
    const now = this.rt.clock.nowIso();
    const d = this.draft(row);
    d.status = 'in-progress';
    d.timeline = [...row.timeline, { status: 'in-progress', at: now }];
    d.answeredAt = now;
    d.answeredBy = answeredBy;
    const answered = this.calls.replace(d);
    this.callback(answered, 'answered');
    return answered;
  }

  /** The phone's script hangs up after its talk time, counted from the answer (now). */
  private hangUpLater(row: CallRow): void {
    if (row.callee.hangupAfterSeconds === null) return;
    this.rt.jobs.schedule('calls.phoneHangup', this.rt.clock.now() + Math.round(row.callee.hangupAfterSeconds * 1000), { callId: row.id });
  }

  /** 'calls.resume': the walk's next input; a stale seq means the walk moved on and is ignored. */
  resume(callId: string, seq: number, input: WalkInput): void {
    const row = this.calls.get(callId);
    if (!row || row.seq !== seq || !(row.status === 'in-progress' || (row.status === 'ringing' && row.voiceml))) return;
    if (input.kind === 'recorded') {
      // The block's audio is over: families that keep recordings hear it (internal, events.ts).
      const call = { id: row.id, accountId: row.accountId, direction: row.direction, from: row.from, to: row.to, dateCreated: row.dateCreated };
      this.rt.events.emit('call.recorded', { accountId: row.accountId, resourceId: row.id, payload: { call, url: input.url, seconds: input.seconds } });
    }
    // The block's link is handed out now (variables, VoiceML action): signed before 2026-07-28.
    this.advance(row, input.kind === 'recorded' ? { ...input, url: this.link(input.url) } : input);
  }

  /** 'calls.phoneHangup': the phone's script hangs up a connected call. */
  phoneHangup(callId: string): void {
    const row = this.calls.get(callId);
    if (!row || row.status !== 'in-progress') return;
    this.end(this.dropWalk(row), 'normal', phoneSide(row.direction));
  }

  /** The walk told the call was dropped (abandoned), without running its effects. */
  dropWalk(row: CallRow): CallRow {
    if (!row.walk || row.walk.ended) return row;
    return { ...row, walk: { ...row.walk, at: null, waiting: null, ended: 'abandoned' }, seq: row.seq + 1 };
  }

  /** One interpreter step and its effects. */
  private advance(row: CallRow, input: WalkInput): void {
    if (row.voiceml) return this.advanceVoiceMl(row, input);
    const graph = row.callFlowId ? this.graphOf(row.accountId, row.callFlowId) : undefined;
    if (!graph || !row.walk) {
      this.end(this.dropWalk(row), 'normal', 'app', 'app_error');
      return;
    }
    const { state, effects, trace } = step(graph, row.walk, input);
    const d = this.draft(row);
    d.walk = state;
    d.seq = row.seq + 1;
    if (d.trace) d.trace = recordStep(d.trace, trace, effects, input, this.rt.clock.nowIso());
    let ended: { reason: string | null } | undefined;
    for (const e of effects) {
      if (e.type === 'end') ended = { reason: e.reason };
      else this.effects.perform(d, e);
    }
    if (ended) {
      // A flow that ran into a broken graph or a loop is a platform-side error.
      if (ended.reason !== null) this.end(d, 'normal', 'app', 'app_error');
      else this.end(d, 'normal', platformSide(d.direction));
      return;
    }
    this.calls.replace(d);
  }

  /** One VoiceML step: the runner walks and signs, the effects are the flow's. */
  private advanceVoiceMl(row: CallRow, input: VoiceInput): void {
    const r = this.voiceml.step(row, input);
    const line = row.status === 'ringing' && r.effects.some((e) => e.type !== 'http') ? this.pickUp(row) : row;
    const d: Draft = { ...line, voiceml: r.state, trace: r.trace, seq: row.seq + 1 };
    for (const e of r.effects) this.effects.perform(d, e);
    if (r.end) this.end(d, r.end.ending, r.end.source, r.end.cause);
    else this.calls.replace(d);
  }

  /** An inbound VoiceML call is answered when its document first uses the line (no machine detection inbound). */
  private pickUp(row: CallRow): CallRow {
    const answered = this.pickedUp(row, row.answeredBy);
    this.hangUpLater(row);
    return answered;
  }

  /** Ends the call: consistent end fields, then callflow.ended and the completed callback. */
  end(row: CallRow, ending: Ending, source: HangupSource, cause?: string): CallRow {
    if (row.handler) row = { ...this.handled().ending(row), walk: row.walk }; // its last turns join the conversation first
    row = this.legs.closeOpen(row);
    const now = this.rt.clock.now();
    const fields = ENDINGS[ending];
    const answeredAt = row.answeredAt === null ? null : instantOf(row.answeredAt)!;
    const flowStatus = row.callFlowId === null ? null : (row.walk?.ended ?? 'abandoned');
    // A handled call's conversation was recorded whole (docs/agents.md): its recording exists now.
    const recorded = row.conversation !== undefined && answeredAt !== null && row.recordingUrl === null;
    // The ended row is the live row copied, its fields then written in the order the literal it
    // replaces named them (each exists in a call's row, so the members keep their order): that
    // literal, spreading the row, an optional part and the ending's fields, took V8's generic
    // copy (docs/decisions.md "The batch's CPU per call, fifth round").
    const ended = this.draft(row);
    if (recorded) ended.recordingUrl = this.link(`/v1/accounts/${row.accountId}/recordings/${row.id}`);
    ended.status = fields.status;
    ended.hangupCause = cause ?? fields.hangupCause;
    ended.hangupCauseQ850 = fields.hangupCauseQ850;
    ended.sipResponseCode = fields.sipResponseCode;
    const at = iso(now);
    ended.timeline = [...row.timeline, { status: fields.status, at }];
    ended.hangupSource = source;
    ended.duration = answeredAt === null ? 0 : Math.round((now - answeredAt) / 1000);
    ended.dateUpdated = at;
    ended.walk = row.walk && !row.walk.ended ? { ...row.walk, at: null, waiting: null, ended: 'abandoned' } : row.walk;
    ended.flowStatus = flowStatus;
    ended.seq = row.seq + 1;
    const done = this.calls.replace(compactEnded(ended));
    this.callback(done, 'completed');
    if (done.callFlowId !== null) {
      this.rt.events.emit('callflow.ended', { accountId: done.accountId, resourceId: done.id, at: now, payload: flowEndedPayload(done, at) });
    }
    this.handled().ended(done);
    // Declared internal (events.ts): families that follow calls hear the ended row (recordings, then call batches: their build order).
    this.rt.events.emit('call.ended', { accountId: done.accountId, resourceId: done.id, at: now, payload: done });
    return done;
  }

  /** A status callback, when the call asked for this event. */
  callback(row: CallRow, event: StatusCallbackEvent): void {
    if (row.statusCallback === null || !row.statusCallbackEvents.includes(event)) return;
    const now = this.rt.clock.now();
    this.rt.events.emit('call.status', { accountId: row.accountId, resourceId: row.id, at: now, payload: statusPayload(row, event, iso(now)) });
  }

  /**
   * The row to change: a flow's live call is changed in place (the table's own object, its wire
   * text forgotten), anything else is copied; either way the same members in the same order
   * (docs/decisions.md "The batch's CPU per call, sixth round"). Replacing it stores it.
   */
  private draft(row: CallRow): Draft {
    if (row.handler || row.voiceml || !this.calls.holdsLive(row)) return { ...row };
    this.forget(row);
    return row as Draft;
  }
}
