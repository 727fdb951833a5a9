// The shape of a WebSocket the simulator serves, as families see it: no library types cross this
// line (server.ts adapts `ws` to it), so a family's socket logic is tested with a plain object.
// An upgrade request is answered like any request: refused with an HTTP answer (the spec's error
// body, before any WebSocket exists), or accepted with the session that will own the socket.
import type { SimResponse } from './operation.ts';

export interface LiveSocket {
  /** Sends one text message (JSON, for every protocol the simulator speaks); dropped once closed. */
  send(text: string): void;
  /** Starts the closing handshake with a close code and reason (RFC 6455 §7.4). */
  close(code: number, reason: string): void;
  /** Sends a ping; the peer's pong reaches SocketSession.pong. */
  ping(): void;
  readonly open: boolean;
  /** Bytes accepted by send() but not yet written to the network (back-pressure). */
  readonly buffered: number;
}

export interface SocketSession {
  /** One complete message from the peer: text, or binary (which no protocol here uses). */
  message(data: string, binary: boolean): void;
  /** The socket closed (either side, or the network); `code` 1006 when no close frame came. */
  closed(code: number, reason: string): void;
  pong?(): void;
}

export type UpgradeAnswer =
  | { refuse: SimResponse }
  | {
      accept(socket: LiveSocket): SocketSession;
      /** Largest message accepted; a larger one closes the socket with 1009 (message too big). */
      maxMessageBytes: number;
    };
