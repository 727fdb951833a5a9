// Keep-alive of the control sockets, on the wall clock (socket I/O, allow-listed by the
// determinism test; it never decides a call's outcome): the server pings each control socket every
// PING_INTERVAL_MS (the Node runtime drops a link that has had no server ping for 60 s, so at most
// every 30 s), pings from clients are answered by the WebSocket layer itself, and a socket that
// answered none of its last two pings is closed as dead (1001), which frees its number's slot
// instead of leaving calls to an agent that is gone.

export const PING_INTERVAL_MS = 25_000;

export interface Pinged {
  ping(): void;
  /** The peer stopped answering: close it. */
  dead(): void;
}

export class Heartbeat {
  private readonly sockets = new Map<Pinged, { unanswered: number }>();
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(private readonly intervalMs = PING_INTERVAL_MS) {}

  add(s: Pinged): void {
    this.sockets.set(s, { unanswered: 0 });
    if (!this.timer) {
      this.timer = setInterval(() => this.beat(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** The peer answered (a pong): it is alive. */
  pong(s: Pinged): void {
    const state = this.sockets.get(s);
    if (state) state.unanswered = 0;
  }

  remove(s: Pinged): void {
    this.sockets.delete(s);
    if (this.sockets.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private beat(): void {
    for (const [s, state] of [...this.sockets]) {
      if (state.unanswered >= 2) {
        this.sockets.delete(s);
        s.dead();
        continue;
      }
      state.unanswered++;
      s.ping();
    }
    if (this.sockets.size === 0) this.stop();
  }
}
