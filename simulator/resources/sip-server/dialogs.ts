// The SIP dialogs of calls on the wire (RFC 3261 §12): one per INVITE that placed a call, found
// by the platform's call id (the call handler's callbacks), by Call-ID and tags (BYE, re-INVITE)
// and by the INVITE's transaction (a retransmission, CANCEL). It keeps what later messages need:
// the INVITE to answer, the flow and its sender, the offer, the remote target for a BYE. Live
// transport state like the nonces: not in snapshots, forgotten on reset and restore.
import { flowKey, type Flow } from './flow.ts';
import type { SipRequest } from './message.ts';
import type { AudioOffer } from './sdp.ts';

export interface Dialog {
  /** The platform's call. */
  callId: string;
  accountId: string;
  invite: SipRequest;
  flow: Flow;
  send: (text: string) => void;
  /** The server's To tag. */
  localTag: string;
  /** early: no final answer yet; confirmed: 200 sent; ended: over (kept only until forgotten). */
  state: 'early' | 'confirmed' | 'ended';
  /** The client's offer (undefined: the INVITE had none, the 200 carries the server's offer). */
  offer: AudioOffer | undefined;
  /** o= version of the server's last SDP. */
  sdpVersion: number;
  /** The last provisional answer sent, for a retransmitted INVITE. */
  lastProvisional: string | undefined;
  /** The client sent BYE or CANCEL: the end is theirs, no BYE goes back. */
  endedByClient: boolean;
  /** CSeq of the server's own requests in the dialog (a BYE). */
  localCseq: number;
  /** Late offer: the ACK carrying the client's answer was read (only the first counts). */
  answerRead?: boolean;
  /** Why the server ends the dialog, for its BYE's Reason header (a late answer with no PCMU). */
  byeReason?: string;
}

const dialogKey = (sipCallId: string, remoteTag: string | undefined, localTag: string) => `${sipCallId}|${remoteTag ?? ''}|${localTag}`;
const transactionKey = (flow: Flow, req: SipRequest) => `${flowKey(flow)}|${req.topVia.branch ?? ''}|${req.callId}`;

export class Dialogs {
  private readonly byCall = new Map<string, Dialog>();
  private readonly byTags = new Map<string, Dialog>();
  private readonly byTransaction = new Map<string, Dialog>();

  add(d: Dialog): void {
    this.byCall.set(d.callId, d);
    this.byTags.set(dialogKey(d.invite.callId, d.invite.from.tag, d.localTag), d);
    this.byTransaction.set(transactionKey(d.flow, d.invite), d);
  }

  ofCall(callId: string): Dialog | undefined {
    return this.byCall.get(callId);
  }

  /** The dialog an in-dialog request belongs to (its To tag is the server's). */
  ofRequest(req: SipRequest): Dialog | undefined {
    return req.to.tag === undefined ? undefined : this.byTags.get(dialogKey(req.callId, req.from.tag, req.to.tag));
  }

  /** The dialog whose INVITE transaction this request matches (same flow, branch and Call-ID). */
  ofTransaction(req: SipRequest, flow: Flow): Dialog | undefined {
    return this.byTransaction.get(transactionKey(flow, req));
  }

  forget(d: Dialog): void {
    d.state = 'ended';
    this.byCall.delete(d.callId);
    this.byTags.delete(dialogKey(d.invite.callId, d.invite.from.tag, d.localTag));
    this.byTransaction.delete(transactionKey(d.flow, d.invite));
  }

  get size(): number {
    return this.byCall.size;
  }

  clear(): void {
    this.byCall.clear();
    this.byTags.clear();
    this.byTransaction.clear();
  }
}
