// One control socket, from upgrade to close (Agent SDK protocol §2): registers the connection in
// its number's slot (or as retiring), records the hello, keeps it pinged, and hands each message
// about a call to the SDK call handler through narrow ports. Bad input never throws and never
// touches a call that is not this connection's: malformed JSON and unknown events are ignored with
// a journal warning (the runtimes ignore unknown events too); a message naming a call this
// connection does not hold is answered with an `error` event and a warning.
import type { LiveSocket, SocketSession } from '../../core/live-socket.ts';
import { parseControlMessage, type TransferRequest } from './control-messages.ts';
import type { Heartbeat, Pinged } from './heartbeat.ts';
import type { ControlPeer, ControlSlots } from './slots.ts';

export type CallVerdict = 'ok' | 'not-yours' | 'ignored';

export interface ControlCallPorts {
  /** call.accept: 'ignored' for a second accept (kept idempotent, with a warning). */
  accept(peer: ControlPeer, callId: string): CallVerdict;
  sessionFailed(peer: ControlPeer, callId: string, reason: string, message: string): CallVerdict;
  transfer(peer: ControlPeer, callId: string, request: TransferRequest): CallVerdict;
  /** A transfer request with a bad field: answered with call.transfer.failed (when the call is the peer's). */
  transferRefused(peer: ControlPeer, callId: string, requestId: string | null, field: string, reason: string): CallVerdict;
  /** call.telemetry / call.metrics: accepted, counted, never answered. */
  report(peer: ControlPeer, callId: string, kind: 'telemetry' | 'metrics'): CallVerdict;
}

export interface JournalPort {
  warn(peer: ControlPeer, message: string, callId?: string): void;
}

export interface ControlSessionDeps {
  slots: ControlSlots;
  heartbeat: Heartbeat;
  calls: ControlCallPorts;
  journal: JournalPort;
  /** The socket closed: forget it everywhere (after the slot update). */
  gone(peer: ControlPeer): void;
}

/** Largest control message accepted (a transfer with its context is a few KB). */
export const MAX_CONTROL_MESSAGE_BYTES = 64 * 1024;

export function controlSession(socket: LiveSocket, peer: Omit<ControlPeer, 'send' | 'close' | 'role' | 'hello' | 'calls'>, retiring: boolean, deps: ControlSessionDeps): SocketSession {
  const p: ControlPeer = {
    ...peer,
    role: 'owner',
    hello: undefined,
    calls: new Set(),
    send: (event) => socket.send(JSON.stringify(event)),
    close: (code, reason) => socket.close(code, reason),
  };
  const pinged: Pinged = { ping: () => socket.ping(), dead: () => socket.close(1001, 'no answer to pings') };
  deps.slots.open(p, retiring);
  deps.heartbeat.add(pinged);

  const verdict = (v: CallVerdict, callId: string, what: string) => {
    if (v !== 'not-yours') return;
    deps.journal.warn(p, `${what} for call ${callId}, which this connection does not hold: refused`, callId);
    p.send({ event: 'error', code: 'CALL_NOT_FOUND', message: `call ${callId} is not a call of this connection`, callId });
  };

  return {
    message(data, binary) {
      if (binary) return deps.journal.warn(p, 'a binary message on the control socket was ignored (the protocol is JSON text)');
      const m = parseControlMessage(data);
      switch (m.event) {
        case 'refused':
          return deps.journal.warn(p, `control message ignored: ${m.reason}`);
        case 'agent.hello':
          p.hello = m.hello;
          return;
        case 'call.accept':
          return verdict(deps.calls.accept(p, m.callId), m.callId, 'call.accept');
        case 'call.session_failed':
          return verdict(deps.calls.sessionFailed(p, m.callId, m.reason, m.message), m.callId, 'call.session_failed');
        case 'call.transfer':
          return verdict(deps.calls.transfer(p, m.callId, m.transfer), m.callId, 'call.transfer');
        case 'call.transfer.invalid':
          return verdict(deps.calls.transferRefused(p, m.callId, m.requestId, m.field, m.reason), m.callId, 'call.transfer');
        case 'call.telemetry':
        case 'call.metrics':
          return verdict(deps.calls.report(p, m.callId, m.event === 'call.telemetry' ? 'telemetry' : 'metrics'), m.callId, m.event);
      }
    },
    pong() {
      deps.heartbeat.pong(pinged);
    },
    closed() {
      deps.heartbeat.remove(pinged);
      deps.slots.closed(p);
      deps.gone(p);
    },
  };
}
