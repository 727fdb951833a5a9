// Real I/O in flight to peers the user runs (webhook receivers): its results arrive in wall
// time, so the virtual clock must not move past an instant while I/O started at or before it
// is still under way, or the next step (a retry, say) would depend on how fast the network was.
// Peers register here; the clock advance (core/advance.ts) and the control plane wait on it.

export interface PendingIo {
  /** True while the peer has work started or queued. */
  readonly busy: boolean;
  /** Resolves once the peer is not busy. */
  whenIdle(): Promise<void>;
}

export class IoBarrier {
  private readonly peers: PendingIo[] = [];

  register(peer: PendingIo): void {
    this.peers.push(peer);
  }

  get busy(): boolean {
    return this.peers.some((p) => p.busy);
  }

  /** Resolves when every peer is idle at once (work finishing may start more work). */
  async settled(): Promise<void> {
    while (this.busy) await Promise.all(this.peers.filter((p) => p.busy).map((p) => p.whenIdle()));
  }
}
