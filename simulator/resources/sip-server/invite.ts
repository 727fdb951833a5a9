// Calls from SIP clients (RFC 3261 §13, §15; spec Authentication 6): an INVITE from a credential
// that answers the proxy challenge (407), or without credentials from an address a trunk
// credential's IP ACL admits, to a domestic number becomes an outbound call of the account. In
// order: who sent it (who.ts), the SDP offer (PCMU or 488), the destination (484 when it is no
// number, 403 when not domestic), the caller id (allowedNumbers, else 403), then the calls
// family's own checks (From the account's, subscription, opt-outs: 403 naming the code). The call
// answers 100 at once; the call handler (call-handler.ts) sends 180, the 200 with the SDP answer
// or the final code of the call's end. BYE and CANCEL from the client hang it up; a re-INVITE in
// the dialog gets a fresh answer. An INVITE without SDP (a late offer, RFC 3264 §4) gets the
// server's offer in the 200 and must answer it in the ACK: its PCMU answer names where RTP goes;
// an ACK without one ends the call with a BYE saying why (Reason, RFC 3326). A refusal places
// nothing.
import { ApiError } from '../../core/errors.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { Answer } from './response.ts';
import { reasonHeader, warning } from './response.ts';
import type { Flow } from './flow.ts';
import type { SipRequest } from './message.ts';
import type { Dialog, Dialogs } from './dialogs.ts';
import type { SipCalls, SipLogins } from './ports.ts';
import { answerOf, readOffer, type AudioOffer } from './sdp.ts';
import { takesMedia, type CallMedia } from './media.ts';
import { callerOf, callerNumber, type WhoParts } from './who.ts';

export interface InviteParts extends WhoParts {
  calls: SipCalls;
  logins: SipLogins;
  dialogs: Dialogs;
  /** The server's To tag for a request (derived: the same request gets the same tag). */
  toTag(req: SipRequest): string;
  /** Writes a response on the flow now and remembers it when final (retransmissions). */
  reply(req: SipRequest, flow: Flow, send: (text: string) => void, answer: Answer): string;
  /** The server's SDP for the dialog (its answer to `offer`, or its own offer). */
  sdp(d: Dialog): string;
  media: CallMedia;
}

const forbid = (why: string): Answer => ({ status: 403, reason: 'Forbidden', headers: [['Warning', warning(why)]] });

/** The SIP answer to a refusal of the calls family (an API error). */
function refusal(e: ApiError): Answer {
  if (e.code === 'INVALID_PHONE_NUMBER') return { status: 484, reason: 'Address Incomplete', headers: [['Warning', warning(`${e.code}: ${e.message}`)]] };
  if (e.status >= 500) return { status: 503, reason: 'Service Unavailable', headers: [['Warning', warning(`${e.code}: ${e.message}`)]] };
  return forbid(`${e.code}: ${e.message}`);
}

/** The offer in a request body: undefined (none), the offer, or the 415/488 that refuses it. */
function offerOf(req: SipRequest): { offer: AudioOffer | undefined } | { answer: Answer } {
  if (req.body.trim() === '') return { offer: undefined };
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/sdp') return { answer: { status: 415, reason: 'Unsupported Media Type', headers: [['Accept', 'application/sdp']] } };
  const read = readOffer(req.body);
  if (!read.ok) return { answer: { status: 488, reason: 'Not Acceptable Here', headers: [['Warning', warning(read.problem)]] } };
  if (!read.offer.pcmu) return { answer: { status: 488, reason: 'Not Acceptable Here', headers: [['Warning', warning('only G.711 mu-law (PCMU, payload 0) is spoken here')]] } };
  return { offer: read.offer };
}

export class SipCallsOnWire {
  constructor(private readonly p: InviteParts) {}

  /** An INVITE: a new call, a retransmission of one in progress, or a re-INVITE in a dialog. */
  invite(req: SipRequest, flow: Flow, send: (text: string) => void): Answer | undefined {
    if (req.to.tag !== undefined) return this.reinvite(req);
    const pending = this.p.dialogs.ofTransaction(req, flow);
    if (pending) {
      send(pending.lastProvisional!); // RFC 3261 §17.2.1: a retransmission gets the last provisional answer
      return undefined;
    }
    const who = callerOf(this.p, req, flow);
    if (!who.ok) return who.answer;
    const media = offerOf(req);
    if ('answer' in media) return media.answer;
    const to = tryNormalizePhone(req.uri.user ?? '', 'the Request-URI user');
    if (!to.ok) {
      return to.code === 'UNSUPPORTED_COUNTRY'
        ? forbid(`only domestic numbers are called from SIP: ${to.message}`)
        : { status: 484, reason: 'Address Incomplete', headers: [['Warning', warning(`call a domestic number as sip:<number>@<realm>: ${to.message}`)]] };
    }
    const caller = callerNumber(this.p.logins, who.logins, req);
    if (!caller.ok) return caller.answer;
    let callId: string;
    try {
      callId = this.p.calls.placeForHandler(caller.login.accountId, { From: caller.number, To: to.number, handler: { kind: 'sip', target: caller.login.credentialId } }).id;
    } catch (e) {
      if (e instanceof ApiError) return refusal(e);
      throw e;
    }
    this.p.logins.markUsed(caller.login.credentialId);
    const trying = this.p.reply(req, flow, send, { status: 100, reason: 'Trying' });
    this.p.dialogs.add({
      callId,
      accountId: caller.login.accountId,
      invite: req,
      flow,
      send,
      localTag: this.p.toTag(req),
      state: 'early',
      offer: media.offer,
      sdpVersion: 1,
      lastProvisional: trying,
      endedByClient: false,
      localCseq: 0,
    });
    if (media.offer) this.p.media.expect(callId, media.offer.address, media.offer.port, takesMedia(media.offer));
    return undefined;
  }

  /**
   * An ACK in a dialog. For a late offer (the INVITE had no SDP, the 200 carried the server's
   * offer) its body is the client's answer (RFC 3264 §4): PCMU there starts RTP to it; none
   * (no SDP, unreadable, no PCMU) ends the call, the BYE's Reason saying why.
   */
  ack(req: SipRequest): void {
    const d = this.p.dialogs.ofRequest(req);
    if (!d || d.state !== 'confirmed' || d.offer !== undefined || d.answerRead) return;
    d.answerRead = true;
    const sdp = answerOf(req.body);
    if ('answer' in sdp) {
      d.offer = sdp.answer; // a later re-INVITE without SDP is answered from it
      this.p.media.expect(d.callId, sdp.answer.address, sdp.answer.port, takesMedia(sdp.answer));
      return;
    }
    d.byeReason = reasonHeader(`late offer, the ACK: ${sdp.problem}`);
    try {
      this.p.calls.hangUp(d.accountId, d.callId); // the call handler's end sends the BYE
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }

  /** A re-INVITE (RFC 3261 §14.2): a new offer in a confirmed dialog gets a new answer; nothing else changes. */
  private reinvite(req: SipRequest): Answer {
    const d = this.p.dialogs.ofRequest(req);
    if (!d) return { status: 481, reason: 'Call/Transaction Does Not Exist' };
    if (d.state !== 'confirmed') return { status: 491, reason: 'Request Pending' };
    const media = offerOf(req);
    if ('answer' in media) return media.answer;
    d.offer = media.offer ?? d.offer;
    if (media.offer) this.p.media.expect(d.callId, media.offer.address, media.offer.port, takesMedia(media.offer));
    d.sdpVersion += 1;
    return { status: 200, reason: 'OK', toTag: d.localTag, headers: [['Contact', this.contact(d)]], body: { type: 'application/sdp', text: this.p.sdp(d) } };
  }

  /** The server's Contact in a dialog: the listener's address on the dialog's transport. */
  contact(d: Dialog): string {
    const l = this.p.listening();
    const port = d.flow.transport === 'tcp' ? l?.tcp : l?.udp;
    return `<sip:${l?.host ?? '127.0.0.1'}:${port ?? 5060};transport=${d.flow.transport}>`;
  }

  /** BYE in a dialog: 200, and the call hangs up (or is canceled if it was not answered yet). */
  bye(req: SipRequest): Answer {
    const d = this.p.dialogs.ofRequest(req);
    if (!d) return { status: 481, reason: 'Call/Transaction Does Not Exist' };
    this.hangUp(d);
    return { status: 200, reason: 'OK', toTag: d.localTag };
  }

  /** CANCEL of an INVITE still ringing: 200 to the CANCEL first, then the call is canceled (487 to the INVITE). */
  cancel(req: SipRequest, flow: Flow, send: (text: string) => void): Answer | undefined {
    const d = this.p.dialogs.ofTransaction(req, flow);
    if (!d || d.state !== 'early') return { status: 481, reason: 'Call/Transaction Does Not Exist' };
    this.p.reply(req, flow, send, { status: 200, reason: 'OK', toTag: d.localTag });
    this.hangUp(d);
    return undefined;
  }

  private hangUp(d: Dialog): void {
    d.endedByClient = true;
    try {
      this.p.calls.hangUp(d.accountId, d.callId);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e; // already over: the handler forgot the dialog
    }
  }
}
