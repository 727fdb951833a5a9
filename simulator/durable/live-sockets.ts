// The WebSockets the simulator serves (the Agent SDK's control and media sockets), as the durable
// journal sees them (docs/decisions.md "Durable state"). What a socket does to the state enters
// through its session: the socket opened (its upgrade request, journaled once the handshake is
// done; on replay the upgrade is decided again there), each message, the close; each is journaled
// before the session hears it, and the journal is written before the simulator sends anything on
// a socket.
// On replay each socket is played by a stand-in that sends nothing. A socket cannot outlive its
// process: once the journal is replayed, every socket it left open is closed as a crash closes
// one (1006, no close frame), journaled like any close, and the calls it carried go on as the
// protocol says for a dropped socket. A compaction waits for a moment with no socket open.
import type { LiveSocket, SocketSession, UpgradeAnswer } from '../core/live-socket.ts';
import type { SimRequest } from '../core/operation.ts';
import { entryRequest, requestEntry, type Entry, type SocketEntry } from './entries.ts';

type Upgrade = (req: SimRequest) => UpgradeAnswer | Promise<UpgradeAnswer>;

/** A socket on replay: nothing goes out; it is open until the journal (or the restart) closes it. */
class StandIn implements LiveSocket {
  open = true;
  readonly buffered = 0;
  send(): void {}
  ping(): void {}
  close(): void {
    // The close the live socket made is a later entry of the journal ('x'), if it happened.
  }
}

interface Replayed {
  socket: StandIn;
  /** Undefined when the upgrade was refused on replay (warned): its entries are passed over. */
  session?: SocketSession;
}

/** Close code of a socket dropped without a close frame (RFC 6455 §7.1.5): what a crash leaves. */
export const CRASH_CLOSE = 1006;

export class SocketJournal {
  private next = 1;
  private readonly live = new Set<number>(); // ids of sockets accepted and not closed, this process
  private readonly replayed = new Map<number, Replayed>(); // maps a journaled socket id to its stand-in (replay)

  constructor(
    private readonly append: (entry: Entry) => void,
    private readonly flush: () => void,
    private readonly warn: (message: string) => void,
  ) {}

  /** Sockets open now (a compaction waits for none). */
  get open(): number {
    return this.live.size + [...this.replayed.values()].filter((r) => r.socket.open).length;
  }

  /** The upgrade handler with the journal around it (live). */
  wrap(upgrade: Upgrade): Upgrade {
    const journaled = (req: SimRequest, answer: UpgradeAnswer): UpgradeAnswer => {
      if ('refuse' in answer) return answer; // an HTTP refusal changes nothing
      return {
        maxMessageBytes: answer.maxMessageBytes,
        accept: (socket) => {
          const s = this.next++;
          const { t: _, ...request } = requestEntry(req);
          this.append({ ...request, t: 'u', s });
          this.live.add(s);
          const session = answer.accept(this.flushingBeforeSend(socket));
          return this.journaledSession(s, session);
        },
      };
    };
    return (req) => {
      const answer = upgrade(req);
      return answer instanceof Promise ? answer.then((a) => journaled(req, a)) : journaled(req, answer);
    };
  }

  /** Replay: one socket entry; false when it names a socket the replay does not know (the journal does not fit this code). */
  replay(e: SocketEntry, upgrade: (req: SimRequest) => UpgradeAnswer): boolean {
    if (e.t === 'u') {
      const { s, t: _, ...request } = e;
      const answer = upgrade(entryRequest({ t: 'q', ...request }));
      const socket = new StandIn();
      // Decided live at the request and here at the open: a refusal now (a token expired in between) skips the socket.
      if ('refuse' in answer) this.warn(`socket ${s} of the journal is refused on replay (${answer.refuse.status} ${answer.refuse.body}); its messages are passed over`);
      this.replayed.set(s, { socket, session: 'refuse' in answer ? undefined : answer.accept(socket) });
      this.next = Math.max(this.next, s + 1);
      return true;
    }
    const r = this.replayed.get(e.s);
    if (!r) return false;
    switch (e.t) {
      case 'm':
        r.session?.message(e.d, e.b === 1);
        return true;
      case 'x':
        r.socket.open = false;
        this.replayed.delete(e.s);
        r.session?.closed(e.c, e.r);
        return true;
    }
  }

  /** Replay is over: the sockets it left open died with the process; each closes as a crash closes one, journaled. */
  closeReplayed(): void {
    for (const [s, r] of [...this.replayed]) {
      this.replayed.delete(s);
      r.socket.open = false;
      if (!r.session) continue; // refused on replay: nothing is open
      this.append({ t: 'x', s, c: CRASH_CLOSE, r: '' });
      r.session.closed(CRASH_CLOSE, '');
    }
  }

  /** Numbering starts again with a new journal (after a compaction, which waits for no socket open). */
  restartNumbering(): void {
    this.next = 1;
  }

  private journaledSession(s: number, session: SocketSession): SocketSession {
    return {
      message: (data, binary) => {
        this.append(binary ? { t: 'm', s, d: '', b: 1 } : { t: 'm', s, d: data });
        session.message(data, binary);
      },
      closed: (code, reason) => {
        this.live.delete(s);
        this.append({ t: 'x', s, c: code, r: reason });
        session.closed(code, reason);
      },
      // Pongs only keep the heartbeat's count: a socket it then closes is journaled by its close.
      ...(session.pong ? { pong: () => session.pong!() } : {}),
    };
  }

  /** What the simulator says on a socket may reflect state: the journal is written first. */
  private flushingBeforeSend(socket: LiveSocket): LiveSocket {
    return {
      send: (text) => {
        this.flush();
        socket.send(text);
      },
      close: (code, reason) => {
        this.flush();
        socket.close(code, reason);
      },
      ping: () => socket.ping(),
      get open() {
        return socket.open;
      },
      get buffered() {
        return socket.buffered;
      },
    };
  }
}
