// The Agent SDK call handler (kind `sdk` of the agent seam): calls to a number whose control slot
// is held, and calls its agent places, from the first control event to `call.ended`.
//   inbound: answered at once; `call.incoming {callId, from, mediaUrl, callerIdRestricted}` to the
//            slot's owner; the media URL's one-time token is valid 30 s.
//   outbound: `call.ringing`, then on answer `call.outbound_ready {callId, from, to, mediaUrl}`;
//            unanswered calls get only `call.ended` with their status and duration 0.
//   both: no media within 30 s ends the call (CALL_STUCK_MEDIA_WS_TIMEOUT); `call.session_failed`
//         ends it at once (AGENT_SESSION_INIT_FAILED); the agent closing its media socket hangs
//         up; `call.ended {callId, status, duration}` goes out once the media socket has closed.
// Control events for a call go to the connection it was routed to while that is open, else to
// the number's current owner (the same process reconnected), else nowhere (journal).
import type { LiveSocket, UpgradeAnswer } from '../../core/live-socket.ts';
import type { SimResponse } from '../../core/operation.ts';
import type { CallVerdict, ControlCallPorts } from './control-session.ts';
import type { TransferRequest } from './control-messages.ts';
import type { ControlPeer, ControlSlots } from './slots.ts';
import { MEDIA_TOKEN_TTL_MS, type MediaTokens } from './media-tokens.ts';
import { MediaSession, type MediaEnd } from './media-session.ts';
import type { MediaPacer } from './media/pacer.ts';
import { SdkCall, type SdkCallInfo } from './sdk-call.ts';
import type { ConversationTurn, SdkCallActions, SpeechPort, TimerPort } from './call-ports.ts';
import { SdkTransfers } from './sdk-transfers.ts';
import { WarmTransfers } from './warm-transfers.ts';
import { holdAudio } from './hold-media.ts';
import { conversationTurns } from './turns.ts';
import { recordingWav } from './recording-mix.ts';
import { FRAME_MS } from './media/engine.ts';

/** Close codes that mean the agent's side failed rather than hung up. */
const APP_FAILURES = new Set([1002, 1006, 1007, 1009]);

/** No media socket within this long after the call is handed over ends the call. */
export const STUCK_MEDIA_MS = 30_000;
/** Largest message on a media socket (a 80,000-byte payload in base64 and its JSON). */
export const MAX_MEDIA_MESSAGE_BYTES = 128 * 1024;

export interface SdkCallsDeps {
  slots: ControlSlots;
  tokens: MediaTokens;
  pacer: MediaPacer;
  timers: TimerPort;
  actions: () => SdkCallActions;
  speech: SpeechPort;
  /** Phone lines this call's phone may say (prepared before its media). */
  phoneLines(callId: string): readonly string[];
  randomHex(chars: number): string;
  /** The media URL for a call and token (the simulator's own origin, as the client reached it). */
  mediaUrl(callId: string, token: string): string;
  warn(accountId: string, message: string, callId?: string): void;
  refuse(status: number, code: string, message: string): SimResponse;
}

export class SdkCalls implements ControlCallPorts {
  readonly calls = new Map<string, SdkCall>();
  readonly transfers: SdkTransfers;
  readonly warm: WarmTransfers;

  constructor(private readonly d: SdkCallsDeps) {
    this.warm = new WarmTransfers({
      now: () => d.timers.now(),
      speak: (c, turn) => this.platformTurn(c, turn),
      speechMs: (text) => this.saidMs(text),
      scheduleBridge: (callId, due) => d.timers.schedule('warm-bridge', due, callId),
      cancel: (h) => d.timers.cancel(h),
    });
    this.transfers = new SdkTransfers({
      warm: this.warm,
      send: (c, e) => this.send(c, e),
      actions: d.actions,
      stopMedia: (c) => this.stopMedia(c),
      now: () => d.timers.now(),
      announceThenHangUp: (c, text) => this.announceThenHangUp(c, text),
    });
  }

  /** The connection that takes calls for the number now, if any (a connected SDK wins over routing). */
  owner(accountId: string, number: string): ControlPeer | undefined {
    return this.d.slots.owner(accountId, number);
  }

  /** A call handed to the number's agent: inbound when it arrives, outbound when createCall places it. */
  begin(info: SdkCallInfo): SdkCall {
    const call = new SdkCall(info, this.owner(info.accountId, info.number));
    call.peer?.calls.add(info.callId);
    this.calls.set(info.callId, call);
    // The phone's lines become audio now, before any media flows (the I/O barrier waits for it):
    // the call is handed to the agent once they are ready, so the phone never waits to speak.
    const ready = () => {
      call.speechReady = true;
      if (call.phase === 'waiting-media' && call.handOverPending) this.handOver(call);
    };
    this.d.speech.prepare(this.d.phoneLines(info.callId)).then(ready, (e: unknown) => {
      this.d.warn(info.accountId, `the phone's lines could not be synthesised: ${(e as Error).message}`, info.callId);
      ready();
    });
    return call;
  }

  /** The outbound callee is ringing. */
  ringing(callId: string): void {
    const call = this.calls.get(callId);
    if (call && call.phase === 'ringing') this.send(call, { event: 'call.ringing', callId });
  }

  /** The call is answered (inbound: at once): hand it to the agent with a media URL. */
  answered(callId: string): void {
    const call = this.calls.get(callId);
    if (!call || call.phase !== 'ringing') return;
    const now = this.d.timers.now();
    call.answeredAt = now;
    call.phase = 'waiting-media';
    if (call.speechReady) this.handOver(call);
    else call.handOverPending = true;
  }

  /** call.incoming / call.outbound_ready with a fresh media URL; the 30 s for the media start now. */
  private handOver(call: SdkCall): void {
    call.handOverPending = false;
    const callId = call.info.callId;
    const now = this.d.timers.now();
    const token = this.d.tokens.issue(callId, call.info.accountId, now, (n) => this.d.randomHex(n));
    const mediaUrl = this.d.mediaUrl(callId, token);
    const i = call.info;
    if (i.direction === 'inbound') this.send(call, { event: 'call.incoming', callId, from: i.from, mediaUrl, callerIdRestricted: i.callerIdRestricted });
    else this.send(call, { event: 'call.outbound_ready', callId, from: i.from, to: i.to, mediaUrl });
    call.stuckTimer = this.d.timers.schedule('stuck-media', now + STUCK_MEDIA_MS, callId);
  }

  /**
   * The platform says `text` to the caller (speech peer audio, its own length), then hangs up:
   * a failed transfer's failureMessage. The words join the conversation as the agent side's.
   */
  private announceThenHangUp(call: SdkCall, text: string): void {
    const now = this.d.timers.now();
    const ms = this.saidMs(text);
    const startMs = now - (call.answeredAt ?? now);
    call.announcements.push({ atMs: startMs, text });
    this.platformTurn(call, { speaker: 'agent', party: 0, text, startMs, endMs: startMs + ms, detail: { events: ['transfer failed: failureMessage'] } });
    this.d.timers.schedule('announce-end', now + ms, call.info.callId);
  }

  /** The failure message has been said: the call ends. */
  announced(callId: string): void {
    const call = this.calls.get(callId);
    if (call && call.phase !== 'ended') this.d.actions().hangUp(callId, 'agent');
  }

  /**
   * How long the platform takes to say a text: its speech audio's length; with the realtime clock
   * a leg can answer before the engine has first loaded (nothing waits for it then): the text
   * speech rule instead (a second per ten characters, at least one).
   */
  private saidMs(text: string): number {
    return this.d.speech.ready() ? this.d.speech.audio(text).length / 8 : Math.max(1, Math.ceil([...text].length / 10)) * 1000;
  }

  /** A warm transfer's whisper has been said: its caller is bridged. */
  bridged(callId: string): void {
    const call = this.calls.get(callId);
    if (call) this.warm.bridged(call);
  }

  /** The platform's own turn (a failure message, a warm transfer's hold and whisper), after the phone's turns so far. */
  private platformTurn(call: SdkCall, turn: ConversationTurn): void {
    this.flushConversation(call);
    this.d.actions().speak(call.info.callId, turn);
  }

  /** The stuck-media timer fired: no media socket came. */
  stuck(callId: string): void {
    const call = this.calls.get(callId);
    if (!call || call.phase !== 'waiting-media') return;
    call.stuckTimer = undefined;
    this.d.actions().hangUp(callId, 'stuck', 'CALL_STUCK_MEDIA_WS_TIMEOUT');
  }

  /** The call is about to end: the phone side's turns so far join its conversation. */
  ending(callId: string): void {
    const call = this.calls.get(callId);
    if (call) this.flushConversation(call);
  }

  /** The call ended, whoever ended it: stop the media, then `call.ended` once it has closed. */
  ended(callId: string, status: string, duration: number): void {
    const call = this.calls.get(callId);
    if (!call || call.ended) return;
    call.ended = { status, duration };
    call.endedAt = this.d.timers.now();
    call.phase = 'ended';
    if (call.stuckTimer !== undefined) this.d.timers.cancel(call.stuckTimer);
    this.d.tokens.revoke(callId);
    this.transfers.callEnded(call);
    this.warm.callEnded(call);
    this.flushConversation(call);
    if (call.session && !call.session.end) call.session.stop(); // call.ended follows its close
    else this.sendEnded(call);
  }

  /** An upgrade to /v1/agent/media/{callId}?token=…: the token must be this call's, unused, within 30 s. */
  media(callId: string, token: string | null, bearerAccount: string | undefined): UpgradeAnswer {
    const call = this.calls.get(callId);
    if (!token) return { refuse: this.d.refuse(401, 'MEDIA_TOKEN_INVALID', 'the media URL needs its token (?token=…)') };
    // Another account's key is refused before the token is used: it must not touch this call.
    const owner = this.d.tokens.accountOf(token);
    if (owner !== undefined && bearerAccount !== undefined && bearerAccount !== owner) return { refuse: this.d.refuse(403, 'FORBIDDEN', `the API key does not belong to the account of call ${callId}`) };
    const r = this.d.tokens.redeem(token, callId, this.d.timers.now());
    if (!r.ok) {
      const why = { unknown: 'is not a media token', used: 'was already used (one use only)', expired: `expired (tokens are valid ${MEDIA_TOKEN_TTL_MS / 1000} s)`, 'other-call': 'belongs to another call' }[r.why];
      return { refuse: this.d.refuse(401, 'MEDIA_TOKEN_INVALID', `the media token ${why}`) };
    }
    if (!call || call.phase !== 'waiting-media') return { refuse: this.d.refuse(409, 'CALL_NOT_LIVE', `call ${callId} is not waiting for its media (it has ended or its media is open)`) };
    return { maxMessageBytes: MAX_MEDIA_MESSAGE_BYTES, accept: (socket) => this.openMedia(call, socket).start() };
  }

  private openMedia(call: SdkCall, socket: LiveSocket): MediaSession {
    if (call.stuckTimer !== undefined) this.d.timers.cancel(call.stuckTimer);
    call.stuckTimer = undefined;
    call.phase = 'media';
    const session = new MediaSession({ streamId: `MZ${this.d.randomHex(32)}`, callId: call.info.callId, accountId: call.info.accountId }, socket, {
      pacer: this.d.pacer,
      phone: {
        nextMove: (heard) => {
          const t = this.d.actions().phoneTurn(call.info.callId, heard);
          return t.kind === 'hangup' ? { hangup: true } : { say: t.say, keys: t.keys };
        },
        speak: (text) => this.d.speech.audio(text),
      },
      phoneHungUp: () => this.d.actions().hangUp(call.info.callId, 'phone'),
      closed: (_s, end) => this.mediaClosed(call, end),
      warn: (m) => this.d.warn(call.info.accountId, m, call.info.callId),
      firstFrame: () => (call.mediaStartedAt = this.d.timers.now()),
    });
    call.session = session;
    return session;
  }

  private mediaClosed(call: SdkCall, end: MediaEnd): void {
    // The platform stopped the media (the call ended, or a transfer took the caller): call.ended
    // goes out now that the socket has closed, if the call has ended.
    if (end.by === 'platform' || call.phase === 'ended' || call.phase === 'transferred') return this.sendEnded(call);
    // The agent hung up (its close frame), or the agent side failed: its process (no close frame,
    // 1006) or the protocol (the socket closed for a malformed or oversized message: 1002/1007/1009).
    this.d.actions().hangUp(call.info.callId, APP_FAILURES.has(end.code) ? 'app_error' : 'agent');
  }

  private stopMedia(call: SdkCall): void {
    this.flushConversation(call);
    call.session?.stop();
  }

  private sendEnded(call: SdkCall): void {
    if (call.endedSent || !call.ended) return;
    call.endedSent = true;
    this.send(call, { event: 'call.ended', callId: call.info.callId, status: call.ended.status, duration: call.ended.duration });
    if (call.peer) this.d.slots.callEnded(call.peer, call.info.callId);
  }

  /** The phone-side turns so far, appended to the call's conversation (once each). */
  private flushConversation(call: SdkCall): void {
    const s = call.session;
    if (!s || call.answeredAt === undefined || call.mediaStartedAt === undefined) return;
    const offset = call.mediaStartedAt - call.answeredAt;
    for (const turn of conversationTurns(s, offset)) this.d.actions().speak(call.info.callId, turn);
  }

  /**
   * The call's recording (WAV): what the agent played, what the phone and the platform said and
   * what a warm transfer's caller heard on hold, on the call's media clock from the answer to the
   * end; undefined before the call has ended or when it was never answered.
   */
  recording(callId: string): Buffer | undefined {
    const call = this.calls.get(callId);
    if (!call?.ended || call.answeredAt === undefined || call.endedAt === undefined) return undefined;
    const lead = Math.round(((call.mediaStartedAt ?? call.answeredAt) - call.answeredAt) / FRAME_MS);
    const s = call.session;
    const agent = (s?.engine.played ?? []).map((r) => ({ at: r.at + lead, frames: r.frames }));
    const phone = (s?.phone.turns ?? []).flatMap((t) => (t.speaker === 'caller' && t.text ? [{ at: t.startFrame + lead, audio: this.d.speech.audio(t.text) }] : []));
    const said = call.announcements.map((a) => ({ at: Math.round(a.atMs / FRAME_MS), audio: this.d.speech.audio(a.text) }));
    const frames = Math.round((call.endedAt - call.answeredAt) / FRAME_MS);
    // What a warm transfer's caller heard on hold, from the request to the bridge (or the leg's end).
    const held = call.holds.map((h) => {
      const at = Math.round(h.fromMs / FRAME_MS);
      return { at, audio: holdAudio(h.media, Math.min(frames, Math.round((h.toMs ?? Infinity) / FRAME_MS)) - at) };
    });
    return recordingWav({ frames, agent, phone: [...phone, ...said, ...held] });
  }

  /** Sends a control event for the call to its connection (or the number's owner now). */
  send(call: SdkCall, event: Record<string, unknown>): void {
    const target = call.peer && call.peer.role !== 'closed' ? call.peer : this.owner(call.info.accountId, call.info.number);
    call.log(this.d.timers.now(), 'sent', String(event.event), target ? undefined : 'no connected agent: not delivered');
    if (!target) return this.d.warn(call.info.accountId, `${String(event.event)} for call ${call.info.callId} not delivered: no control connection for ${call.info.number}`, call.info.callId);
    if (target !== call.peer) {
      call.peer = target;
      target.calls.add(call.info.callId);
    }
    target.send(event);
  }

  // ---- messages from control connections (control-session.ts) ----

  private mine(peer: ControlPeer, callId: string, event: string): SdkCall | undefined {
    const call = this.calls.get(callId);
    if (!call || call.info.accountId !== peer.accountId || call.info.number !== peer.number) return undefined;
    call.log(this.d.timers.now(), 'received', event);
    return call;
  }

  accept(peer: ControlPeer, callId: string): CallVerdict {
    const call = this.mine(peer, callId, 'call.accept');
    if (!call) return 'not-yours';
    if (call.accepted) {
      this.d.warn(peer.accountId, `a second call.accept for call ${callId} was ignored`, callId);
      return 'ignored';
    }
    call.accepted = true;
    return 'ok';
  }

  sessionFailed(peer: ControlPeer, callId: string, reason: string, message: string): CallVerdict {
    const call = this.mine(peer, callId, 'call.session_failed');
    if (!call) return 'not-yours';
    if (call.phase === 'ended') return 'ignored';
    this.d.actions().hangUp(callId, 'app_error', `AGENT_SESSION_INIT_FAILED: ${reason}${message ? `: ${message}` : ''}`);
    return 'ok';
  }

  transfer(peer: ControlPeer, callId: string, request: TransferRequest): CallVerdict {
    const call = this.mine(peer, callId, 'call.transfer');
    if (!call) return 'not-yours';
    // A failure message and a whisper must be audio before the leg can fail or answer (the clock waits for them).
    const texts = [request.failureMessage, request.mode === 'warm' ? request.whisper : null].filter((t): t is string => t !== null);
    if (texts.length > 0) void this.d.speech.prepare(texts);
    if (request.mode === 'blind' && request.whisper !== null) this.d.warn(peer.accountId, 'call.transfer: whisper ignored: only a warm transfer\'s target hears one', callId);
    this.transfers.request(call, request);
    return 'ok';
  }

  transferRefused(peer: ControlPeer, callId: string, requestId: string | null, field: string, reason: string): CallVerdict {
    const call = this.mine(peer, callId, 'call.transfer');
    if (!call) return 'not-yours';
    this.d.warn(peer.accountId, `call.transfer refused: ${field} ${reason}`, callId);
    this.transfers.refuse(call, requestId, 'failed', `invalid_request: ${field} ${reason}`);
    return 'ok';
  }

  report(peer: ControlPeer, callId: string, kind: 'telemetry' | 'metrics'): CallVerdict {
    const call = this.mine(peer, callId, `call.${kind}`);
    if (!call) return 'not-yours';
    call.reports[kind]++;
    return 'ok';
  }
}
