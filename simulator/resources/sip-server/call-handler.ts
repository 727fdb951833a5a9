// The SIP server's call handler (kind `sip`, calls/handlers.ts): a call an INVITE placed tells its
// dialog how it goes. Ringing sends 180; the answer sends 200 with the SDP answer and a Contact;
// the end sends the INVITE the call's own sipResponseCode when it was never answered (480, 486,
// 603, 503, 487: the call record and the SIP client see the same code), or a BYE when it was
// answered and the client did not end it. A call whose dialog is gone (a reset, a restored
// snapshot) goes on without the wire.
import { createHash } from '../../core/node-crypto.ts';
import type { CallFacts, CallHandler } from '../calls/handlers.ts';
import type { Dialog, Dialogs } from './dialogs.ts';
import type { SipListening } from './flow.ts';
import type { SipRequest } from './message.ts';
import { SERVER_NAME, type Answer } from './response.ts';
import type { CallMedia } from './media.ts';
import type { SipOffers } from './offers.ts';
import type { Playout } from './playout.ts';

/** Reason phrases of the final codes a call can end with (RFC 3261 §21). */
const REASONS: Record<number, string> = {
  480: 'Temporarily Unavailable',
  486: 'Busy Here',
  487: 'Request Terminated',
  503: 'Service Unavailable',
  603: 'Decline',
};

export interface HandlerParts {
  dialogs: Dialogs;
  facts: () => CallFacts;
  reply(req: SipRequest, flow: Dialog['flow'], send: Dialog['send'], answer: Answer): string;
  sdp(d: Dialog): string;
  contact(d: Dialog): string;
  listening(): SipListening | null;
  media: CallMedia;
  offers: SipOffers;
  playout: Playout;
}

/** The BYE the server sends in a dialog it ends (RFC 3261 §15.1.1): From and To swapped, its own CSeq and branch. */
export function byeFor(d: Dialog, l: SipListening | null): string {
  const inv = d.invite;
  const target = inv.contacts === '*' || inv.contacts.length === 0 ? inv.from.uri.text : inv.contacts[0]!.uri.text;
  d.localCseq += 1;
  const branch = `z9hG4bK${createHash('sha256').update(`${inv.callId}|${d.localTag}|${d.localCseq}`).digest('hex').slice(0, 16)}`;
  const port = d.flow.transport === 'tcp' ? l?.tcp : l?.udp;
  const lines = [
    `BYE ${target} SIP/2.0`,
    `Via: SIP/2.0/${d.flow.transport.toUpperCase()} ${l?.host ?? '127.0.0.1'}:${port ?? 5060};branch=${branch};rport`,
    'Max-Forwards: 70',
    `From: ${inv.header('to')};tag=${d.localTag}`,
    `To: ${inv.header('from')}`,
    `Call-ID: ${inv.callId}`,
    `CSeq: ${d.localCseq} BYE`,
    ...(d.byeReason === undefined ? [] : [`Reason: ${d.byeReason}`]),
    `User-Agent: ${SERVER_NAME}`,
    'Content-Length: 0',
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

export function sipCallHandler(p: HandlerParts): CallHandler {
  const early = (callId: string) => {
    const d = p.dialogs.ofCall(callId);
    return d && d.state === 'early' ? d : undefined;
  };
  return {
    check: () => {}, // the INVITE was authenticated before the call was placed
    offer: (call) => {
      p.playout.warm(call.callId);
      p.offers.offer(call); // a number routed sip or softphone (offers.ts)
    },
    ringing(call) {
      p.playout.warm(call.callId);
      const d = early(call.callId);
      if (d) d.lastProvisional = p.reply(d.invite, d.flow, d.send, { status: 180, reason: 'Ringing', toTag: d.localTag });
    },
    answered(call) {
      p.playout.start(call.callId, call.answeredAt); // a dialog's or an offered call's: the media clock starts
      const d = early(call.callId);
      if (!d) return;
      d.state = 'confirmed';
      p.reply(d.invite, d.flow, d.send, { status: 200, reason: 'OK', toTag: d.localTag, headers: [['Contact', p.contact(d)]], body: { type: 'application/sdp', text: p.sdp(d) } });
    },
    transferProgress: () => {}, // the SIP client starts no transfer legs through the seam
    ended(callId) {
      p.playout.stop(callId); // what fell due goes out while the peer is still known
      p.media.stop(callId);
      p.offers.ended(callId);
      const d = p.dialogs.ofCall(callId);
      if (!d) return;
      const wasEarly = d.state === 'early';
      p.dialogs.forget(d);
      if (wasEarly) {
        const code = p.facts().outcome(callId)?.sipResponseCode ?? 500;
        const status = code >= 300 ? code : 500;
        p.reply(d.invite, d.flow, d.send, { status, reason: REASONS[status] ?? 'Server Internal Error', toTag: d.localTag });
      } else if (!d.endedByClient) d.send(byeFor(d, p.listening()));
    },
  };
}
