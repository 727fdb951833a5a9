// Calls handled by a registered handler (handlers.ts; docs/agents.md "The seam"): the calls
// family tells the handler when its call is answered, how a transfer leg it started goes and when
// the call ends, and offers it the call's actions: speak a turn into the conversation, the
// phone's turn (peers/phone-talk.ts), hang up, transfer through the transfer-leg engine, opt the
// caller out. Records, statuses, callbacks, usage and recordings stay the calls family's.
import { ApiError } from '../../core/errors.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { Table } from '../../core/store.ts';
import { INITIAL_TALK, phoneTurn, type PhoneTurn } from '../../peers/phone-talk.ts';
import { platformSide, phoneSide, type Ending } from './endings.ts';
import type { TransferLegs } from './transfer-legs.ts';
import { isEnded, legDuration, type TransferLegRow } from './transfers.ts';
import { CallHandlers, type OfferedCallActions, type CallActions, type CallFacts, type EndedBy, type HandledCall, type LegProgress, type TransferInput } from './handlers.ts';
import type { Turn } from './conversation.ts';
import type { CallRow, HangupSource } from './schema.ts';
import type { CallsModelScope } from './ports.ts';

/** Ring seconds of a handler's transfer leg when it names none. */
export const HANDLER_TRANSFER_TIMEOUT = 30;

/** The clock, add-ons, number owners and the opt-out list, as handled calls use them (the calls' scope). */
export type HandledKernel = Pick<CallsModelScope, 'clock' | 'accounts' | 'numbers' | 'blockLists'>;

export interface HandledParts {
  rt: HandledKernel;
  calls: () => Table<CallRow>;
  legs: TransferLegs;
  /** Ends the call with its callbacks and events (progress.ts). */
  end: (row: CallRow, ending: Ending, source: HangupSource, cause?: string) => CallRow;
  /** Answers a ringing call now (progress.ts). */
  answer: (row: CallRow) => void;
}

/** The phone's side of the call (the customer's number). */
export const phoneNumberOf = (row: CallRow) => (row.direction === 'outbound' ? row.to : row.from);

export class HandledCalls implements CallActions, CallFacts, OfferedCallActions {
  readonly handlers = new CallHandlers();
  private readonly live = new Map<string, (p: LegProgress) => void>(); // "callId sequence" → a live listener of the leg's progress

  constructor(private readonly parts: HandledParts) {}

  private get calls(): Table<CallRow> {
    return this.parts.calls();
  }

  private open(callId: string): CallRow | undefined {
    const row = this.calls.get(callId);
    return row && row.status === 'in-progress' && row.handler ? row : undefined;
  }

  /** The call as its handler sees it at the answer. */
  handledCall(row: CallRow): HandledCall {
    return {
      callId: row.id,
      accountId: row.accountId,
      direction: row.direction,
      from: row.from,
      to: row.to,
      target: row.handler!.target,
      answeredAt: Date.parse(row.answeredAt!),
      context: row.context ?? null,
      dictionaryId: row.dictionaryId ?? null,
    };
  }

  /** An outbound call it handles started ringing. */
  ringing(row: CallRow): void {
    const handler = row.handler && this.handlers.get(row.handler.kind);
    if (!handler?.ringing) return;
    const { answeredAt: _, ...call } = this.handledCall({ ...row, answeredAt: row.answeredAt ?? new Date(0).toISOString() });
    handler.ringing(call);
  }

  /** The call was answered: its handler takes it (a handler no longer registered ends it as an app error). */
  answered(row: CallRow): void {
    const handler = row.handler && this.handlers.get(row.handler.kind);
    if (!handler) return void this.parts.end(row, 'normal', 'app', 'app_error');
    handler.answered(this.handledCall(row));
  }

  /** The call is about to end: its handler may still speak its last turns; the row as it is now. */
  ending(row: CallRow): CallRow {
    if (!row.handler) return row;
    this.handlers.get(row.handler.kind)?.ending?.(row.id);
    return this.calls.get(row.id) ?? row;
  }

  /** The call ended, whoever ended it. */
  ended(row: CallRow): void {
    if (!row.handler) return;
    for (const key of [...this.live.keys()]) if (key.startsWith(`${row.id} `)) this.live.delete(key);
    this.handlers.get(row.handler.kind)?.ended(row.id);
  }

  /** A leg moved (transfer-legs.ts): a handler's leg reports its connect and its end. */
  legMoved(row: CallRow, leg: TransferLegRow): void {
    if (!row.handler || leg.origin !== 'handler') return;
    let progress: LegProgress;
    if (leg.status === 'connected') progress = { phase: 'connected' };
    else if (isEnded(leg.status)) progress = { phase: 'ended', status: leg.status, duration: legDuration(leg) ?? 0, connected: leg.connectedAt !== null, sipResponseCode: leg.sipResponseCode };
    else return;
    const key = `${row.id} ${leg.sequence}`;
    this.live.get(key)?.(progress);
    if (progress.phase === 'ended') this.live.delete(key);
    this.handlers.get(row.handler.kind)?.transferProgress(row.id, progress);
  }

  // --- the actions handlers get ---

  speak(callId: string, turn: Turn): void {
    const row = this.calls.get(callId);
    if (!row || row.dateUpdated !== null) return;
    this.calls.replace({ ...row, conversation: [...(row.conversation ?? []), turn] });
  }

  phoneTurn(callId: string, heard: string): PhoneTurn {
    const row = this.calls.get(callId);
    if (!row) return { kind: 'hangup', answer: 'none' };
    const script = { replies: row.callee.replies, lines: row.callee.lines ?? [] };
    const r = phoneTurn(script, row.talk ?? INITIAL_TALK, heard);
    if (r.state !== (row.talk ?? INITIAL_TALK)) this.calls.replace({ ...row, talk: r.state });
    return r.turn;
  }

  hangUp(callId: string, by: EndedBy, detail?: string): void {
    let row = this.open(callId);
    if (!row) return;
    if (detail !== undefined) {
      // The platform's reason goes into the conversation as an event at this point of the call.
      const at = this.parts.rt.clock.now() - Date.parse(row.answeredAt!);
      this.speak(callId, { speaker: 'agent', party: 0, text: null, startMs: at, endMs: at, detail: { events: [`hangup: ${detail}`] } });
      row = this.calls.get(callId)!;
    }
    switch (by) {
      case 'agent':
      case 'party':
        return void this.parts.end(row, 'normal', platformSide(row.direction));
      case 'phone':
        return void this.parts.end(row, 'normal', phoneSide(row.direction));
      case 'app_error':
        return void this.parts.end(row, 'normal', 'app', 'app_error');
      case 'stuck':
        return void this.parts.end(row, 'normal', 'system', 'call_stuck');
    }
  }

  transfer(callId: string, request: TransferInput, progress?: (p: LegProgress) => void): { started: true } | { started: false; status: string; reason: string } {
    const row = this.open(callId);
    if (!row) return { started: false, status: 'failed', reason: `call ${callId} is not connected` };
    if ((row.transfers ?? []).some((l) => !isEnded(l.status))) return { started: false, status: 'failed', reason: `call ${callId} already has a transfer leg open` };
    const to = request.to.trim();
    if (to === '' || (!/^sips?:/i.test(to) && !/^[+\d][\d\s\-().]*$/.test(to))) return { started: false, status: 'failed', reason: `${request.to} is not a phone number or a SIP URI` };
    const refused = this.refusal(row, to, request);
    if (refused) return { started: false, status: 'failed', reason: refused };
    const started = this.parts.legs.start(row, { to, mode: request.mode, timeoutSec: request.timeout ?? HANDLER_TRANSFER_TIMEOUT, origin: 'handler', context: request.context ?? null });
    this.calls.replace(started.row);
    if (progress) this.live.set(`${callId} ${started.leg.sequence}`, progress);
    return { started: true };
  }

  pickUp(callId: string): void {
    const row = this.calls.get(callId);
    if (row && row.status === 'ringing' && row.handler) this.parts.answer(row);
  }

  refuse(callId: string, ending: 'busy' | 'no-answer' | 'rejected' | 'failed', source: 'callee' | 'carrier'): void {
    const row = this.calls.get(callId);
    if (row && row.status === 'ringing' && row.handler) this.parts.end(row, ending, source);
  }

  /** A ringing inbound call goes to a handler that rings its own device; false when its handler answers through the platform. */
  offered(row: CallRow): boolean {
    const handler = row.handler && this.handlers.get(row.handler.kind);
    if (!handler?.offer) return false;
    const { answeredAt: _, ...call } = this.handledCall({ ...row, answeredAt: new Date(0).toISOString() });
    handler.offer(call);
    return true;
  }

  optOut(callId: string, channel: 'call' | 'message'): void {
    const row = this.calls.get(callId);
    if (!row) return;
    try {
      this.parts.rt.blockLists.recipients.create(row.accountId, { number: phoneNumberOf(row), channel, note: null, source: 'agent', sourceRef: row.id, createdBy: null });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err; // a number the list cannot hold: nothing to opt out
    }
  }

  /**
   * Why a handler's transfer may not start (SDK transfers, reference "Transfers from the SDK"):
   * a SIP target needs the sip_trunk add-on; a caller ID must be one of the account's numbers or
   * the call's original caller (UNOWNED_CALLER_ID).
   */
  private refusal(row: CallRow, to: string, request: TransferInput): string | undefined {
    const sip = request.destinationType === 'sip' || /^sips?:/i.test(to);
    if (sip && !this.parts.rt.accounts.hasAddon(row.accountId, 'sip_trunk')) return 'a SIP transfer needs the sip_trunk add-on';
    if (request.callerId) {
      const id = tryNormalizePhone(request.callerId);
      const original = row.direction === 'inbound' ? row.from : null;
      const owned = id.ok && this.parts.rt.numbers.ownerOf(id.number) === row.accountId;
      if (!id.ok || (!owned && id.number !== original)) return 'UNOWNED_CALLER_ID';
    }
    return undefined;
  }

  outcome(callId: string): { status: string; duration: number; sipResponseCode: number | null } | undefined {
    const row = this.calls.get(callId);
    if (!row || row.dateUpdated === null) return undefined;
    return { status: row.status, duration: row.duration ?? 0, sipResponseCode: row.sipResponseCode };
  }

  phoneSays(callId: string): string[] {
    const row = this.calls.get(callId);
    if (!row) return [];
    return [...(row.callee.lines ?? []), ...row.callee.replies.flatMap((r) => (r.say ? [r.say] : []))];
  }

  /** An inbound call goes to a handler that claims its number (a connected SDK wins over routing). */
  claimant(accountId: string, number: string): CallRow['handler'] | undefined {
    const sdk = this.handlers.get('sdk');
    return sdk?.claims?.(accountId, number) ? { kind: 'sdk', target: number } : undefined;
  }
}
