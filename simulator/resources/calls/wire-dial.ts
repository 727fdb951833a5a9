// Dialing SIP URIs over the wire (docs/decisions.md "SIP on the wire", Dials to SIP): when a
// family that speaks SIP on a socket registers a dialer (the SIP server does while it can), a
// call-flow `dial` block, a handler's transfer (SIP REFER) and VoiceML `<Dial><Sip>` to a SIP URI
// ring a real SIP device instead of asking the fake carrier. Calls need nothing from that
// family: it registers here, as call handlers do. The dialer tells how the device answered; this
// file maps its SIP final codes to a leg's ending.
import type { LegStatus } from './transfers.ts';

/** One dial of a SIP URI on the wire. */
export interface WireDialRequest {
  callId: string;
  accountId: string;
  /** The caller id the device sees (the platform's number on the call). */
  from: string;
  /** The SIP URI dialed, as the flow, document or transfer gave it. */
  uri: string;
  /** Seconds the device may ring before it is canceled. */
  timeoutSec: number;
}

/** What the dialer reports, always later than the dial itself (never inside `dial`). */
export interface WireDialEvents {
  /** The device rings (a provisional answer). */
  ringing(): void;
  /** The device answered (a 2xx); the leg talks until a BYE or the call's end. */
  answered(): void;
  /** The dial is over: a final code >= 300 before the answer (408 for a device that never answered in time), 200 after a BYE from the device. */
  ended(code: number): void;
}

/** A dial on the wire, as the calls family holds it while it goes on. */
export interface WireDialHandle {
  /** The call ended or moved on: CANCEL a ringing dial, BYE an answered one (no event follows). */
  hangUp(): void;
}

export interface WireDialer {
  /** Whether a listener runs now: without one, SIP targets keep their simulated behaviour. */
  online(): boolean;
  /**
   * Dials now, or says why it cannot: `offline` when no listener runs (the simulated behaviour
   * applies), `unreachable` with a SIP code when the URI's host cannot be reached from here (a
   * DNS name the fake DNS does not know, a TLS target).
   */
  dial(req: WireDialRequest, events: WireDialEvents): WireDialHandle | { offline: true } | { unreachable: number; reason: string };
}

/** The dialer registered now, if any (one: the SIP server's). */
export class WireDialers {
  private dialer: WireDialer | undefined;

  use(dialer: WireDialer): void {
    if (this.dialer) throw new Error('a wire dialer is registered twice');
    this.dialer = dialer;
  }

  get(): WireDialer | undefined {
    return this.dialer;
  }
}

/** How a leg ends for a SIP final code from the wire: status, Q.850 cause and reason (the SIP code is kept as it came). */
export interface WireEnding {
  status: LegStatus;
  /** The outcome word a dial block and VoiceML's DialCallStatus read (`rejected` reads busy there). */
  outcome: 'completed' | 'busy' | 'no-answer' | 'rejected' | 'failed';
  q850: number;
  reason: string | null;
}

/** The mapping of docs/decisions.md "SIP on the wire" (Dials to SIP: final codes). */
export function wireEnding(code: number): WireEnding {
  if (code >= 200 && code < 300) return { status: 'completed', outcome: 'completed', q850: 16, reason: null };
  if (code === 486 || code === 600) return { status: 'busy', outcome: 'busy', q850: 17, reason: 'USER_BUSY' };
  if (code === 603) return { status: 'failed', outcome: 'rejected', q850: 21, reason: 'CALL_REJECTED' };
  if (code === 480 || code === 408 || code === 487) return { status: 'no-answer', outcome: 'no-answer', q850: 19, reason: 'NO_ANSWER' };
  if (code === 404 || code === 604) return { status: 'failed', outcome: 'failed', q850: 1, reason: 'UNALLOCATED_NUMBER' };
  if (code >= 500) return { status: 'failed', outcome: 'failed', q850: 38, reason: 'NETWORK_OUT_OF_ORDER' };
  return { status: 'failed', outcome: 'failed', q850: 21, reason: 'CALL_REJECTED' };
}
