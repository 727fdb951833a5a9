// What the Agent SDK family's call handler needs from others (the agent seam, docs/agents.md): the
// call's actions the calls family offers its handlers, the phone's turn (carrier peer), speech
// (speech peer), the clock's timers, the webhook events, and where media URLs point. Narrow on
// purpose: the handler never sees a call record or another family's model.
import type { TransferRequest } from './control-messages.ts';

/** Who ends the call (the seam's EndedBy, plus the platform's timeouts). */
export type SdkEndedBy = 'agent' | 'phone' | 'party' | 'app_error' | 'stuck';

/** The phone's next turn after hearing `heard` (the carrier's phone-turn rule). */
export type PhoneTurnResult = { kind: 'speak'; say: string | null; keys: string | null; answer: string } | { kind: 'hangup'; answer: string };

/** One turn of the conversation log (times in virtual ms from the answer: the call's media clock). */
export interface ConversationTurn {
  speaker: 'agent' | 'caller' | 'party';
  party: number;
  text: string | null;
  startMs: number;
  endMs: number;
  detail: { answer?: string; dtmf?: string; events?: string[]; rule?: string };
}

/** How a transfer leg went, as the calls family's leg engine reports it. */
export type LegProgress =
  | { phase: 'connected' }
  | { phase: 'ended'; status: string; duration: number; connected: boolean };

export interface SdkCallActions {
  phoneTurn(callId: string, heard: string): PhoneTurnResult;
  speak(callId: string, turn: ConversationTurn): void;
  /** Ends the call now; `detail` names the platform's reason (CALL_STUCK_MEDIA_WS_TIMEOUT...). */
  hangUp(callId: string, by: SdkEndedBy, detail?: string): void;
  /** Starts a transfer leg with every SDK parameter; the refusal names why (UNOWNED_CALLER_ID, sip_trunk...). */
  transfer(callId: string, request: TransferRequest, progress: (p: LegProgress) => void): { started: true } | { started: false; status: string; reason: string };
}

/** The family's call timers: no media came, a failure message was said, a warm transfer's whisper was said. */
export type TimerKind = 'stuck-media' | 'announce-end' | 'warm-bridge';

export interface TimerPort {
  now(): number;
  /** Runs `kind` for the call at `due` (virtual ms); returns a handle to cancel it. */
  schedule(kind: TimerKind, due: number, callId: string): number;
  cancel(handle: number): void;
}

export interface SdkEventsPort {
  /** `agent.connected` / `agent.disconnected` for the account's webhooks. */
  agentConnection(event: 'agent.connected' | 'agent.disconnected', accountId: string, number: string, at: string): void;
}

export interface SpeechPort {
  /** Synthesises the texts (async, once per text; the I/O barrier waits for it). */
  prepare(texts: readonly string[]): Promise<void>;
  /** μ-law audio of a text prepared before (whole frames). */
  audio(text: string): Buffer;
  /** Whether the engine has loaded (a text can be spoken now, prepared or not). */
  ready(): boolean;
}
