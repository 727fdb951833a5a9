// Calls to SIP (spec "SIP endpoint", "SIP route"): an inbound call to a number routed `sip` is
// offered to its endpoint's active routes, a number routed `softphone` to the devices its
// credential has registered (UDP bindings, newest first). Routes go in priority order; routes of
// one priority in a weighted order drawn from the seed and the call (so a run repeats), weight 0
// last. Each try is an INVITE over UDP from the listener with the server's PCMU offer. A 2xx
// answers the call (ACK; the route's lastUsedAt was set when it was tried); a final 3xx-6xx, no
// provisional answer within NO_ANSWER_MS or no final one within RING_MS (then CANCEL) counts as
// the route's failure (lastFailureAt, failureCount) and the next one is tried; when none is left
// the call ends as the last answer says (486 busy, 480/408 no-answer, 603 rejected, else failed).
// `maxConcurrent` counts the endpoint's offered and connected calls: one more ends busy at once.
// A BYE from the device hangs the call up; the call ending first sends CANCEL or BYE. A route
// named by DNS goes to the fake DNS's address for it (reach.ts); TLS routes count as failed.
import { createHash } from '../../core/node-crypto.ts';
import { ApiError } from '../../core/errors.ts';
import { readOffer } from './sdp.ts';
import { warning, type Answer } from './response.ts';
import type { SipRequest, SipResponse } from './message.ts';
import type { SipCalls, SipRoutes } from './ports.ts';
import type { Bindings } from './bindings.ts';
import { takesMedia, type CallMedia } from './media.ts';
import type { SipListening } from './flow.ts';
import { branchOf, uacRequest } from './uac-request.ts';
import { reach, type SipDns } from './reach.ts';

/** No provisional answer to an INVITE within this: the route is taken as down (virtual ms). */
export const NO_ANSWER_MS = 5_000;
/** A device that rings this long without answering is canceled (virtual ms). */
export const RING_MS = 30_000;

interface Target {
  ruri: string;
  address: string;
  port: number;
  routeId: string | undefined;
}

interface Offer {
  callId: string;
  accountId: string;
  from: string;
  endpointId: string | undefined;
  targets: Target[];
  attempt: number;
  sipCallId: string;
  localTag: string;
  branch: string;
  state: 'calling' | 'proceeding' | 'confirmed' | 'ended';
  deadline: number;
  lastCode: number | undefined;
  remoteTo: string | undefined;
  remoteTarget: string | undefined;
  endedByDevice: boolean;
  /** CSeq of the server's last request in the dialog besides INVITE (a NOTIFY about a REFER): a later BYE goes above it. */
  lastCseq?: number;
}

export interface OfferParts {
  calls: SipCalls;
  routes: SipRoutes;
  dns: SipDns;
  bindings: Bindings;
  media: CallMedia;
  seed(): number;
  now(): number;
  schedule(at: number, callId: string, attempt: number): void;
  listening(): SipListening | null;
  /** Sends a datagram from the listener's UDP port; false when no listener runs. */
  sendUdp(address: string, port: number, text: string): boolean;
  /** The server's SDP offer for a call. */
  sdpOffer(callId: string): string;
}

const hash = (s: string) => createHash('sha256').update(s).digest('hex');

/** Where a `sip:host[:port]` route sends (reach.ts: an IPv4 host, or a name the fake DNS knows; UDP only); undefined when it cannot be reached from here. */
function routeTarget(uri: string, to: string, transport: string, dns: SipDns): { ruri: string; address: string; port: number } | undefined {
  const r = reach(uri, transport, dns);
  return r.ok ? { ruri: `sip:${to}@${r.host}:${r.port}`, address: r.address, port: r.port } : undefined;
}

export class SipOffers {
  private readonly byCall = new Map<string, Offer>();
  private readonly byBranch = new Map<string, Offer>(); // kept after the end, to ACK a late final answer

  constructor(private readonly p: OfferParts) {}

  /** Routes in the order they are tried: priority ascending, weighted within a priority (Efraimidis-Spirakis keys from the seed). */
  private ordered(endpointId: string, callId: string, to: string): { targets: Target[]; failed: string[] } {
    const failed: string[] = [];
    const keyed = this.p.routes
      .routesOf(endpointId)
      .filter((r) => r.status === 'active')
      .map((r) => {
        const u = (parseInt(hash(`${this.p.seed()}|${callId}|${r.id}`).slice(0, 12), 16) + 1) / 2 ** 48;
        return { r, key: r.weight > 0 ? Math.log(u) / r.weight : -Infinity };
      })
      .sort((a, b) => a.r.priority - b.r.priority || b.key - a.key);
    const targets: Target[] = [];
    for (const { r } of keyed) {
      const t = routeTarget(r.uri, to, r.transport, this.p.dns);
      if (t) targets.push({ ...t, routeId: r.id });
      else failed.push(r.id); // unreachable from here: its failure counts when its turn comes
    }
    return { targets, failed };
  }

  /** The handler's `offer`: find the targets and send the first INVITE. */
  offer(call: { callId: string; accountId: string; from: string; to: string; target: string }): void {
    const [kind, id] = [call.target.slice(0, call.target.indexOf(':')), call.target.slice(call.target.indexOf(':') + 1)];
    let targets: Target[] = [];
    let endpointId: string | undefined;
    if (kind === 'endpoint') {
      const e = this.p.routes.endpointById(id);
      if (!e || e.status !== 'active' || e.accountId !== call.accountId) return this.p.calls.handled.refuse(call.callId, 'failed', 'carrier');
      const live = [...this.byCall.values()].filter((o) => o.endpointId === id && o.state !== 'ended').length;
      if (e.maxConcurrent !== null && live >= e.maxConcurrent) return this.p.calls.handled.refuse(call.callId, 'busy', 'callee');
      const o = this.ordered(id, call.callId, call.to);
      for (const routeId of o.failed) this.p.routes.routeFailed(routeId);
      targets = o.targets;
      endpointId = id;
    } else {
      targets = this.p.bindings.rows
        .all()
        .filter((b) => b.credentialId === id && b.transport === 'udp')
        .reverse()
        .map((b) => ({ ruri: b.contact, address: b.sourceAddress, port: b.sourcePort, routeId: undefined }));
    }
    if (targets.length === 0 || !this.p.listening()) return this.p.calls.handled.refuse(call.callId, 'no-answer', 'carrier');
    const offer: Offer = {
      callId: call.callId,
      accountId: call.accountId,
      from: call.from,
      endpointId,
      targets,
      attempt: -1,
      sipCallId: `${hash(`${this.p.seed()}|offer|${call.callId}`).slice(0, 24)}@platform-simulator`,
      localTag: hash(`${this.p.seed()}|tag|${call.callId}`).slice(0, 16),
      branch: '',
      state: 'calling',
      deadline: 0,
      lastCode: undefined,
      remoteTo: undefined,
      remoteTarget: undefined,
      endedByDevice: false,
    };
    this.byCall.set(call.callId, offer);
    this.next(offer);
  }

  /** Tries the next target, or ends the call as the last failure says. */
  private next(o: Offer): void {
    o.attempt += 1;
    const t = o.targets[o.attempt];
    if (!t) {
      o.state = 'ended';
      this.byCall.delete(o.callId);
      const c = o.lastCode;
      const ending = c === 486 || c === 600 ? 'busy' : c === 603 ? 'rejected' : c === undefined || c === 480 || c === 408 || c === 487 ? 'no-answer' : 'failed';
      return this.p.calls.handled.refuse(o.callId, ending, ending === 'busy' || ending === 'rejected' ? 'callee' : 'carrier');
    }
    o.state = 'calling';
    o.branch = `z9hG4bK${hash(`${o.sipCallId}|${o.attempt}`).slice(0, 16)}`;
    this.byBranch.set(o.branch, o);
    if (this.byBranch.size > 4096) this.byBranch.delete(this.byBranch.keys().next().value!);
    if (t.routeId) this.p.routes.routeUsed(t.routeId);
    o.deadline = this.p.now() + NO_ANSWER_MS;
    this.p.schedule(o.deadline, o.callId, o.attempt);
    this.p.sendUdp(t.address, t.port, this.request(o, 'INVITE', t.ruri, `<${t.ruri}>`, this.p.sdpOffer(o.callId)));
  }

  private request(o: Offer, method: string, ruri: string, to: string, body = '', branch = o.branch, cseq = method === 'BYE' ? Math.max(2, (o.lastCseq ?? 1) + 1) : 1): string {
    const l = this.p.listening();
    const host = l?.host ?? '127.0.0.1';
    const lines = [
      `${method} ${ruri} SIP/2.0`,
      `Via: SIP/2.0/UDP ${host}:${l?.udp ?? 5060};branch=${branch};rport`,
      'Max-Forwards: 70',
      `From: <sip:${o.from}@${host}>;tag=${o.localTag}`,
      `To: ${to}`,
      `Call-ID: ${o.sipCallId}`,
      `CSeq: ${cseq} ${method}`,
      ...(method === 'INVITE' ? [`Contact: <sip:${o.from}@${host}:${l?.udp ?? 5060};transport=udp>`] : []),
      'User-Agent: platform-simulator',
      ...(body ? ['Content-Type: application/sdp'] : []),
      `Content-Length: ${Buffer.byteLength(body, 'latin1')}`,
    ];
    return `${lines.join('\r\n')}\r\n\r\n${body}`;
  }

  /** A response from a device or route (matched by the branch of the server's INVITE). */
  response(res: SipResponse): void {
    const o = res.topVia.branch === undefined ? undefined : this.byBranch.get(res.topVia.branch);
    if (!o || res.cseq.method !== 'INVITE') return;
    const t = o.targets[o.attempt]!;
    const stale = o.branch !== res.topVia.branch || o.state === 'ended';
    if (res.status >= 300) {
      this.p.sendUdp(t.address, t.port, this.request(o, 'ACK', t.ruri, res.header('to')!, '', res.topVia.branch)); // RFC 3261 §17.1.1.3
      if (stale || (o.state !== 'calling' && o.state !== 'proceeding')) return;
      o.lastCode = res.status;
      if (t.routeId) this.p.routes.routeFailed(t.routeId);
      return this.next(o);
    }
    if (stale) return;
    if (res.status < 200) {
      if (o.state === 'calling') {
        o.state = 'proceeding';
        o.deadline = this.p.now() + RING_MS;
        this.p.schedule(o.deadline, o.callId, o.attempt);
      }
      return;
    }
    o.remoteTo = res.header('to');
    const contact = /<([^>]+)>/.exec(res.header('contact') ?? '')?.[1];
    o.remoteTarget = contact ?? t.ruri;
    this.p.sendUdp(t.address, t.port, this.request(o, 'ACK', o.remoteTarget, o.remoteTo!, '', `z9hG4bK${hash(`${o.sipCallId}|ack|${o.attempt}`).slice(0, 16)}`));
    if (o.state === 'confirmed') return; // a retransmitted 2xx: ACKed again
    o.state = 'confirmed';
    const answer = readOffer(res.body);
    if (answer.ok) this.p.media.expect(o.callId, answer.offer.address, answer.offer.port, takesMedia(answer.offer));
    this.p.calls.handled.pickUp(o.callId);
  }

  /** The clock job: a try that is still unanswered at its deadline fails (CANCEL when it rang). */
  timeout(callId: string, attempt: number): void {
    const o = this.byCall.get(callId);
    if (!o || o.attempt !== attempt || (o.state !== 'calling' && o.state !== 'proceeding') || this.p.now() < o.deadline) return;
    const t = o.targets[o.attempt]!;
    if (o.state === 'proceeding') this.p.sendUdp(t.address, t.port, this.request(o, 'CANCEL', t.ruri, `<${t.ruri}>`));
    o.lastCode = 408;
    if (t.routeId) this.p.routes.routeFailed(t.routeId);
    this.next(o);
  }

  /** The call ended (the handler's `ended`): CANCEL a ringing try, BYE a connected device. */
  ended(callId: string): void {
    const o = this.byCall.get(callId);
    if (!o) return;
    this.byCall.delete(callId);
    const t = o.targets[o.attempt];
    const was = o.state;
    o.state = 'ended';
    if (!t) return;
    if (was === 'calling' || was === 'proceeding') this.p.sendUdp(t.address, t.port, this.request(o, 'CANCEL', t.ruri, `<${t.ruri}>`));
    else if (was === 'confirmed' && !o.endedByDevice) {
      this.p.sendUdp(t.address, t.port, this.request(o, 'BYE', o.remoteTarget!, o.remoteTo!, '', `z9hG4bK${hash(`${o.sipCallId}|bye`).slice(0, 16)}`));
    }
  }

  /** A BYE from a connected device: the call hangs up; undefined when it is no dialog of an offer. */
  bye(req: SipRequest): Answer | undefined {
    const o = [...this.byCall.values()].find((x) => x.sipCallId === req.callId && x.localTag === req.to.tag);
    if (!o) return undefined;
    if (o.state !== 'confirmed') return { status: 481, reason: 'Call/Transaction Does Not Exist', headers: [['Warning', warning('the call was not answered')]] };
    o.endedByDevice = true;
    try {
      this.p.calls.hangUp(o.accountId, o.callId);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e; // already over
    }
    return { status: 200, reason: 'OK' };
  }

  /**
   * The dialog of an offered call that an in-dialog request of its device belongs to (a REFER,
   * refer.ts): how to send the server's own requests in it, and how to let the device go while
   * its call goes on. Undefined when it is no dialog of an offer.
   */
  inDialog(req: SipRequest): { callId: string; accountId: string; confirmed: boolean; send(method: string, cseq: number, headers: [string, string][], body?: { type: string; text: string }): void; release(): void } | undefined {
    const o = [...this.byCall.values()].find((x) => x.sipCallId === req.callId && x.localTag === req.to.tag);
    if (!o) return undefined;
    const t = o.targets[o.attempt]!;
    return {
      callId: o.callId,
      accountId: o.accountId,
      confirmed: o.state === 'confirmed',
      send: (method, cseq, headers, body) => {
        o.lastCseq = cseq;
        const l = this.p.listening();
        const text = uacRequest({ method, target: o.remoteTarget!, from: `<sip:${o.from}@${l?.host ?? '127.0.0.1'}>;tag=${o.localTag}`, to: o.remoteTo!, callId: o.sipCallId, cseq, branch: branchOf(o.sipCallId, method, cseq), transport: 'UDP', viaPort: l?.udp, headers, ...(body ? { body } : {}) }, l);
        this.p.sendUdp(t.address, t.port, text);
      },
      release: () => void (o.endedByDevice = true),
    };
  }

  /** Calls on offer or connected now. */
  get size(): number {
    return this.byCall.size;
  }

  clear(): void {
    this.byCall.clear();
    this.byBranch.clear();
  }
}
