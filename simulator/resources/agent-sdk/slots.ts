// Control connections and the one slot per number (Agent SDK protocol §2.6). Last wins: a new
// connection for a number takes its slot; the one it replaces is told `agent.retired` and kept
// open while it still has calls, when its hello declared `capabilities: ["retire"]`, and is
// otherwise closed with 4409 "replaced". A connection opened with `role=retiring` never takes the
// slot and never evicts the owner. A number gains its agent when the first connection takes an
// empty slot (`agent.connected`) and loses it when the owner goes with no successor
// (`agent.disconnected`); a handover is neither. The slot is taken at upgrade time, before any
// hello (a createCall can follow at once). Live I/O, kept outside the state snapshot.
import type { Hello } from './control-messages.ts';

export type Role = 'owner' | 'retiring' | 'retired' | 'closed';

export interface ControlPeer {
  readonly id: number;
  readonly accountId: string;
  readonly number: string;
  role: Role;
  /** The last agent.hello on this connection (hello comes once per connect(), not per reconnect). */
  hello: Hello | undefined;
  /** Virtual instant the socket opened. */
  readonly openedAt: string;
  /** Calls routed to this connection and not ended. */
  readonly calls: Set<string>;
  send(event: Record<string, unknown>): void;
  close(code: number, reason: string): void;
}

export interface SlotEvents {
  /** A number gained its connected agent (`agent.connected`). */
  connected(peer: ControlPeer): void;
  /** A number lost its connected agent (`agent.disconnected`). */
  disconnected(peer: ControlPeer): void;
}

export const CLOSE_REPLACED = 4409;
export const CLOSE_OWNERSHIP_LOST = 4403;

const key = (accountId: string, number: string) => `${accountId}\u0000${number}`;

export class ControlSlots {
  private readonly owners = new Map<string, ControlPeer>();
  /** Every open connection, by id (owners, retiring and retired ones). */
  readonly peers = new Map<number, ControlPeer>();

  constructor(private readonly events: SlotEvents) {}

  /** Registers an opened connection; it takes the number's slot unless it is retiring. */
  open(peer: ControlPeer, retiring: boolean): void {
    this.peers.set(peer.id, peer);
    if (retiring) {
      peer.role = 'retiring';
      return;
    }
    const k = key(peer.accountId, peer.number);
    const previous = this.owners.get(k);
    this.owners.set(k, peer);
    peer.role = 'owner';
    if (previous) this.retire(previous, 'replaced');
    else this.events.connected(peer);
  }

  /** The connection holding the number's slot. */
  owner(accountId: string, number: string): ControlPeer | undefined {
    return this.owners.get(key(accountId, number));
  }

  /** The socket closed (either side): the slot frees when its owner goes. */
  closed(peer: ControlPeer): void {
    const wasOwner = peer.role === 'owner';
    peer.role = 'closed';
    this.peers.delete(peer.id);
    const k = key(peer.accountId, peer.number);
    if (wasOwner && this.owners.get(k) === peer) {
      this.owners.delete(k);
      this.events.disconnected(peer);
    }
  }

  /** A call routed to the connection ended: a retired connection with no call left is closed. */
  callEnded(peer: ControlPeer, callId: string): void {
    peer.calls.delete(callId);
    if (peer.role === 'retired' && peer.calls.size === 0) peer.close(CLOSE_REPLACED, 'replaced');
  }

  /** The number left the account: its connections are closed with 4403. */
  ownershipLost(accountId: string, number: string): void {
    for (const p of [...this.peers.values()]) if (p.accountId === accountId && p.number === number) p.close(CLOSE_OWNERSHIP_LOST, 'ownership lost');
  }

  private retire(previous: ControlPeer, reason: string): void {
    if (previous.hello?.capabilities.includes('retire')) {
      previous.role = 'retired';
      previous.send({ event: 'agent.retired', number: previous.number, reason });
      if (previous.calls.size === 0) previous.close(CLOSE_REPLACED, reason);
    } else {
      previous.role = 'retired';
      previous.close(CLOSE_REPLACED, reason);
    }
  }
}
