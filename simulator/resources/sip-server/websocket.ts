// SIP over WebSocket (RFC 7118) on the HTTP port, for browser phones: an upgrade at SIP_WS_PATH
// that offers the `sip` subprotocol becomes a SIP flow (transport `ws`): each text message is one
// SIP message for the SIP server, and its answers and requests go back on the socket. A request
// without the `sip` subprotocol is refused (400) before any socket exists. The flow's port is the
// connection's number (a WebSocket has no port of its own that matters to SIP).
import { header, type SimRequest } from '../../core/operation.ts';
import { ApiError, errorBody } from '../../core/errors.ts';
import type { UpgradeAnswer } from '../../core/live-socket.ts';
import { plainAddress, type Flow } from './flow.ts';
import { MAX_MESSAGE_BYTES } from './schema.ts';

/** The path browser phones connect to (`ws://<host>:<port>/sip`). */
export const SIP_WS_PATH = '/sip';

export interface WebSocketHost {
  /** One SIP message on a flow (the SIP server's receive, the clock brought up to date first). */
  receive(text: string, flow: Flow, send: (text: string) => void): void;
}

let connections = 0;

export function sipWebSocket(host: WebSocketHost, req: SimRequest): UpgradeAnswer {
  const offered = (header(req, 'sec-websocket-protocol') ?? '').split(',').map((p) => p.trim().toLowerCase());
  if (!offered.includes('sip')) {
    const e = ApiError.validation('SIP over WebSocket needs the subprotocol "sip" (Sec-WebSocket-Protocol: sip, RFC 7118)', [{ path: 'Sec-WebSocket-Protocol', message: 'must offer sip' }]);
    return { refuse: { status: e.status, headers: { 'content-type': 'application/json' }, body: JSON.stringify(errorBody(e)) } };
  }
  const flow: Flow = { transport: 'ws', address: plainAddress(req.remoteAddress ?? '127.0.0.1'), port: ++connections, connection: connections };
  return {
    maxMessageBytes: MAX_MESSAGE_BYTES,
    accept(socket) {
      const send = (text: string) => socket.send(text);
      return {
        message: (data, binary) => {
          if (!binary) host.receive(data, flow, send);
        },
        closed: () => {},
      };
    },
  };
}
