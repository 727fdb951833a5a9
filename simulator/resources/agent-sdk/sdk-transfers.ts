// Transfers an agent asks for over its control socket (protocol §6). A request runs through the
// calls family's transfer-leg engine (one leg per attempt, recorded in the call's `transfers`,
// the `transfer` status callbacks, usage), and the agent hears `call.transfer.started`, then
// `call.transfer.connected` when the target answers, then `call.transfer.completed` or
// `call.transfer.failed` with `transfer {status, duration}`; every event carries `callId` and
// echoes the request's `requestId` when it had one.
//   terminate (default): the media socket closes when the transfer starts (the caller is with the
//     target); if the leg fails, `failureMessage` is said to the caller, then the call ends.
//   return: the media stays open; the phone takes no turn while the leg runs (the caller is on hold
//     or with the target) and is back with the agent when it ends.
// mode warm: the caller holds (its holdMedia) until the target has heard the whisper (warm-transfers.ts).
// A refused request (a bad field, a caller ID the account does not own, SIP without the add-on, a
// call not connected to the agent, a transfer already under way) is answered at once with
// `call.transfer.failed` and the call stays with the agent.
import type { SdkCallActions, LegProgress } from './call-ports.ts';
import type { TransferRequest } from './control-messages.ts';
import type { SdkCall } from './sdk-call.ts';
import type { WarmTransfers } from './warm-transfers.ts';

export interface SdkTransfersDeps {
  send(call: SdkCall, event: Record<string, unknown>): void;
  actions: () => SdkCallActions;
  /** Closes the call's media (stop, then close) without ending the call. */
  stopMedia(call: SdkCall): void;
  now(): number;
  /** Says the text to the caller, then hangs up (a failed transfer's failureMessage). */
  announceThenHangUp(call: SdkCall, text: string): void;
  warm: WarmTransfers;
}

const withRequest = (callId: string, requestId: string | null): Record<string, unknown> => (requestId ? { callId, requestId } : { callId });

export class SdkTransfers {
  /** Calls with a transfer under way (one at a time per call). */
  private readonly pending = new Set<string>();

  constructor(private readonly d: SdkTransfersDeps) {}

  request(call: SdkCall, req: TransferRequest): void {
    const callId = call.info.callId;
    if (call.phase !== 'media') return this.refuse(call, req.requestId, 'failed', `call ${callId} is not connected to the agent (${call.phase})`);
    if (this.pending.has(callId)) return this.refuse(call, req.requestId, 'failed', `call ${callId} already has a transfer under way`);
    const how = [req.mode, req.afterTransfer, ...(req.mode === 'warm' ? [`hold ${req.holdMedia}`, req.whisper === null ? 'no whisper' : 'whisper'] : [])].join(', ');
    const entry = { requestId: req.requestId, to: req.to, how, status: 'initiated' };
    const started = this.d.actions().transfer(callId, req, (p) => this.progress(call, req, entry, p));
    if (!started.started) return this.refuse(call, req.requestId, started.status, started.reason);
    call.transfers.push(entry);
    this.pending.add(callId);
    this.d.send(call, { event: 'call.transfer.started', ...withRequest(callId, req.requestId) });
    if (req.afterTransfer === 'terminate') {
      call.phase = 'transferred';
      this.d.stopMedia(call);
    } else call.session?.phone.leave();
    if (req.mode === 'warm') this.d.warm.begin(call, req);
  }

  /** Answers a request that never started: failed at once, the call stays with the agent. */
  refuse(call: SdkCall, requestId: string | null, status: string, reason: string): void {
    call.transfers.push({ requestId, to: '', how: '', status: `refused: ${reason}` });
    this.d.send(call, { event: 'call.transfer.failed', ...withRequest(call.info.callId, requestId), transfer: { status, duration: 0, reason } });
  }

  callEnded(call: SdkCall): void {
    this.pending.delete(call.info.callId);
  }

  private progress(call: SdkCall, req: TransferRequest, entry: { status: string }, p: LegProgress): void {
    const callId = call.info.callId;
    if (p.phase === 'connected') {
      entry.status = 'connected';
      this.d.send(call, { event: 'call.transfer.connected', ...withRequest(callId, req.requestId) });
      if (req.mode === 'warm') this.d.warm.answered(call);
      return;
    }
    this.pending.delete(callId);
    this.d.warm.legEnded(call);
    entry.status = p.status;
    const ok = p.status === 'completed';
    this.d.send(call, { event: ok ? 'call.transfer.completed' : 'call.transfer.failed', ...withRequest(callId, req.requestId), transfer: { status: p.status, duration: p.duration } });
    if (call.phase === 'ended') return;
    if (req.afterTransfer === 'return') call.session?.phone.comeBack();
    if (req.afterTransfer === 'terminate') {
      // The caller was handed over: the call ends with the leg; a failed leg leaves the caller
      // alone on the line, so the failure message is said first (not in return mode).
      if (!ok && req.failureMessage) this.d.announceThenHangUp(call, req.failureMessage);
      else this.d.actions().hangUp(callId, ok ? 'party' : 'agent');
    }
  }
}
