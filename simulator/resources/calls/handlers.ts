// Call handlers (docs/agents.md "The seam between calls and agents"): besides a flow or a
// VoiceML document, a call can be handled by a handler another family registers by kind, a
// managed agent (`agent`) or the customer's own runtime (`sdk`). Calls need nothing from them:
// a handler family needs calls and registers here. A handler can refuse a call before anything
// is stored; it hears when its call is answered, when a transfer leg it started ends and when
// the call ends; it acts on the call through the actions the calls family offers.
import type { PhoneTurn } from '../../peers/phone-talk.ts';
import type { Turn } from './conversation.ts';

export const HANDLER_KINDS = ['agent', 'sdk', 'sip'] as const;
export type HandlerKind = (typeof HANDLER_KINDS)[number];

/**
 * Who ends the call when its handler ends it: agent and phone normally (the platform's or the
 * phone's side), party (a transfer party hung up), app_error (a platform failure), stuck (the
 * platform gave up on a call whose media never came: cause call_stuck).
 */
export type EndedBy = 'agent' | 'phone' | 'party' | 'app_error' | 'stuck';

/** How a transfer leg a handler started went, as the leg engine reports it. */
export type LegProgress = { phase: 'connected' } | { phase: 'ended'; status: string; duration: number; connected: boolean; sipResponseCode?: number | null };

/** A transfer a handler asks for (an SDK request carries more fields; they are ignored here). */
export interface TransferInput {
  to: string;
  /** refer and refer-attended: a SIP client's REFER (sip-server/refer.ts). */
  mode: 'blind' | 'warm' | 'refer' | 'refer-attended';
  /** Ring timeout in seconds; default the leg engine's. */
  timeout?: number;
  /** JSON text forwarded as TransferContext in the transfer status callback. */
  context?: string | null;
  /** pstn (a number) or sip (a URI): sip needs the account's sip_trunk add-on. */
  destinationType?: 'pstn' | 'sip';
  /** The caller ID the target sees: one of the account's numbers or the call's original caller, else UNOWNED_CALLER_ID. */
  callerId?: string | null;
}

/** A call as its handler sees it when it is answered. */
export interface HandledCall {
  callId: string;
  accountId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  /** What handles it: the agent id (agent), the number whose runtime holds it (sdk), the SIP dialog (sip). */
  target: string;
  /** Virtual ms of the answer: position 0 of the call's media. */
  answeredAt: number;
  /** CallContext of createCall (or the number's callContextUrl), when given. */
  context: { instruction: string | null; variables: Record<string, string> } | null;
  /** The dictionary of the number on the platform's side (null: the account's default). */
  dictionaryId: string | null;
}

/** What the calls family asks of a handler. */
export interface CallHandler {
  /** Refuses a call before anything is stored (throws the API error); nothing else. */
  check(accountId: string, target: string): void;
  /** Inbound calls: whether the handler takes calls to this number whatever its routing (a connected SDK). */
  claims?(accountId: string, number: string): boolean;
  /**
   * Inbound calls it handles that it rings itself (SIP devices): instead of being answered by the
   * platform, the ringing call is offered; the handler then picks it up or refuses it (CallActions).
   */
  offer?(call: Omit<HandledCall, 'answeredAt'>): void;
  /** An outbound call it handles started ringing (the Agent SDK's call.ringing); `answeredAt` is not known yet. */
  ringing?(call: Omit<HandledCall, 'answeredAt'>): void;
  answered(call: HandledCall): void;
  /** A transfer leg the handler started connected or ended (also after a snapshot was restored). */
  transferProgress(callId: string, progress: LegProgress): void;
  /** The call is about to end, whoever ends it: the handler's last turns still join the conversation. */
  ending?(callId: string): void;
  /** The call ended, whoever ended it. */
  ended(callId: string): void;
}

/** What the calls family offers a handler to act on its call. */
export interface CallActions {
  /** Appends a turn to the call's conversation (times on the call's media position). */
  speak(callId: string, turn: Turn): void;
  /** The phone's next turn after hearing `heard` (docs/agents.md "Phones that talk"); its state stays with the call. */
  phoneTurn(callId: string, heard: string): PhoneTurn;
  /** Ends the call (see EndedBy); `detail` is the platform's reason, shown on the call's timeline. */
  hangUp(callId: string, by: EndedBy, detail?: string): void;
  /**
   * Starts a transfer leg through the leg engine. The handler hears its progress through
   * `transferProgress`, and `progress` too when given (a live listener, not kept in snapshots).
   * A refusal says why it did not start (`status` as a leg's: failed, busy...).
   */
  transfer(callId: string, request: TransferInput, progress?: (p: LegProgress) => void): { started: true } | { started: false; status: string; reason: string };
  /** Adds the caller to the account's opt-out list: source agent, sourceRef the call id. */
  optOut(callId: string, channel: 'call' | 'message'): void;
}

/** What a handler that rings its own device (`offer`) does with the offered call. */
export interface OfferedCallActions {
  /** The offered call is answered now (its device picked up). */
  pickUp(callId: string): void;
  /** The offered call is not answered: it ends as `ending`, ended by `source`. */
  refuse(callId: string, ending: 'busy' | 'no-answer' | 'rejected' | 'failed', source: 'callee' | 'carrier'): void;
}

/** What a handler may read of its call besides acting on it (the Agent SDK's call.ended, its phone's speech). */
export interface CallFacts {
  /** How the call ended: its status, duration in seconds and SIP code (undefined while it is not over). */
  outcome(callId: string): { status: string; duration: number; sipResponseCode: number | null } | undefined;
  /** What the phone may say in the call, every line and reply's `say` (to synthesise before the media flows). */
  phoneSays(callId: string): string[];
}

/** The handlers registered by kind (one each). */
export class CallHandlers {
  private readonly byKind = new Map<HandlerKind, CallHandler>();

  register(kind: HandlerKind, handler: CallHandler): void {
    if (this.byKind.has(kind)) throw new Error(`a call handler of kind ${kind} is registered twice`);
    this.byKind.set(kind, handler);
  }

  get(kind: HandlerKind): CallHandler | undefined {
    return this.byKind.get(kind);
  }
}
