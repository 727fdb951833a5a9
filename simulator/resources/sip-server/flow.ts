// Where a SIP message came from and how to answer it: the transport, the peer's address and
// port, and (stream transports) the connection it arrived on. The socket adapter
// (simulator/sip-sockets.ts) fills it in; the SIP server answers on the same flow (RFC 3261
// §18.2.2 with RFC 3581: a response goes back to the source address and port it came from).
export type SipTransportName = 'udp' | 'tcp' | 'ws';

export interface Flow {
  transport: SipTransportName;
  /** The peer's IP address (IPv4 dotted quad; an IPv4-mapped IPv6 address is given as IPv4). */
  address: string;
  port: number;
  /** Stream transports: the connection's id, to answer on it. */
  connection?: number;
}

/** How the SIP server sends: bytes on a flow (the adapter drops them if the connection has gone). */
export type SendOnFlow = (flow: Flow, text: string) => void;

/** The listener's addresses, as /_sim/health shows them. */
export type { SipListening } from '../../core/sip-listening.ts';

/** The key of a flow in caches: transport, address, port. */
export function flowKey(f: Flow): string {
  return `${f.transport}|${f.address}|${f.port}`;
}

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) as IPv4; others as given. */
export function plainAddress(address: string | undefined): string {
  if (address === undefined) return '0.0.0.0';
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : address;
}
