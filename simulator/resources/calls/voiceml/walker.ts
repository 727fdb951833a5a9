// The VoiceML walker: a pure step function (state, input, call) -> (state, effects),
// the twin of the call-flow interpreter (interpreter.ts) for calls steered by the customer's own
// webhook. It asks for documents (`fetch` effects, signed and sent by the runner), runs their
// verbs one at a time and stops at each verb that waits for time, the phone or the network,
// producing the same effects a flow does (say, play, wait, listen, record, dial) so the calls
// model performs them the same way. Reading each verb's attributes is attributes.ts. No clock, no I/O, no randomness: the same inputs give the
// same walk. Choices where the guides are silent are in docs/decisions.md "VoiceML".
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../../core/schema.ts';
import { iso } from '../../../core/clock.ts';
import { PLAY_SECONDS, speechSeconds, type Effect, type StepTrace, type WalkInput } from '../interpreter.ts';
import { VerbSchema, parseDocument, type Verb } from './document.ts';
import { AttrError, BOUNDS, DEFAULTS, boolAttr, checkVoice, dialTarget, gatherSettings, intAttr, keySet, methodAttr, promptOf, streamOf } from './attributes.ts';

/** Documents one call may fetch in all. */
export const MAX_DOCUMENTS = 200;
/** Documents fetched in a row with no verb taking time in between: more is a redirect loop. */
export const MAX_IDLE_DOCUMENTS = 10;
export const VERBS = ['Say', 'Play', 'Pause', 'Gather', 'Record', 'Dial', 'Redirect', 'Hangup', 'Reject', 'Connect'] as const;
export const VoiceMlStateSchema = Type.Object(
  {
    url: Type.String(), // the document being run; relative URLs resolve against it
    method: StringEnum(['POST', 'GET']), // how the first document is requested (the number's webhookMethod)
    headers: Type.Record(Type.String(), Type.String()), // the number's webhookHeaders, sent with every request of the call
    verbs: Type.Array(VerbSchema),
    doc: Type.Integer({ minimum: 0 }), // documents received so far; the current one's number
    at: Type.Integer({ minimum: 0 }), // the verb waiting (index into verbs)
    waiting: Nullable(StringEnum(['fetch', 'timer', 'keys', 'recording', 'dial', 'stream'])),
    fetches: Type.Integer({ minimum: 0 }), // documents requested so far
    idle: Type.Integer({ minimum: 0 }), // documents requested since a verb last took time
    records: Type.Integer({ minimum: 0 }), // Record verbs run so far (names the recordings)
    ended: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type VoiceMlState = Static<typeof VoiceMlStateSchema>;

/** A request for a document: the call's fields plus what the verb reports (Digits, DialCallStatus...). */
export interface FetchEffect {
  type: 'fetch';
  blockId: string;
  url: string;
  method: 'GET' | 'POST';
  fields: [string, string][];
}

/** A `<Number statusCallback>` / `<Sip statusCallback>` notification about the dialed leg. */
export interface DialCallbackEffect {
  type: 'dialCallback';
  url: string;
  method: 'GET' | 'POST';
  fields: [string, string][];
}

export type VoiceEffect = Exclude<Effect, { type: 'end' | 'http' | 'message' | 'optout' }> | FetchEffect | DialCallbackEffect;

/** How the walk ended the call: hung up (a Hangup verb or the end of a document), rejected, or an application error. */
export type VoiceEnd = { kind: 'hangup' } | { kind: 'reject'; busy: boolean } | { kind: 'error'; reason: string };

export type VoiceInput = WalkInput | { kind: 'refused'; reason: string };

export interface VoiceStepResult {
  state: VoiceMlState;
  effects: VoiceEffect[];
  trace: StepTrace[];
  end: VoiceEnd | null;
}

/** What the walker knows of the call: the fields every request carries, and the virtual now (for callback timestamps). */
export interface CallContext {
  fields: [string, string][];
  nowMs: number;
}

export function initialVoiceState(url: string, method: 'GET' | 'POST', headers: Record<string, string>): VoiceMlState {
  return { url, method, headers: { ...headers }, verbs: [], doc: 0, at: 0, waiting: null, fetches: 0, idle: 0, records: 0, ended: false };
}

/** One step of the walk. An input that does not fit what the walk waits for changes nothing. */
export function voiceStep(state: VoiceMlState, input: VoiceInput, call: CallContext): VoiceStepResult {
  const same: VoiceStepResult = { state, effects: [], trace: [], end: null };
  if (state.ended) return same;
  const w = new Walk(state, call);
  if (input.kind === 'dropped') return w.finish(null);
  if (input.kind === 'start') {
    if (state.fetches > 0 || state.waiting !== null) return same;
    return w.fetch(state.url, state.method, []);
  }
  const verb = state.verbs[state.at];
  try {
    return resumed(w, state, verb, input) ?? same;
  } catch (e) {
    if (e instanceof AttrError) return w.fail(e.message);
    throw e;
  }
}

function resumed(w: Walk, state: VoiceMlState, verb: Verb | undefined, input: Exclude<VoiceInput, { kind: 'start' | 'dropped' }>): VoiceStepResult | undefined {
  switch (input.kind) {
    case 'http':
      if (state.waiting !== 'fetch') break;
      return w.arrived(input.status, input.body);
    case 'refused':
      if (state.waiting !== 'fetch') break;
      w.resume(w.fetchId(), 'fetch', `app_error: ${input.reason}`);
      return w.fail(input.reason);
    case 'elapsed':
      if (state.waiting !== 'timer') break;
      return w.run(state.at + 1);
    case 'keys':
      if (state.waiting !== 'keys' || verb?.name !== 'Gather') break;
      return w.gathered(verb, input.keys);
    case 'recorded':
      if (state.waiting !== 'recording' || verb?.name !== 'Record') break;
      return w.recorded(verb, input.keys, input.seconds, input.url);
    case 'dialed':
      if (state.waiting !== 'dial' || verb?.name !== 'Dial') break;
      return w.dialed(verb, input.outcome, input.talkSeconds ?? 0);
    case 'streamed':
      if (state.waiting !== 'stream' || verb?.name !== 'Connect') break;
      return w.streamed(verb, input);
  }
  return undefined;
}

/** `<Dial>` outcomes as DialCallStatus (guide: completed|busy|no-answer|failed|canceled); a declined leg reads busy. */
export function dialCallStatus(outcome: string): 'completed' | 'busy' | 'no-answer' | 'failed' | 'canceled' {
  switch (outcome) {
    case 'completed':
    case 'busy':
    case 'no-answer':
    case 'canceled':
      return outcome;
    case 'rejected':
      return 'busy';
    default:
      return 'failed';
  }
}

/** Gather's digits from what the phone entered: up to finishOnKey (not included), at most numDigits. */
export function gatherDigits(keys: string, finishOnKey: string, numDigits: number | null): string {
  let out = '';
  for (const k of keys) {
    if (finishOnKey !== '' && k === finishOnKey) break;
    out += k;
    if (numDigits !== null && out.length >= numDigits) break;
  }
  return out;
}

/** One step's working copy: effects and trace collected in order. */
class Walk {
  private s: VoiceMlState;
  private readonly effects: VoiceEffect[] = [];
  private readonly trace: StepTrace[] = [];

  constructor(
    state: VoiceMlState,
    private readonly call: CallContext,
  ) {
    this.s = { ...state };
  }

  fetchId(n = this.s.fetches): string {
    return `fetch-${n}`;
  }

  /** The trace id of the verb at `index` of the current document (`<document>.<verb>`, from 1). */
  private verbId(index = this.s.at): string {
    return `${this.s.doc}.${index + 1}`;
  }

  resume(blockId: string, type: string, outcome: string): void {
    this.trace.push({ blockId, type, resumed: true, outcome, set: {} });
  }

  private done(end: VoiceEnd | null): VoiceStepResult {
    return { state: this.s, effects: this.effects, trace: this.trace, end };
  }

  finish(end: VoiceEnd | null): VoiceStepResult {
    this.s = { ...this.s, waiting: null, ended: true };
    return this.done(end ?? { kind: 'hangup' });
  }

  fail(reason: string): VoiceStepResult {
    return this.finish({ kind: 'error', reason });
  }

  private wait(at: number, waiting: VoiceMlState['waiting']): VoiceStepResult {
    this.s = { ...this.s, at, waiting };
    if (waiting !== 'fetch') this.s.idle = 0;
    return this.done(null);
  }

  /** Requests `ref` (resolved against the current document) with the call's fields and `extra`. */
  fetch(ref: string, method: 'GET' | 'POST', extra: [string, string][]): VoiceStepResult {
    const url = resolve(ref, this.s.url);
    if (url === undefined) return this.fail(`"${ref}" is not a URL`);
    if (!/^https?:/.test(url)) return this.fail(`"${ref}" is not an http or https URL`);
    if (this.s.fetches >= MAX_DOCUMENTS) return this.fail(`more than ${MAX_DOCUMENTS} documents in one call`);
    if (this.s.idle >= MAX_IDLE_DOCUMENTS) return this.fail(`more than ${MAX_IDLE_DOCUMENTS} documents in a row without a verb that takes time (a redirect loop)`);
    this.s = { ...this.s, fetches: this.s.fetches + 1, idle: this.s.idle + 1, url };
    const id = this.fetchId();
    this.trace.push({ blockId: id, type: 'fetch', resumed: false, outcome: null, set: {} });
    this.effects.push({ type: 'fetch', blockId: id, url, method, fields: [...this.call.fields, ...extra] });
    return this.wait(this.s.at, 'fetch');
  }

  arrived(status: number | null, body: string | null): VoiceStepResult {
    const id = this.fetchId();
    const fail = (reason: string) => {
      this.resume(id, 'fetch', `app_error: ${reason}`);
      return this.fail(reason);
    };
    if (status === null) return fail(`no answer from ${this.s.url} (unreachable, refused or timed out)`);
    if (status < 200 || status > 299) return fail(`${this.s.url} answered ${status}`);
    const parsed = parseDocument(body ?? '');
    if (!parsed.ok) return fail(parsed.reason);
    this.resume(id, 'fetch', 'ok');
    this.s = { ...this.s, verbs: parsed.verbs, doc: this.s.doc + 1 };
    return this.run(0);
  }

  /** Runs verbs from `index` until one waits, fetches or ends the call. */
  run(index: number): VoiceStepResult {
    if (index >= this.s.verbs.length) return this.finish({ kind: 'hangup' });
    const v = this.s.verbs[index]!;
    const id = this.verbId(index);
    this.trace.push({ blockId: id, type: v.name.toLowerCase(), resumed: false, outcome: null, set: {} });
    try {
      return this.verb(v, id, index);
    } catch (e) {
      if (e instanceof AttrError) return this.fail(e.message);
      throw e;
    }
  }

  private verb(v: Verb, id: string, index: number): VoiceStepResult {
    switch (v.name) {
      case 'Say': {
        checkVoice(v);
        const loop = intAttr(v, 'loop', DEFAULTS.loop, BOUNDS.loop);
        const text = Array.from({ length: loop }, () => v.text).join(' ');
        this.effects.push({ type: 'say', blockId: id, text }, { type: 'wait', seconds: speechSeconds(text) });
        return this.wait(index, 'timer');
      }
      case 'Play': {
        const loop = intAttr(v, 'loop', DEFAULTS.loop, BOUNDS.loop);
        if (v.text === '') throw new AttrError('<Play> needs the audio URL as its text');
        this.effects.push({ type: 'play', blockId: id, url: v.text }, { type: 'wait', seconds: PLAY_SECONDS * loop });
        return this.wait(index, 'timer');
      }
      case 'Pause':
        this.effects.push({ type: 'wait', seconds: intAttr(v, 'length', DEFAULTS.pauseLength, BOUNDS.pause) });
        return this.wait(index, 'timer');
      case 'Gather': {
        gatherSettings(v);
        const prompt = promptOf(v);
        this.effects.push({ type: 'listen', blockId: id, prompt, maxDigits: intAttr(v, 'numDigits', BOUNDS.numDigits[1], BOUNDS.numDigits), timeoutSec: intAttr(v, 'timeout', DEFAULTS.gatherTimeout, BOUNDS.gatherTimeout) });
        return this.wait(index, 'keys');
      }
      case 'Record': {
        const finish = keySet(v, 'finishOnKey', DEFAULTS.recordFinishOnKey);
        const maxLengthSec = intAttr(v, 'maxLength', DEFAULTS.recordMaxLength, BOUNDS.maxLength);
        const playBeep = boolAttr(v, 'playBeep', true);
        if (v.attrs.action !== undefined) methodAttr(v);
        this.s = { ...this.s, records: this.s.records + 1 };
        this.effects.push({ type: 'record', blockId: id, name: `voiceml-${this.s.records}`, prompt: '', maxLengthSec, playBeep, finishKey: finish === '' ? 'none' : finish === '#' ? 'hash' : 'any' });
        return this.wait(index, 'recording');
      }
      case 'Dial': {
        const target = dialTarget(v);
        if (target.callback !== null) methodAttr(target.callback, 'statusCallbackMethod');
        const timeoutSec = intAttr(v, 'timeout', DEFAULTS.dialTimeout, BOUNDS.dialTimeout);
        if (v.attrs.action !== undefined) methodAttr(v);
        this.effects.push({ type: 'dial', blockId: id, kind: target.kind, value: target.value, callerId: v.attrs.callerId ?? null, timeoutSec });
        return this.wait(index, 'dial');
      }
      case 'Redirect':
        if (v.text === '') throw new AttrError('<Redirect> needs the URL as its text');
        return this.fetch(v.text, methodAttr(v), []);
      case 'Hangup':
        return this.finish({ kind: 'hangup' });
      case 'Reject': {
        const reason = v.attrs.reason ?? 'rejected';
        if (reason !== 'rejected' && reason !== 'busy') throw new AttrError(`<Reject reason="${reason}"> must be rejected or busy`);
        return this.finish({ kind: 'reject', busy: reason === 'busy' });
      }
      case 'Connect': {
        const stream = streamOf(v);
        if (v.attrs.action !== undefined) methodAttr(v);
        this.effects.push({ type: 'stream', blockId: id, url: stream.url, name: stream.name });
        return this.wait(index, 'stream');
      }
      default:
        return this.fail(`unknown verb <${v.name}>`);
    }
  }

  gathered(v: Verb, keys: string): VoiceStepResult {
    const { finishOnKey, numDigits } = gatherSettings(v);
    const digits = gatherDigits(keys, finishOnKey, numDigits);
    const id = this.verbId();
    this.resume(id, 'gather', digits === '' ? 'timeout' : `digits ${digits}`);
    if (digits === '') return this.run(this.s.at + 1); // nothing entered: fall through
    return this.afterVerb(v, [['Digits', digits]]);
  }

  recorded(v: Verb, keys: string, seconds: number, url: string): VoiceStepResult {
    const finish = keySet(v, 'finishOnKey', DEFAULTS.recordFinishOnKey);
    const first = [...keys][0] ?? '';
    const id = this.verbId();
    this.resume(id, 'record', 'recorded');
    return this.afterVerb(v, [['RecordingUrl', url], ['RecordingDuration', String(seconds)], ['Digits', first !== '' && finish.includes(first) ? first : '']]);
  }

  dialed(v: Verb, outcome: string, talkSeconds: number): VoiceStepResult {
    const status = dialCallStatus(outcome);
    const duration = status === 'completed' ? talkSeconds : 0;
    const id = this.verbId();
    this.resume(id, 'dial', status);
    const target = dialTarget(v);
    if (target.callback !== null) {
      const events = (target.callback.attrs.statusCallbackEvent ?? 'answered completed').split(/\s+/).filter((x) => x !== '');
      const method = methodAttr(target.callback, 'statusCallbackMethod');
      const url = resolve(target.callback.attrs.statusCallback!, this.s.url);
      const base: [string, string][] = [...this.call.fields.filter(([k]) => k !== 'CallStatus'), ['DialTo', target.value]];
      // A statusCallback that is no http(s) URL is not called (the call goes on; the action still reports the leg).
      if (url !== undefined && /^https?:/.test(url)) {
        if (status === 'completed' && events.includes('answered')) {
          const at = iso(this.call.nowMs - duration * 1000);
          this.effects.push({ type: 'dialCallback', url, method, fields: [...base, ['StatusCallbackEvent', 'answered'], ['DialCallStatus', 'in-progress'], ['Timestamp', at]] });
        }
        if (events.includes('completed')) {
          this.effects.push({ type: 'dialCallback', url, method, fields: [...base, ['StatusCallbackEvent', 'completed'], ['DialCallStatus', status], ['DialCallDuration', String(duration)], ['Timestamp', iso(this.call.nowMs)]] });
        }
      }
    }
    return this.afterVerb(v, [['DialCallStatus', status], ['DialCallDuration', String(duration)]]);
  }

  /** The media stream ended: the next verb (or the action) runs; a stream that never opened is an application error. */
  streamed(v: Verb, input: Extract<VoiceInput, { kind: 'streamed' }>): VoiceStepResult {
    const id = this.verbId();
    if (!input.ok) {
      const reason = input.reason ?? 'the media stream failed';
      this.resume(id, 'connect', `app_error: ${reason}`);
      return this.fail(reason);
    }
    this.resume(id, 'connect', `streamed ${input.sent} media frames`);
    return this.afterVerb(v, [['StreamSid', input.streamSid]]);
  }

  /** A verb with an `action` posts its result there and runs the answer; without one, the next verb runs. */
  private afterVerb(v: Verb, fields: [string, string][]): VoiceStepResult {
    if (v.attrs.action === undefined) return this.run(this.s.at + 1);
    return this.fetch(v.attrs.action, methodAttr(v), fields);
  }
}

function resolve(ref: string, base: string): string | undefined {
  try {
    return new URL(ref, base).href;
  } catch {
    return undefined;
  }
}
