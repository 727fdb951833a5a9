// SIP REFER transfers (RFC 3515; docs/decisions.md "SIP on the wire", REFER): a SIP client in a
// connected call (one its INVITE placed, or one offered to it that it answered) asks the platform
// to transfer the other party. Refer-To must name one target: a number (`tel:`, or a SIP URI of
// the platform whose user is a number) that goes through the carrier like any transfer leg, or
// a SIP URI that an active route of the account reaches, rung on the wire. Refusals answer before
// anything is stored: 400 for a missing, repeated or unreadable Refer-To or a number that is
// none, 416 for another URI scheme, 403 for a number abroad, a SIP target without the add-on or
// a route, a call not connected or with a transfer open. Accepted: 202, then NOTIFY with a
// sipfrag (100 Trying; 200 OK when the leg connects, else its final code). The leg is recorded
// like every transfer (mode `refer`, or `refer-attended` with Replaces; the `transfer`
// callback). A client that hangs up (BYE) while its transfer goes on leaves the call to the
// transferred parties: the call ends when the leg does.
import { tryNormalizePhone } from '../../core/phone.ts';
import { warning, type Answer } from './response.ts';
import { hostPortOf } from './reach.ts';
import type { SipRequest } from './message.ts';
import type { SipCalls, SipRoutes } from './ports.ts';
import type { LegProgress } from '../calls/handlers.ts';

/** A dialog a REFER can arrive in, whichever side opened it. */
export interface ReferDialog {
  callId: string;
  accountId: string;
  confirmed: boolean;
  /** Sends a request of the server in the dialog (the server's next CSeq is the caller's to give). */
  send(method: string, cseq: number, headers: [string, string][], body?: { type: string; text: string }): void;
  /** The client leaves the dialog while the call goes on: no BYE goes back at the call's end. */
  release(): void;
}

export interface ReferParts {
  calls: SipCalls;
  routes: SipRoutes;
  /** The dialog a request belongs to (calls from clients, then offered calls). */
  dialogOf(req: SipRequest): ReferDialog | undefined;
  /** Whether a host (and port, default 5060) is the platform's: an account realm, or the listener's address and port. */
  isOwnHost(host: string, port: number | undefined): boolean;
}

interface Referred {
  dialog: ReferDialog;
  cseq: number;
  left: boolean;
}

const bad = (status: number, reason: string, why: string): Answer => ({ status, reason, headers: [['Warning', warning(why)]] });
const forbid = (why: string) => bad(403, 'Forbidden', why);

/** Final codes a NOTIFY reports for a leg that ended without connecting, by its status. */
const FINAL_BY_STATUS: Record<string, [number, string]> = { busy: [486, 'Busy Here'], 'no-answer': [480, 'Temporarily Unavailable'], canceled: [487, 'Request Terminated'], failed: [503, 'Service Unavailable'] };
const REASON: Record<number, string> = { 404: 'Not Found', 408: 'Request Timeout', 480: 'Temporarily Unavailable', 484: 'Address Incomplete', 486: 'Busy Here', 487: 'Request Terminated', 503: 'Service Unavailable', 600: 'Busy Everywhere', 603: 'Decline' };

export type ReferTarget = { to: string; attended: boolean } | { answer: Answer };

/** What a Refer-To asks for (a number or a SIP URI), or the answer refusing it. */
export function referTarget(req: SipRequest, isOwnHost: ReferParts['isOwnHost']): ReferTarget {
  const values = req.headers('refer-to').flatMap((v) => v.split(/,(?![^<]*>)/));
  if (values.length !== 1) return { answer: bad(400, 'Bad Request', `a REFER names exactly one Refer-To (RFC 3515 §2.4.1); this one has ${values.length}`) };
  const raw = values[0]!.trim();
  const uri = (/<([^>]*)>/.exec(raw)?.[1] ?? raw.split(';')[0]!).trim();
  const m = /^([a-z][a-z0-9+.-]*):(.+)$/i.exec(uri);
  if (!m) return { answer: bad(400, 'Bad Request', `Refer-To ${raw} holds no URI`) };
  const scheme = m[1]!.toLowerCase();
  const [rest, headers = ''] = m[2]!.split('?', 2) as [string, string?];
  const attended = /(^|&)replaces=/i.test(headers);
  if (scheme === 'tel') return numberTarget(rest.split(';')[0]!, attended);
  if (scheme !== 'sip' && scheme !== 'sips') return { answer: { status: 416, reason: 'Unsupported URI Scheme', headers: [['Warning', warning(`Refer-To must be a sip:, sips: or tel: URI, not ${scheme}:`)]] } };
  const sip = /^(?:([^@;]+)@)?([^:;]+)(?::(\d+))?/.exec(rest);
  if (!sip || sip[2]!.trim() === '') return { answer: bad(400, 'Bad Request', `Refer-To ${uri} has no host`) };
  if (isOwnHost(sip[2]!.toLowerCase(), sip[3] === undefined ? undefined : Number(sip[3]))) {
    if (sip[1] === undefined) return { answer: bad(400, 'Bad Request', `Refer-To ${uri} names the platform but no number`) };
    return numberTarget(decodeURIComponent(sip[1]), attended);
  }
  return { to: `${scheme}:${rest}`, attended };
}

function numberTarget(user: string, attended: boolean): ReferTarget {
  const n = tryNormalizePhone(user, 'Refer-To');
  if (n.ok) return { to: n.number, attended };
  if (n.code === 'UNSUPPORTED_COUNTRY') return { answer: forbid(`transfers from SIP go to domestic numbers only: ${n.message}`) };
  return { answer: bad(400, 'Bad Request', `the Refer-To user is no phone number: ${n.message}`) };
}

export class SipRefers {
  private readonly byCall = new Map<string, Referred>();

  constructor(private readonly p: ReferParts) {}

  /** A REFER: 202 and the transfer started, or the refusal; `accepted` sends the 202 before the first NOTIFY. */
  refer(req: SipRequest, accepted: (answer: Answer) => void): Answer | undefined {
    const dialog = this.p.dialogOf(req);
    if (!dialog) return { status: 481, reason: 'Call/Transaction Does Not Exist' };
    if (!dialog.confirmed) return forbid('a REFER is taken only in a connected call');
    const target = referTarget(req, this.p.isOwnHost);
    if ('answer' in target) return target.answer;
    const sip = /^sips?:/i.test(target.to);
    if (sip) {
      const host = hostPortOf(target.to);
      if (!this.reachable(dialog.accountId, host)) return forbid(`no active SIP route of the account reaches ${host}`);
    }
    if (this.byCall.has(dialog.callId)) return forbid('a transfer of this call is already under way');
    const referred: Referred = { dialog, cseq: 100, left: false };
    this.byCall.set(dialog.callId, referred); // legs move later (clock jobs, the wire), never inside transfer()
    const mode = target.attended ? 'refer-attended' : 'refer';
    const started = this.p.calls.handled.transfer(dialog.callId, { to: target.to, mode, destinationType: sip ? 'sip' : 'pstn' }, (p) => this.progress(dialog.callId, p));
    if (!started.started) {
      this.byCall.delete(dialog.callId);
      return forbid(started.reason); // the add-on, a call not connected, a transfer open: nothing stored
    }
    accepted({ status: 202, reason: 'Accepted', toTag: req.to.tag });
    this.notify(referred, 100, 'Trying', false);
    return undefined;
  }

  /** Whether an active route of an active endpoint has the target's host[:port] (as the leg engine matches). */
  private reachable(accountId: string, hostPort: string): boolean {
    return this.p.routes.listFor(accountId, 'active').some((e) => this.p.routes.routesOf(e.id).some((r) => r.status === 'active' && hostPortOf(r.uri) === hostPort));
  }

  private notify(r: Referred, code: number, reason: string, final: boolean): void {
    if (r.left) return;
    r.cseq += 1;
    r.dialog.send('NOTIFY', r.cseq, [['Event', 'refer'], ['Subscription-State', final ? 'terminated;reason=noresource' : 'active;expires=60']], { type: 'message/sipfrag;version=2.0', text: `SIP/2.0 ${code} ${reason}\r\n` });
  }

  /** How the REFER's leg goes: the final NOTIFY; a client that left hangs the call up when the leg ends. */
  private progress(callId: string, p: LegProgress): void {
    const r = this.byCall.get(callId);
    if (!r) return;
    if (p.phase === 'connected') return this.notify(r, 200, 'OK', true);
    this.byCall.delete(callId);
    if (!p.connected) {
      const code = p.sipResponseCode && p.sipResponseCode >= 300 ? p.sipResponseCode : (FINAL_BY_STATUS[p.status]?.[0] ?? 503);
      this.notify(r, code, REASON[code] ?? FINAL_BY_STATUS[p.status]?.[1] ?? 'Service Unavailable', true);
    }
    if (r.left) this.p.calls.handled.hangUp(callId, 'party');
  }

  /** A BYE from a client whose transfer goes on: 200, and the call stays with the parties; undefined otherwise. */
  bye(req: SipRequest): Answer | undefined {
    const dialog = this.p.dialogOf(req);
    const r = dialog && this.byCall.get(dialog.callId);
    if (!r || r.left) return undefined;
    r.left = true;
    r.dialog.release();
    return { status: 200, reason: 'OK', toTag: req.to.tag };
  }

  /** The call ended: its REFER is over. */
  ended(callId: string): void {
    this.byCall.delete(callId);
  }

  clear(): void {
    this.byCall.clear();
  }
}
