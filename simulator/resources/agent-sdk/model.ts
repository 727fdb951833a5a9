// The Agent SDK family's model: control connections and their slots, media tokens, the pacer and
// heartbeat, the call handler and the journal, and the two WebSocket endpoints' admission rules.
//   control `/v1/accounts/{accountId}/agent/listen?number=…[&role=retiring]`: Bearer key on the
//     upgrade (none or unknown: 401; another account's: 403; no `number`: 400, all as HTTP answers
//     before any socket); a number the account does not own is accepted and closed at once with
//     4403, which the runtimes read as final (an HTTP refusal would make them retry forever).
//   media `/v1/agent/media/{callId}?token=…`: the call's one-time token (sdk-calls.ts).
// Live I/O only: none of it is in the state snapshot (docs/decisions.md "Agent SDK").
import type { UpgradeAnswer } from '../../core/live-socket.ts';
import type { SimResponse } from '../../core/operation.ts';
import type { SdkCallActions, SdkEventsPort, SpeechPort, TimerPort } from './call-ports.ts';
import { controlSession, MAX_CONTROL_MESSAGE_BYTES } from './control-session.ts';
import { Heartbeat } from './heartbeat.ts';
import { MediaTokens } from './media-tokens.ts';
import { MediaPacer } from './media/pacer.ts';
import { FRAME_MS } from './media/engine.ts';
import { SdkCalls } from './sdk-calls.ts';
import { ControlSlots, CLOSE_OWNERSHIP_LOST, type ControlPeer } from './slots.ts';
import { AgentJournal } from './journal.ts';
import type { SocketSession } from '../../core/live-socket.ts';

/** A socket session whose every event first brings the virtual clock up to date (realtime mode). */
function synced(session: SocketSession, sync: () => void): SocketSession {
  return {
    message: (data, binary) => (sync(), session.message(data, binary)),
    closed: (code, reason) => (sync(), session.closed(code, reason)),
    ...(session.pong ? { pong: () => session.pong!() } : {}),
  };
}

export interface AgentSdkPorts {
  timers: TimerPort;
  nowIso(): string;
  /** The account a key belongs to. */
  accountForKey(key: string): string | undefined;
  /** The number in the account's form (domestic digits), or undefined when it is not a phone number. */
  normalise(number: string): string | undefined;
  ownsNumber(accountId: string, number: string): boolean;
  randomHex(chars: number): string;
  events: SdkEventsPort;
  actions(): SdkCallActions;
  speech: SpeechPort;
  phoneLines(callId: string): readonly string[];
  /** `manual`: the virtual clock follows open media (advanced a frame per frame played); read when needed (set after start-up). */
  clock(): { mode: 'manual' } | { mode: 'realtime'; speed: number };
  /** Moves the virtual clock forward (manual mode, following open media). */
  advance(ms: number): void;
  /** Brings the virtual clock up to wall time (realtime mode; no-op in manual mode), as before a request. */
  sync(): void;
  refuse(status: number, code: string, message: string): SimResponse;
  onDefect(e: unknown): void;
  /** Wall ms between server pings on control sockets (default 25 s; tests shorten it). */
  pingIntervalMs?: number;
}

export class AgentSdkModel {
  readonly slots: ControlSlots;
  readonly tokens = new MediaTokens();
  readonly pacer: MediaPacer;
  readonly heartbeat: Heartbeat;
  readonly calls: SdkCalls;
  readonly journal = new AgentJournal();
  private nextPeer = 1;

  constructor(private readonly p: AgentSdkPorts) {
    this.heartbeat = new Heartbeat(p.pingIntervalMs);
    this.slots = new ControlSlots({
      connected: (peer) => p.events.agentConnection('agent.connected', peer.accountId, peer.number, p.nowIso()),
      disconnected: (peer) => p.events.agentConnection('agent.disconnected', peer.accountId, peer.number, p.nowIso()),
    });
    const frameMs = () => {
      const c = p.clock();
      return c.mode === 'realtime' ? FRAME_MS / c.speed : FRAME_MS;
    };
    this.pacer = new MediaPacer(frameMs, () => (p.clock().mode === 'manual' ? p.advance(FRAME_MS) : p.sync()), p.onDefect);
    this.calls = new SdkCalls({
      slots: this.slots,
      tokens: this.tokens,
      pacer: this.pacer,
      timers: p.timers,
      actions: () => p.actions(),
      speech: p.speech,
      phoneLines: (id) => p.phoneLines(id),
      randomHex: (n) => p.randomHex(n),
      mediaUrl: (callId, token) => `${this.origin}/v1/agent/media/${callId}?token=${token}`,
      warn: (accountId, message, callId) => this.journal.add(p.nowIso(), accountId, message, callId),
      refuse: p.refuse,
    });
  }

  /** ws:// origin the media URLs point at (set from the Host of the control upgrade). */
  origin = 'ws://127.0.0.1';

  /** An upgrade of the control endpoint. */
  control(accountId: string, query: URLSearchParams, bearer: string | undefined, origin: string): UpgradeAnswer {
    this.p.sync();
    if (bearer === undefined || bearer === '') return { refuse: this.p.refuse(401, 'UNAUTHORIZED', 'the control socket needs "Authorization: Bearer <API key>" on the upgrade') };
    const keyAccount = this.p.accountForKey(bearer);
    if (!keyAccount) return { refuse: this.p.refuse(401, 'UNAUTHORIZED', 'the API key is not valid') };
    if (keyAccount !== accountId) return { refuse: this.p.refuse(403, 'FORBIDDEN', `the API key does not belong to account ${accountId}`) };
    const raw = query.get('number');
    if (!raw) return { refuse: this.p.refuse(400, 'VALIDATION', 'number is required: the phone number this agent answers (?number=…)') };
    const number = this.p.normalise(raw);
    const owned = number !== undefined && this.p.ownsNumber(accountId, number);
    const retiring = query.get('role') === 'retiring';
    this.origin = origin;
    return {
      maxMessageBytes: MAX_CONTROL_MESSAGE_BYTES,
      accept: (socket) => {
        if (!owned) {
          // Accepted, then closed as final: the runtimes do not reconnect on 4403.
          socket.close(CLOSE_OWNERSHIP_LOST, `number ${raw} is not a number of account ${accountId}`);
          return { message() {}, closed() {} };
        }
        return synced(controlSession(socket, { id: this.nextPeer++, accountId, number: number!, openedAt: this.p.nowIso() }, retiring, {
          slots: this.slots,
          heartbeat: this.heartbeat,
          calls: this.calls,
          journal: { warn: (peer: ControlPeer, m: string, callId?: string) => this.journal.add(this.p.nowIso(), peer.accountId, m, callId, peer.number) },
          gone: () => {},
        }), () => this.p.sync());
      },
    };
  }

  /** An upgrade of a call's media endpoint. */
  media(callId: string, query: URLSearchParams, bearer: string | undefined): UpgradeAnswer {
    this.p.sync();
    // The token is the credential; a key sent beside it (the runtimes send one) must be valid and the call's account's.
    const bearerAccount = bearer ? this.p.accountForKey(bearer) : undefined;
    if (bearer && !bearerAccount) return { refuse: this.p.refuse(401, 'UNAUTHORIZED', 'the API key is not valid') };
    const answer = this.calls.media(callId, query.get('token'), bearerAccount);
    if ('refuse' in answer) return answer;
    return { ...answer, accept: (socket) => synced(answer.accept(socket), () => this.p.sync()) };
  }

  /** The number left the account: its control sockets close with 4403. */
  numberReleased(accountId: string, number: string): void {
    this.slots.ownershipLost(accountId, number);
  }

  /** The SDK calls in progress, described (a snapshot cannot hold them: their sockets are live). */
  liveCalls(): string[] {
    return [...this.calls.calls.values()].filter((c) => c.phase !== 'ended').map((c) => `Agent SDK call ${c.info.callId} (${c.phase})`);
  }

  /** Closes every socket (1012, service restart: the runtimes reconnect) and forgets the calls: a reset or a restored snapshot. */
  closeAll(): void {
    for (const call of this.calls.calls.values()) call.session?.stop();
    for (const peer of [...this.slots.peers.values()]) peer.close(1012, 'simulator reset');
    this.calls.calls.clear();
    this.journal.clear();
  }

  close(): void {
    this.closeAll();
    this.pacer.stop();
    this.heartbeat.stop();
  }
}
