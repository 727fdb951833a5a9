// The platform's SIP server: what arrives on the SIP listener (UDP, TCP; simulator/sip-sockets.ts
// frames it) and what it answers. A request is parsed (message.ts), checked for a truncated body,
// matched against the transactions already answered, then handled by method: REGISTER by the
// registrar, INVITE, BYE and CANCEL by the calls on the wire (invite.ts, with the call handler
// the calls family hands their calls to, call-handler.ts), OPTIONS with the server's
// capabilities, ACK silently, any other method 501. Responses that match no client
// transaction of the server are dropped (RFC 3261 §18.1.2). A defect while handling a request is
// reported and answered 500; it never reaches the socket.
import { createHash } from '../../core/node-crypto.ts';
import { Bindings } from './bindings.ts';
import { AnsweredRequests } from './answered.ts';
import type { Flow, SipListening } from './flow.ts';
import { parseSipMessage, type SipRequest } from './message.ts';
import { NonceBook } from './nonces.ts';
import type { SipServerModelScope } from './ports.ts';
import { register } from './registrar.ts';
import { Dialogs, type Dialog } from './dialogs.ts';
import { SipCallsOnWire } from './invite.ts';
import { sipCallHandler } from './call-handler.ts';
import type { CallHandler } from '../calls/handlers.ts';
import { writeAnswer } from './sdp.ts';
import { CallMedia, takesMedia } from './media.ts';
import { MAX_BURST_FRAMES, MAX_LATE_FRAMES, Playout } from './playout.ts';
import { PhoneSpeech } from './phone-speech.ts';
import { sipWebSocket } from './websocket.ts';
import type { SimRequest } from '../../core/operation.ts';
import type { UpgradeAnswer } from '../../core/live-socket.ts';
import { SipOffers } from './offers.ts';
import { SipDials } from './dials.ts';
import { SipRefers, type ReferDialog } from './refer.ts';
import { branchOf, uacRequest } from './uac-request.ts';
import { CHALLENGE_ALGORITHMS } from './digest.ts';
import type { DigestAlgorithm } from '../sip-auth/digest.ts';
import { MAX_MESSAGE_BYTES } from './schema.ts';
import { badRequestForUnparsed, responseTo, warning, type Answer } from './response.ts';

/** Methods the server answers (Allow), in the order it lists them. */
export const ALLOWED_METHODS = ['REGISTER', 'INVITE', 'ACK', 'BYE', 'CANCEL', 'OPTIONS', 'REFER'] as const;

/** Challenges over WebSocket: MD5 alone (JsSIP folds several WWW-Authenticate values into one challenge, the last algorithm winning). */
const WS_CHALLENGES: readonly DigestAlgorithm[] = ['MD5'];

/** The phone's turns taken at the answer at most (a reply matching what it hears, "", would repeat forever). */
const MAX_PHONE_TURNS = 32;

/** How the server hands a defect (a bug: a non-SIP error) to whoever reports it. */
export type DefectSink = (error: unknown) => void;

export class SipServerModel {
  readonly bindings: Bindings;
  private readonly nonces: NonceBook;
  private readonly answered = new AnsweredRequests();
  /** Calls placed on the wire, by dialog (live, like the nonces). */
  readonly dialogs = new Dialogs();
  /** What their clients sent on the RTP port (live). */
  readonly media = new CallMedia((callId) => this.playout.frameAt(callId, this.scope.clock.now()));
  /** What the far side plays to them, sent from the RTP port on virtual time (live). */
  readonly playout: Playout;
  /** Sends a datagram from the listener's RTP port (set by the socket adapter while it runs). */
  sendMedia: ((address: string, port: number, packet: Buffer) => void) | null = null;
  /** Inbound calls offered to SIP routes and devices (live). */
  readonly offers: SipOffers;
  /** SIP URIs dialed by dial blocks, VoiceML and transfers (live). */
  readonly dials: SipDials;
  /** Writes a response on a flow now and remembers it when final (retransmissions). */
  private readonly reply: (req: SipRequest, flow: Flow, send: (text: string) => void, answer: Answer) => string;
  /** Transfers SIP clients asked for with REFER (live). */
  private readonly refers: SipRefers;
  /** Sends a datagram from the listener's UDP port (set by the socket adapter while it runs). */
  sendDatagram: ((address: string, port: number, text: string) => void) | null = null;
  private readonly wireCalls: SipCallsOnWire;
  /** Where the listener is; set by the socket adapter while it runs (not state). */
  listening: SipListening | null = null;
  /** The listener's RTP port (the one every call's media uses), set by the adapter; 0 when none. */
  mediaPort = 0;
  /** The handler of calls on the wire, which the family's `wire` registered with the calls family (index.ts). */
  readonly handler: CallHandler;
  /** The digest challenges offered, in order (the listener's setting, not state). */
  challengeAlgorithms: readonly DigestAlgorithm[] = CHALLENGE_ALGORITHMS;

  constructor(private readonly scope: SipServerModelScope) {
    this.bindings = new Bindings(scope);
    this.nonces = new NonceBook(() => `sip-nonce:${scope.seed}`);
    const reply = (this.reply = (req: SipRequest, flow: Flow, send: (text: string) => void, answer: Answer) => {
      const out = responseTo(req, flow, { ...answer, toTag: answer.toTag ?? this.toTag(req) });
      if (answer.status >= 200) this.answered.remember(req, flow, out);
      send(out);
      return out;
    });
    const sdp = (d: Dialog) => writeAnswer({ host: this.listening?.host ?? '127.0.0.1', rtpPort: this.mediaPort, sessionId: d.localTag.replace(/\D/g, '').slice(0, 9) || '1', version: d.sdpVersion }, d.offer);
    const listening = () => this.listening;
    this.wireCalls = new SipCallsOnWire({
      logins: scope.sipAuth,
      nonces: this.nonces,
      now: () => scope.clock.now(),
      algorithms: (flow) => this.algorithmsFor(flow),
      listening,
      calls: scope.calls,
      dialogs: this.dialogs,
      toTag: (req) => this.toTag(req),
      reply,
      sdp,
      media: this.media,
    });
    const speech = new PhoneSpeech(scope.io);
    this.playout = new Playout({
      seed: () => scope.seed,
      now: () => scope.clock.now(),
      phoneLines: (callId) => this.phoneLines(callId),
      phoneMaySay: (callId) => scope.calls.handled.phoneSays(callId),
      prepare: (texts, landed) => speech.prepare(texts, landed),
      audio: (text) => speech.audio(text),
      peer: (callId) => this.media.peer(callId),
      maxBurstFrames: () => (scope.liveClock.mode().kind === 'realtime' ? MAX_LATE_FRAMES : MAX_BURST_FRAMES),
      send: (address, port, packet) => (this.sendMedia ? (this.sendMedia(address, port, packet), true) : false),
    });
    // What the server's own requests need (offers of inbound calls, dials): the clock, the seed, the UDP socket, its PCMU offer.
    const uac = {
      seed: () => scope.seed,
      now: () => scope.clock.now(),
      listening,
      sendUdp: (address: string, port: number, text: string) => (this.sendDatagram ? (this.sendDatagram(address, port, text), true) : false),
      sdpOffer: (key: string) => writeAnswer({ host: this.listening?.host ?? '127.0.0.1', rtpPort: this.mediaPort, sessionId: String(parseInt(createHash('sha256').update(key).digest('hex').slice(0, 8), 16)), version: 1 }, undefined),
    };
    this.offers = new SipOffers({
      ...uac,
      calls: scope.calls,
      routes: scope.sipEndpoints,
      dns: scope.dns,
      bindings: this.bindings,
      media: this.media,
      schedule: (at, callId, attempt) => void scope.jobs.schedule('sipServer.offerTimeout', at, { callId, attempt }),
    });
    scope.jobs.on('sipServer.offerTimeout', (p) => this.offers.timeout(p.callId, p.attempt));
    this.dials = new SipDials({
      ...uac,
      media: {
        warm: (callId) => this.playout.warm(callId),
        // The device hears the call's phone from the bridge on, and what it sends is the call's other side (call-recording.ts).
        connected: (callId, answer) => {
          this.media.expect(callId, answer.address, answer.port, takesMedia(answer));
          this.playout.start(callId, scope.clock.now());
        },
        stopped: (callId) => {
          this.playout.stop(callId);
          this.media.stop(callId);
        },
      },
      routes: scope.sipEndpoints,
      dns: scope.dns,
      schedule: (at, dialId, deadline) => void scope.jobs.schedule('sipServer.dialTimeout', at, { dialId, deadline }),
      canSend: () => this.sendDatagram !== null,
    });
    scope.jobs.on('sipServer.dialTimeout', (p) => this.dials.timeout(p.dialId, p.deadline));
    this.refers = new SipRefers({
      calls: scope.calls,
      routes: scope.sipEndpoints,
      dialogOf: (req) => this.referDialog(req) ?? this.offers.inDialog(req),
      isOwnHost: (host, port) => host === 'sip.claw-ops.com' || host.endsWith('.sip.claw-ops.com') || (host === this.listening?.host && [this.listening.udp, this.listening.tcp].includes(port ?? 5060)),
    });
    this.handler = sipCallHandler({ dialogs: this.dialogs, facts: () => scope.calls.handled, reply, sdp, contact: (d) => this.wireCalls.contact(d), listening, media: this.media, offers: this.offers, playout: this.playout });
  }

  /** What the phone says in a call, turn by turn: its script's turns with nothing heard (it cannot understand the client's audio). */
  private phoneLines(callId: string): string[] {
    const lines: string[] = [];
    for (let i = 0; i < MAX_PHONE_TURNS; i++) {
      const turn = this.scope.calls.handled.phoneTurn(callId, '');
      if (turn.kind === 'hangup' || (turn.say === null && turn.keys === null)) break;
      if (turn.say !== null) lines.push(turn.say);
    }
    return lines;
  }

  /** Forgets transaction state that belongs to the previous state (reset, restore). */
  forgetTransactions(): void {
    this.nonces.clear();
    this.answered.clear();
    this.dialogs.clear();
    this.media.clear();
    this.playout.clear();
    this.offers.clear();
    this.dials.clear();
    this.refers.clear();
  }

  /** A call a client's INVITE placed, as a REFER sees its dialog: the server's requests go back on the INVITE's flow. */
  private referDialog(req: SipRequest): ReferDialog | undefined {
    const d = this.dialogs.ofRequest(req);
    if (!d) return undefined;
    return {
      callId: d.callId,
      accountId: d.accountId,
      confirmed: d.state === 'confirmed',
      send: (method, _cseq, headers, body) => {
        const inv = d.invite;
        const target = inv.contacts === '*' || inv.contacts.length === 0 ? inv.from.uri.text : inv.contacts[0]!.uri.text;
        d.localCseq += 1; // the dialog's own counter, which its BYE also uses
        const port = d.flow.transport === 'tcp' ? this.listening?.tcp : this.listening?.udp;
        const transport = d.flow.transport === 'tcp' ? 'TCP' : d.flow.transport === 'ws' ? 'WS' : 'UDP';
        const all: [string, string][] = [['Contact', this.wireCalls.contact(d)], ...headers];
        d.send(uacRequest({ method, target, from: `${inv.header('to')};tag=${d.localTag}`, to: inv.header('from')!, callId: inv.callId, cseq: d.localCseq, branch: branchOf(inv.callId, d.localTag, method, d.localCseq), transport, viaPort: port, headers: all, ...(body ? { body } : {}) }, this.listening));
      },
      release: () => this.dialogs.forget(d),
    };
  }

  /**
   * The challenges a flow is offered: the listener's setting, but MD5 alone over WebSocket, where
   * the browser SIP stacks (JsSIP, SIP.js) answer only MD5 and cannot pick among challenges.
   */
  private algorithmsFor(flow: Flow): readonly DigestAlgorithm[] {
    return flow.transport === 'ws' ? WS_CHALLENGES : this.challengeAlgorithms;
  }

  /** A browser phone's WebSocket (RFC 7118) on the HTTP port: its messages go to receive(). */
  websocket(req: SimRequest): UpgradeAnswer {
    return sipWebSocket(
      {
        receive: (text, flow, send) => {
          this.scope.liveClock.sync(); // as before each HTTP request in realtime mode
          this.receive(text, flow, send, (e) => this.scope.liveClock.defect(e));
        },
      },
      req,
    );
  }

  /** A datagram on the RTP port (the socket adapter's). */
  receiveMedia(packet: Buffer, address: string, port: number): void {
    this.media.packet(packet, address, port);
  }

  /** The tag the server puts in To for a dialog or transaction: derived, so the same request gets the same tag. */
  private toTag(req: { callId: string; from: { tag: string | undefined } }): string {
    return createHash('sha256').update(`${this.scope.seed}|${req.callId}|${req.from.tag ?? ''}`).digest('hex').slice(0, 16);
  }

  /** One whole message from the wire; `send` answers on the flow it came from. */
  receive(text: string, flow: Flow, send: (text: string) => void, onDefect: DefectSink): void {
    if (text.trim() === '') return; // a CRLF keep-alive (RFC 5626 §3.5.1)
    if (text.length > MAX_MESSAGE_BYTES) {
      const end = text.indexOf('\r\n\r\n');
      if (end >= 0) this.tooLarge(text.slice(0, end), flow, send);
      return;
    }
    const parsed = parseSipMessage(text);
    if (!parsed.ok) {
      const answer = badRequestForUnparsed(text, flow, parsed.problem, createHash('sha256').update(text).digest('hex').slice(0, 16));
      if (answer !== undefined) send(answer);
      return;
    }
    const msg = parsed.message;
    if (msg.kind === 'response') {
      if (!this.dials.response(msg)) this.offers.response(msg); // answers to the server's own INVITEs (dials.ts, offers.ts); others dropped
      return;
    }
    const cached = this.answered.find(msg, flow);
    if (cached !== undefined) {
      send(cached);
      return;
    }
    let answer: Answer | undefined;
    try {
      answer = this.handle(msg, flow, text, send);
    } catch (e) {
      onDefect(e);
      answer = { status: 500, reason: 'Server Internal Error', headers: [['Warning', warning('internal simulator error')]] };
    }
    if (answer === undefined) return;
    const out = responseTo(msg, flow, { ...answer, toTag: answer.toTag ?? this.toTag(msg) });
    if (answer.status >= 200) this.answered.remember(msg, flow, out);
    send(out);
  }

  /** A message larger than the limit, of which only the head was read: a request gets 513 (RFC 3261 §21.5.14). */
  tooLarge(head: string, flow: Flow, send: (text: string) => void): void {
    const parsed = parseSipMessage(`${head}\r\n\r\n`);
    if (!parsed.ok || parsed.message.kind !== 'request' || parsed.message.method === 'ACK') return;
    const req = parsed.message;
    send(responseTo(req, flow, { status: 513, reason: 'Message Too Large', headers: [['Warning', warning(`messages are read up to ${MAX_MESSAGE_BYTES} bytes`)]], toTag: this.toTag(req) }));
  }

  private handle(req: SipRequest, flow: Flow, text: string, send: (text: string) => void): Answer | undefined {
    if (req.method === 'ACK') {
      this.wireCalls.ack(req); // a late offer's answer is read
      return undefined; // never answered (RFC 3261 §17.2.1, §13.2.2.4)
    }
    const declared = req.header('content-length');
    if (declared !== undefined && Number(declared) > Buffer.byteLength(text, 'latin1') - (text.indexOf('\r\n\r\n') + 4)) {
      return { status: 400, reason: 'Bad Request', headers: [['Warning', warning(`the body is shorter than Content-Length ${declared}`)]] };
    }
    switch (req.method) {
      case 'REGISTER':
        return register({ logins: this.scope.sipAuth, nonces: this.nonces, bindings: this.bindings, now: () => this.scope.clock.now(), algorithms: (f) => this.algorithmsFor(f) }, req, flow);
      case 'OPTIONS':
        return { status: 200, reason: 'OK', headers: [['Allow', ALLOWED_METHODS.join(', ')], ['Accept', 'application/sdp']] };
      case 'INVITE':
        return this.wireCalls.invite(req, flow, send);
      case 'BYE':
        return this.refers.bye(req) ?? this.offers.bye(req) ?? this.dials.bye(req) ?? this.wireCalls.bye(req);
      case 'REFER':
        return this.refers.refer(req, (answer) => this.reply(req, flow, send, answer));
      case 'CANCEL':
        return this.wireCalls.cancel(req, flow, send);
      default:
        return { status: 501, reason: 'Not Implemented', headers: [['Allow', ALLOWED_METHODS.join(', ')]] };
    }
  }
}
