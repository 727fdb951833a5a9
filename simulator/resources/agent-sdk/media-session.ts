// One media socket of an Agent SDK call, from upgrade to close (protocol §3): sends `connected`
// and `start` at once, joins the pacer (a frame each way per 20 ms), applies the agent's messages
// at the current media position, lets the phone take its turns, and reports how the media ended:
//   - the agent closed the socket (after the hang-up handshake or not): the agent hung up;
//   - the socket dropped without a close frame: the agent's process failed (the call is hung up);
//   - the call ended on the platform's side (the phone hung up, a transfer began, the call was
//     ended by REST): `stop`, then a normal close, and the socket's end changes nothing more.
// A client that stops reading is not buffered without bound: past MAX_BUFFERED bytes waiting to be
// sent, frames are skipped on the wire (the media clock still advances) and the journal says so.
import type { LiveSocket, SocketSession } from '../../core/live-socket.ts';
import { parseClientMediaMessage } from './media/client-messages.ts';
import { MediaEngine, type StreamIds } from './media/engine.ts';
import type { MediaPacer, PacedStream } from './media/pacer.ts';
import { PhoneSide, type PhoneSidePorts } from './phone-side.ts';
import { ResponseLatency } from './media/latency.ts';

/** Bytes the socket may hold unsent before frames are skipped (about 40 s of frames). */
export const MAX_BUFFERED = 1024 * 1024;

export type MediaEnd = { by: 'agent'; code: number; reason: string } | { by: 'platform' };

export interface MediaSessionDeps {
  pacer: MediaPacer;
  /** The phone's script and voice for this call. */
  phone: Omit<PhoneSidePorts, 'hangUp'>;
  /** The phone hung up (nothing left to say): the call ends, hung up by the caller. */
  phoneHungUp(session: MediaSession): void;
  /** The socket closed: the agent ended the media (close or drop), or the platform's stop was answered. */
  closed(session: MediaSession, end: MediaEnd): void;
  warn(message: string): void;
  /** The first frame is being played: position 0 of the stream. */
  firstFrame(session: MediaSession): void;
}

export class MediaSession implements PacedStream {
  readonly engine: MediaEngine;
  readonly phone: PhoneSide;
  /** Frames not sent because the client was not reading. */
  skipped = 0;
  /** Conversation turns already handed to the call's log (turns.ts). */
  turnsHandedOver = 0;
  readonly latency = new ResponseLatency();
  private ended: MediaEnd | undefined;
  private warnedSlow = false;

  constructor(
    readonly ids: StreamIds,
    private readonly socket: LiveSocket,
    private readonly deps: MediaSessionDeps,
  ) {
    this.engine = new MediaEngine(ids, (text) => this.send(text));
    this.phone = new PhoneSide(this.engine, { ...deps.phone, hangUp: () => deps.phoneHungUp(this) });
  }

  /** Starts the stream: connected, start, then frames on the pacer's grid. */
  start(): SocketSession {
    this.engine.open();
    this.deps.pacer.add(this);
    return {
      message: (data, binary) => {
        if (binary) return this.deps.warn('a binary message on the media socket was ignored (the protocol is JSON text)');
        const m = parseClientMediaMessage(data);
        if (m.event === 'refused') this.deps.warn(`media message ignored: ${m.reason}`);
        if (m.event === 'media') this.latency.agentAudio();
        this.engine.receive(m);
      },
      closed: (code, reason) => {
        this.deps.pacer.remove(this);
        this.ended ??= { by: 'agent', code, reason };
        this.deps.closed(this, this.ended);
      },
    };
  }

  tick(): void {
    if (this.engine.position === 0) this.deps.firstFrame(this);
    const phoneWasBusy = this.engine.phoneBusy;
    this.engine.tick();
    if (phoneWasBusy && !this.engine.phoneBusy) this.latency.phoneFinished();
    this.phone.afterTick();
  }

  /** The call ended on the platform's side: stop, then close normally. */
  stop(): void {
    if (this.ended) return;
    this.ended = { by: 'platform' };
    this.deps.pacer.remove(this);
    this.engine.stop();
    this.socket.close(1000, 'call ended');
  }

  get end(): MediaEnd | undefined {
    return this.ended;
  }

  private send(text: string): void {
    if (this.socket.buffered > MAX_BUFFERED && text.startsWith('{"event":"media"')) {
      this.skipped++;
      if (!this.warnedSlow) {
        this.warnedSlow = true;
        this.deps.warn('the agent is not reading its media socket: frames are being skipped on the wire');
      }
      return;
    }
    this.socket.send(text);
  }
}
