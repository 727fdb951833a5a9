// Dials to SIP on the wire (docs/decisions.md "SIP on the wire", Dials to SIP): the calls family's
// wire dialer (calls/wire-dial.ts). A call-flow dial block, VoiceML <Dial><Sip> or a REFER's
// transfer to a SIP URI sends an INVITE over UDP to the URI's host (an IPv4 address, or a name the
// fake DNS knows: reach.ts) with the server's PCMU offer; the account's route with that host has
// its lastUsedAt set, and a failure counted. Provisional answers ring; a 2xx is ACKed to its
// Contact and bridges; a final 3xx-6xx is ACKed and ends the dial with its code; no provisional
// answer within NO_ANSWER_MS, or no final one within the dial's ring timeout (then CANCEL), ends it
// as 408. The call moving on sends CANCEL (ringing) or BYE (answered); a BYE from the device ends
// an answered dial with 200. The device's 200 must answer the PCMU offer: its SDP names where it
// takes RTP, and from the answer on it hears the call's phone and what it sends is recorded
// (DialMedia, docs/decisions.md "SIP on the wire", Media of dialed legs); a 200 with no usable
// PCMU answer is ACKed, then BYEd, and the dial fails as 488. Live transport state: not in
// snapshots.
import { NO_ANSWER_MS } from './offers.ts';
import { answerOf, type AudioOffer } from './sdp.ts';
import { hostPortOf, reach, type SipDns } from './reach.ts';
import { branchOf, uacRequest } from './uac-request.ts';
import { reasonHeader, type Answer } from './response.ts';
import type { SipRequest, SipResponse } from './message.ts';
import type { SipRoutes } from './ports.ts';
import type { SipListening } from './flow.ts';
import type { WireDialer, WireDialEvents, WireDialHandle, WireDialRequest } from '../calls/wire-dial.ts';

interface Dial {
  id: string;
  /** The platform's call the dial is a leg of. */
  callId: string;
  events: WireDialEvents;
  from: string;
  ruri: string;
  address: string;
  port: number;
  routeId: string | undefined;
  sipCallId: string;
  localTag: string;
  branch: string;
  ringMs: number;
  state: 'calling' | 'proceeding' | 'confirmed' | 'ended';
  deadline: number;
  remoteTo: string | undefined;
  remoteTarget: string | undefined;
}

/** The media of a dialed device, keyed by the platform's call (model.ts wires it to the playout and the RTP port). */
export interface DialMedia {
  /** A dial goes out: the phone's speech may start loading. */
  warm(callId: string): void;
  /** The device answered with `answer`: RTP flows both ways from now. */
  connected(callId: string, answer: AudioOffer): void;
  /** The bridge is over (a BYE either way, the call's end): no more RTP. */
  stopped(callId: string): void;
}

export interface DialParts {
  media: DialMedia;
  routes: SipRoutes;
  dns: SipDns;
  seed(): number;
  now(): number;
  /** A clock job at `at` for the dial (its deadline guards against a later one). */
  schedule(at: number, dialId: string, deadline: number): void;
  listening(): SipListening | null;
  /** Whether the listener's UDP socket runs, and sending a datagram from it. */
  canSend(): boolean;
  sendUdp(address: string, port: number, text: string): boolean;
  /** The server's SDP offer for a dial. */
  sdpOffer(dialId: string): string;
}

export class SipDials implements WireDialer {
  private readonly byId = new Map<string, Dial>();
  private readonly byBranch = new Map<string, Dial>(); // kept after the end, to ACK a late final answer
  private readonly perCall = new Map<string, number>(); // dials so far per call: ids stay unique and derived

  constructor(private readonly p: DialParts) {}

  /** The account's active route of an active endpoint whose host[:port] is the URI's (its counters follow the dial). */
  private routeOf(accountId: string, hostPort: string): { id: string; transport: string } | undefined {
    for (const e of this.p.routes.listFor(accountId, 'active')) {
      const r = this.p.routes.routesOf(e.id).find((x) => x.status === 'active' && hostPortOf(x.uri) === hostPort);
      if (r) return r;
    }
    return undefined;
  }

  online(): boolean {
    return this.p.listening() !== null && this.p.canSend();
  }

  dial(req: WireDialRequest, events: WireDialEvents): WireDialHandle | { offline: true } | { unreachable: number; reason: string } {
    if (!this.online()) return { offline: true };
    const route = this.routeOf(req.accountId, hostPortOf(req.uri));
    const where = reach(req.uri, route?.transport, this.p.dns);
    if (!where.ok) {
      if (route) this.p.routes.routeFailed(route.id);
      return { unreachable: 404, reason: where.reason };
    }
    const n = (this.perCall.get(req.callId) ?? 0) + 1;
    this.perCall.set(req.callId, n);
    const id = `${req.callId}#${n}`;
    const d: Dial = {
      id,
      callId: req.callId,
      events,
      from: req.from,
      ruri: req.uri.trim().replace(/[?].*$/, ''),
      address: where.address,
      port: where.port,
      routeId: route?.id,
      sipCallId: `${branchOf(this.p.seed(), 'dial', id).slice(7)}@platform-simulator`,
      localTag: branchOf(this.p.seed(), 'dial-tag', id).slice(7),
      branch: branchOf(this.p.seed(), 'dial-invite', id),
      ringMs: req.timeoutSec * 1000,
      state: 'calling',
      deadline: this.p.now() + NO_ANSWER_MS,
      remoteTo: undefined,
      remoteTarget: undefined,
    };
    this.byId.set(id, d);
    this.byBranch.set(d.branch, d);
    if (this.byBranch.size > 4096) this.byBranch.delete(this.byBranch.keys().next().value!);
    if (d.routeId) this.p.routes.routeUsed(d.routeId);
    this.p.schedule(d.deadline, id, d.deadline);
    this.p.media.warm(req.callId);
    this.send(d, 'INVITE', d.ruri, `<${d.ruri}>`, 1, d.branch, { type: 'application/sdp', text: this.p.sdpOffer(id) });
    return { hangUp: () => this.hangUp(id) };
  }

  private send(d: Dial, method: string, target: string, to: string, cseq: number, branch: string, body?: { type: string; text: string }, extra: [string, string][] = []): void {
    const l = this.p.listening();
    const host = l?.host ?? '127.0.0.1';
    const contact: [string, string][] = method === 'INVITE' ? [['Contact', `<sip:${d.from}@${host}:${l?.udp ?? 5060};transport=udp>`]] : [];
    const text = uacRequest({ method, target, from: `<sip:${d.from}@${host}>;tag=${d.localTag}`, to, callId: d.sipCallId, cseq, branch, transport: 'UDP', viaPort: l?.udp, headers: [...contact, ...extra], ...(body ? { body } : {}) }, l);
    this.p.sendUdp(d.address, d.port, text);
  }

  /** Whether a response belongs to one of the server's dials (matched by its INVITE's branch); handled if so. */
  response(res: SipResponse): boolean {
    const d = res.topVia.branch === undefined ? undefined : this.byBranch.get(res.topVia.branch);
    if (!d) return false;
    if (res.cseq.method !== 'INVITE') return true; // the answer to a CANCEL or BYE
    if (res.status >= 300) {
      this.send(d, 'ACK', d.ruri, res.header('to')!, 1, d.branch); // RFC 3261 §17.1.1.3
      if (d.state !== 'calling' && d.state !== 'proceeding') return true;
      this.finish(d, res.status, true);
      return true;
    }
    if (d.state === 'ended') return true;
    if (res.status < 200) {
      if (d.state === 'calling') {
        d.state = 'proceeding';
        d.deadline = this.p.now() + d.ringMs;
        this.p.schedule(d.deadline, d.id, d.deadline);
        d.events.ringing();
      }
      return true;
    }
    d.remoteTo = res.header('to');
    d.remoteTarget = /<([^>]+)>/.exec(res.header('contact') ?? '')?.[1] ?? d.ruri;
    this.send(d, 'ACK', d.remoteTarget, d.remoteTo!, 1, branchOf(d.sipCallId, 'ack'));
    if (d.state === 'confirmed') return true; // a retransmitted 2xx: ACKed again
    const sdp = answerOf(res.body);
    if ('problem' in sdp) {
      // RFC 3261 §13.2.1: a UAC that cannot take the answer ACKs it, then ends the dialog with BYE.
      this.send(d, 'BYE', d.remoteTarget, d.remoteTo!, 2, branchOf(d.sipCallId, 'bye'), undefined, [['Reason', reasonHeader(sdp.problem)]]);
      this.finish(d, 488, true);
      return true;
    }
    d.state = 'confirmed';
    this.p.media.connected(d.callId, sdp.answer);
    d.events.answered();
    return true;
  }

  /** The clock job: a dial still unanswered at its deadline ends as 408 (CANCEL when it rang). */
  timeout(dialId: string, deadline: number): void {
    const d = this.byId.get(dialId);
    if (!d || d.deadline !== deadline || (d.state !== 'calling' && d.state !== 'proceeding')) return;
    if (d.state === 'proceeding') this.send(d, 'CANCEL', d.ruri, `<${d.ruri}>`, 1, d.branch);
    this.finish(d, 408, true);
  }

  private finish(d: Dial, code: number, failed: boolean): void {
    if (d.state === 'confirmed') this.p.media.stopped(d.callId);
    d.state = 'ended';
    this.byId.delete(d.id);
    if (failed && d.routeId) this.p.routes.routeFailed(d.routeId);
    d.events.ended(code);
  }

  /** The call moved on: CANCEL a ringing dial, BYE an answered one; no event follows. */
  private hangUp(dialId: string): void {
    const d = this.byId.get(dialId);
    if (!d) return;
    const was = d.state;
    d.state = 'ended';
    this.byId.delete(dialId);
    if (was === 'calling' || was === 'proceeding') this.send(d, 'CANCEL', d.ruri, `<${d.ruri}>`, 1, d.branch);
    else if (was === 'confirmed') {
      this.p.media.stopped(d.callId);
      this.send(d, 'BYE', d.remoteTarget!, d.remoteTo!, 2, branchOf(d.sipCallId, 'bye'));
    }
  }

  /** A BYE from an answered device: the dial ends (200); undefined when it is no dialog of a dial. */
  bye(req: SipRequest): Answer | undefined {
    const d = [...this.byId.values()].find((x) => x.sipCallId === req.callId && x.localTag === req.to.tag);
    if (!d) return undefined;
    if (d.state !== 'confirmed') return { status: 481, reason: 'Call/Transaction Does Not Exist' };
    this.finish(d, 200, false);
    return { status: 200, reason: 'OK', toTag: d.localTag };
  }

  clear(): void {
    this.byId.clear();
    this.byBranch.clear();
    this.perCall.clear();
  }
}
