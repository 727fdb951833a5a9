// The interpreter's effects on a call (what a flow block or VoiceML verb does to the line): the
// phone hears texts and answers prompts, texts are sent, opt-outs added, HTTP requests made,
// media streams opened and numbers dialed. Each effect changes the step's draft row or
// schedules the walk's next input ('calls.resume'); progress.ts owns the step and ends calls.
import { normalizePhone } from '../../core/phone.ts';
import { ApiError } from '../../core/errors.ts';
import type { Table } from '../../core/store.ts';
import type { CallsModelScope } from './ports.ts';
import { speechSeconds, type Effect, type WalkInput } from './interpreter.ts';
import type { FlowHttpClient } from './flow-http.ts';
import { LEG_TALK_SECONDS, type TransferLegs } from './transfer-legs.ts';
import { streamEnded, streamFrames, type MediaStreamClient } from './voiceml/media-stream.ts';
import type { CallRow } from './schema.ts';

/** Seconds after a prompt ends until the phone's keys arrive. */
export const KEY_SECONDS = 1;
/** Seconds a dialed party talks when its script says nothing. */
export const DIAL_TALK_SECONDS = LEG_TALK_SECONDS;

/** A call being changed by one walk step: fields are set here, the row is replaced once. */
export type Draft = { -readonly [K in keyof CallRow]: CallRow[K] };

/** The parts of the calls' scope effects use; read at each use, since a reset replaces `random`. */
export type EffectPorts = Pick<CallsModelScope, 'clock' | 'random' | 'jobs' | 'carrier' | 'messages' | 'blockLists'>;

export interface EffectParts {
  rt: EffectPorts;
  /** The calls table now (clear and restore replace it). */
  calls: () => Table<CallRow>;
  legs: TransferLegs;
  http: FlowHttpClient;
  streams: MediaStreamClient;
  /** Feeds an HTTP answer back into the walk at once (progress.ts). */
  resume: (callId: string, seq: number, input: WalkInput) => void;
  /** The link handed out now for a recording's download path (rules/recording-links.ts). */
  link: (path: string) => string;
}

export class CallEffects {
  private readonly rt: EffectPorts;
  private readonly legs: TransferLegs;
  private readonly http: FlowHttpClient;
  private readonly streams: MediaStreamClient;
  private readonly resume: EffectParts['resume'];
  private readonly link: EffectParts['link'];
  private readonly rows: () => Table<CallRow>;

  constructor(parts: EffectParts) {
    this.rt = parts.rt;
    this.rows = parts.calls;
    this.legs = parts.legs;
    this.http = parts.http;
    this.streams = parts.streams;
    this.resume = parts.resume;
    this.link = parts.link;
  }

  /** Read at each use: clear and restore replace the table, and late answers compare it. */
  private get calls(): Table<CallRow> {
    return this.rows();
  }

  /** The walk's next input after `seconds`; its seq makes it harmless once the walk moved on. */
  private later(d: Draft, seconds: number, input: WalkInput): void {
    this.rt.jobs.schedule('calls.resume', this.rt.clock.now() + Math.round(seconds * 1000), { callId: d.id, seq: d.seq, input });
  }

  /**
   * The phone's answer at a prompt (docs/decisions.md "Calls", replies by what was heard): the first reply whose `heard` pattern matches
   * what it heard since its previous input, else the next entry of `keys`, else no input.
   */
  private answerPrompt(d: Draft): { keys: string; speakSeconds: number } {
    const heard = d.sinceInput.join('\n');
    const i = d.callee.replies.findIndex((r) => new RegExp(r.heard, 'i').test(heard));
    let keys: string;
    let answer: string;
    let speakSeconds = d.callee.speakSeconds;
    if (i >= 0) {
      const r = d.callee.replies[i]!;
      keys = r.keys;
      answer = `reply:${i}`;
      if (r.speakSeconds !== null) speakSeconds = r.speakSeconds;
    } else if (d.keyIndex < d.callee.keys.length) {
      keys = d.callee.keys[d.keyIndex]!;
      answer = `keys:${d.keyIndex}`;
      d.keyIndex++;
    } else {
      keys = '';
      answer = 'none';
    }
    d.entered = [...d.entered, keys];
    d.prompts = [...d.prompts, { heard, entered: keys, answer }];
    d.sinceInput = [];
    return { keys, speakSeconds };
  }

  private hear(d: Draft, text: string): void {
    if (text === '') return;
    d.heard = [...d.heard, text];
    d.sinceInput = [...d.sinceInput, text];
  }

  /** Runs one effect on the step's draft; an 'end' effect is the progression's to handle. */
  perform(d: Draft, e: Exclude<Effect, { type: 'end' }>): void {
    switch (e.type) {
      case 'say':
        return this.hear(d, e.text);
      case 'play':
        return;
      case 'wait':
        return this.later(d, e.seconds, { kind: 'elapsed' });
      case 'listen': {
        this.hear(d, e.prompt);
        const entry = this.answerPrompt(d).keys;
        const spoken = e.prompt === '' ? 0 : speechSeconds(e.prompt);
        return this.later(d, spoken + (entry === '' ? e.timeoutSec : KEY_SECONDS), { kind: 'keys', keys: entry });
      }
      case 'record': {
        this.hear(d, e.prompt);
        const { keys: entry, speakSeconds } = this.answerPrompt(d);
        const seconds = Math.min(speakSeconds, e.maxLengthSec);
        const base = `/v1/accounts/${d.accountId}/recordings/${d.id}`;
        d.recordingUrl = this.link(base); // signed before 2026-07-28 (rules/recording-links.ts)
        const spoken = (e.prompt === '' ? 0 : speechSeconds(e.prompt)) + (e.playBeep ? 1 : 0);
        return this.later(d, spoken + seconds, { kind: 'recorded', keys: entry, seconds, url: `${base}/verb/${encodeURIComponent(e.name)}` });
      }
      case 'message':
        return this.sendText(d, e.to, e.body, e.subject);
      case 'optout':
        return this.optOut(d, e.number, e.channel, e.note);
      case 'http':
        return this.request(d, e);
      case 'dial':
        return this.dial(d, e);
      case 'stream':
        return this.stream(d, e);
    }
  }

  /** VoiceML <Connect><Stream>: the phone talks (its speakSeconds) and presses its next keys into the customer's WebSocket. */
  private stream(d: Draft, e: Extract<Effect, { type: 'stream' }>): void {
    const { keys, speakSeconds } = this.answerPrompt(d);
    const streamSid = `MZ${this.rt.random.hex(32)}`;
    const { id, seq } = d;
    const rows = this.calls;
    const start = this.rt.clock.now();
    this.streams.open({ url: e.url, name: e.name, streamSid, callId: id, accountId: d.accountId, from: d.from, to: d.to, frames: streamFrames(speakSeconds), keys }, (outcome) => {
      if (this.calls !== rows) return; // the state was replaced meanwhile
      const { input, afterMs } = streamEnded(streamSid, outcome);
      this.rt.jobs.schedule('calls.resume', Math.max(this.rt.clock.now(), start + afterMs), { callId: id, seq, input });
    });
  }

  /** The platform's number on the line sends a text, by default to the phone on the line; a refused send is skipped. */
  private sendText(d: Draft, to: string | null, body: string, subject: string | null): void {
    const own = d.direction === 'outbound' ? d.from : d.to;
    const phone = d.direction === 'outbound' ? d.to : d.from;
    try {
      this.rt.messages.send(d.accountId, { To: to ?? phone, From: own, Body: body, ...(subject ? { Subject: subject } : {}) });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  private optOut(d: Draft, number: string, channel: 'call' | 'message', note: string | null): void {
    try {
      this.rt.blockLists.recipients.create(d.accountId, { number, channel, note, source: 'ars', sourceRef: d.id, createdBy: null });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
    }
  }

  private request(d: Draft, e: Extract<Effect, { type: 'http' }>): void {
    if (this.http.refusal(e.url) !== undefined) return this.later(d, 0, { kind: 'http', status: null, body: null });
    const { id, seq } = d;
    const rows = this.calls;
    this.http.send({ method: e.method, url: e.url, headers: e.headers, body: e.body }, (answer) => {
      if (this.calls !== rows) return; // the state was replaced meanwhile
      this.resume(id, seq, { kind: 'http', status: answer.status, body: answer.body });
    });
  }

  /** A dial block is a blind transfer leg (transfer-legs.ts); the flow goes on when the leg ends (a leg on the wire: when its device's answer says). */
  private dial(d: Draft, e: Extract<Effect, { type: 'dial' }>): void {
    if (d.voiceml) return this.voiceMlDial(d, e);
    const onWireEnd = this.wireResume(d, (outcome: string) => ({ kind: 'dialed', outcome }));
    const started = this.legs.start(d, { to: e.value, mode: 'blind', timeoutSec: e.timeoutSec, origin: 'dial', context: null, onWireEnd });
    d.transfers = started.row.transfers;
    if (started.seconds !== null) this.later(d, started.seconds, { kind: 'dialed', outcome: started.outcome });
  }

  /** Feeds the walk when a dial on the wire ends, unless the state was replaced meanwhile. */
  private wireResume<A extends unknown[]>(d: Draft, input: (...a: A) => WalkInput): (...a: A) => void {
    const { id, seq } = d;
    const rows = this.calls;
    return (...a) => {
      if (this.calls === rows) this.resume(id, seq, input(...a));
    };
  }

  /** VoiceML's <Dial> is not recorded as a transfer (guides), so it only asks the carrier how the callee answers, or rings a SIP URI on the wire. */
  private voiceMlDial(d: Draft, e: Extract<Effect, { type: 'dial' }>): void {
    if (e.kind === 'sip') {
      const onEnd = this.wireResume(d, (outcome: string, talkSeconds: number) => ({ kind: 'dialed', outcome, talkSeconds }));
      const wired = this.legs.dialVoiceMl(d, e.value, e.timeoutSec, onEnd);
      if (wired === 'dialing') return;
      if (wired === 'no-route') return this.later(d, 0, { kind: 'dialed', outcome: 'failed' });
      return this.later(d, 2 + DIAL_TALK_SECONDS, { kind: 'dialed', outcome: 'completed', talkSeconds: DIAL_TALK_SECONDS });
    }
    let to: string;
    try {
      to = normalizePhone(e.value, 'target');
    } catch {
      return this.later(d, 0, { kind: 'dialed', outcome: 'failed' });
    }
    const decision = this.rt.carrier.decide(to, 'call', e.timeoutSec);
    if (decision.outcome !== 'delivered') return this.later(d, decision.delaySeconds, { kind: 'dialed', outcome: decision.outcome });
    const talk = decision.callee?.hangupAfterSeconds ?? DIAL_TALK_SECONDS;
    this.later(d, decision.delaySeconds + talk, { kind: 'dialed', outcome: 'completed', talkSeconds: talk });
  }
}
