// Warm transfers an agent asks for over its control socket (protocol §6 `mode: "warm"`): the caller
// is on hold from the request, hearing the request's `holdMedia` (hold-media.ts), while the target
// rings; when the target answers it hears the `whisper` (speech peer audio of the text, its own
// length), then the caller is bridged; with no whisper the caller is bridged at the answer. A leg
// that ends first (no answer, busy, the target hanging up during the whisper) ends the hold with no
// bridge. The conversation shows it as a managed agent's warm transfer: `transfer:<to>` and `hold`
// at the request, the whisper as an agent turn with its text (event `whisper`: in the transcript as
// speaker_0 and in the recording, the platform records every leg it bridges), `bridged` when it is
// said. The agent's control events are the blind transfer's (docs/decisions.md "Agent SDK").
import type { ConversationTurn } from './call-ports.ts';
import type { TransferRequest } from './control-messages.ts';
import type { SdkCall } from './sdk-call.ts';

export interface WarmTransfersDeps {
  now(): number;
  /** Appends a platform turn to the call's conversation (after the phone's turns so far). */
  speak(call: SdkCall, turn: ConversationTurn): void;
  /** How long the speech peer's audio of a prepared text lasts, ms. */
  speechMs(text: string): number;
  /** Runs `bridged(callId)` at `due` (virtual ms); a handle to cancel it. */
  scheduleBridge(callId: string, due: number): number;
  cancel(handle: number): void;
}

const eventTurn = (at: number, rule: string, events: string[]): ConversationTurn => ({ speaker: 'agent', party: 0, text: null, startMs: at, endMs: at, detail: { rule, events } });

export class WarmTransfers {
  constructor(private readonly d: WarmTransfersDeps) {}

  /** Ms on the call's media clock (from the answer). */
  private at(call: SdkCall): number {
    const now = this.d.now();
    return now - (call.answeredAt ?? now);
  }

  /** The warm transfer started: the caller is on hold, hearing its hold media. */
  begin(call: SdkCall, req: TransferRequest): void {
    const at = this.at(call);
    const hold = { fromMs: at, toMs: undefined, media: req.holdMedia };
    call.holds.push(hold);
    call.warm = { to: req.to, whisper: req.whisper, hold, bridgeTimer: undefined };
    this.d.speak(call, eventTurn(at, `warm transfer: the caller hears ${req.holdMedia}`, [`transfer:${req.to}`, 'hold']));
  }

  /** The target answered: it hears the whisper, or is bridged at once without one. */
  answered(call: SdkCall): void {
    const warm = call.warm;
    if (!warm || warm.bridgeTimer !== undefined) return;
    if (warm.whisper === null) return this.bridge(call);
    const at = this.at(call);
    const ms = this.d.speechMs(warm.whisper);
    this.d.speak(call, { speaker: 'agent', party: 0, text: warm.whisper, startMs: at, endMs: at + ms, detail: { rule: `warm transfer: whisper to ${warm.to}`, events: ['whisper'] } });
    call.announcements.push({ atMs: at, text: warm.whisper });
    warm.bridgeTimer = this.d.scheduleBridge(call.info.callId, this.d.now() + ms);
  }

  /** The whisper has been said: the caller is bridged (unless the leg or the call ended meanwhile). */
  bridged(call: SdkCall): void {
    if (!call.warm || call.phase === 'ended') return;
    call.warm.bridgeTimer = undefined;
    this.bridge(call);
  }

  /** The leg ended: a hold still running ends now, with no bridge. */
  legEnded(call: SdkCall): void {
    this.release(call);
  }

  /** The call ended: a hold still running ends with it. */
  callEnded(call: SdkCall): void {
    this.release(call);
  }

  private bridge(call: SdkCall): void {
    const warm = call.warm!;
    const at = this.at(call);
    warm.hold.toMs = at;
    call.warm = undefined;
    this.d.speak(call, eventTurn(at, `warm transfer: caller bridged to ${warm.to}`, ['bridged']));
  }

  private release(call: SdkCall): void {
    const warm = call.warm;
    if (!warm) return;
    if (warm.bridgeTimer !== undefined) this.d.cancel(warm.bridgeTimer);
    warm.hold.toMs = this.at(call);
    call.warm = undefined;
  }
}
