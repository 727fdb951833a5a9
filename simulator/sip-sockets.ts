// The SIP listener's sockets (DESIGN: server.ts and this file are the adapters, no domain logic):
// UDP and TCP on one host, the same port for both when it can (port 0 picks a free one). A
// datagram is one message; a TCP stream is framed by Content-Length (resources/sip-server/
// framing.ts), answered on its connection, and closed when its framing is lost. Every message
// goes to the SIP server, which answers on the flow it came from; a socket error closes that
// connection only. The RTP socket sends the server's media too. Nothing here decides an outcome
// or reads the clock; its one timer, in realtime mode only, is the media ticker: every frame's
// worth of wall time it lets the host bring virtual time up to date, so RTP goes out paced
// (what each packet holds follows virtual time, never the timer).
import type dgram from 'node:dgram';
import net from 'node:net';
import { isIPv6 } from 'node:net';
import { StreamFramer } from './resources/sip-server/framing.ts';
import { MAX_MESSAGE_BYTES } from './resources/sip-server/schema.ts';
import { plainAddress, type Flow, type SipListening } from './resources/sip-server/flow.ts';
import { FRAME_MS } from './resources/sip-server/rtp-stream.ts';

/** What the sockets hand messages to (the SIP server, with the clock brought up to date first). */
export interface SipHost {
  receive(text: string, flow: Flow, send: (text: string) => void): void;
  tooLarge(head: string, flow: Flow, send: (text: string) => void): void;
  /** An RTP packet from a peer (calls' media). */
  media?(packet: Buffer, address: string, port: number): void;
  /** The media ticker's beat (realtime mode): bring virtual time up to date if media plays. */
  tick?(): void;
}

export interface SipSockets extends SipListening {
  /** The RTP port every call's media uses (one socket; calls are told apart by the peer's address). */
  rtp: number;
  /** Sends a datagram from the SIP UDP port (the server's own requests: INVITE to a route, BYE). */
  sendUdp(address: string, port: number, text: string): void;
  /** Sends an RTP packet from the RTP port. */
  sendRtp(address: string, port: number, packet: Buffer): void;
  close(): Promise<void>;
}

/** RTP socket buffers: hundreds of calls' 20 ms packets arrive and leave in bursts (the kernel may cap it lower). */
const RTP_BUFFER_BYTES = 4 * 1024 * 1024;

/** Tries for one port that is free for both UDP and TCP, this many times, before taking two. */
const SAME_PORT_TRIES = 20;

function bindUdp(port: number, host: string): Promise<dgram.Socket> {
  return new Promise((resolve, reject) => {
    // node:dgram loads with the first SIP listener (--sip-port), not at start.
    const socket = process.getBuiltinModule('node:dgram').createSocket(isIPv6(host) ? 'udp6' : 'udp4');
    socket.once('error', reject);
    socket.bind(port, host, () => {
      socket.off('error', reject);
      resolve(socket);
    });
  });
}

function listenTcp(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

const closeUdp = (s: dgram.Socket) => new Promise<void>((resolve) => s.close(() => resolve()));

/** `realtimeSpeed`: the realtime clock's speed (a media tick every frame of virtual time), or undefined for none (manual clock). */
export async function listenSip(host: SipHost, port: number, address: string, realtimeSpeed?: number): Promise<SipSockets> {
  const connections = new Map<number, net.Socket>();
  let nextConnection = 1;
  const tcp = net.createServer((socket) => {
    const id = nextConnection++;
    connections.set(id, socket);
    const flow: Flow = { transport: 'tcp', address: plainAddress(socket.remoteAddress), port: socket.remotePort ?? 0, connection: id };
    const send = (text: string) => {
      if (!socket.destroyed && socket.writable) socket.write(Buffer.from(text, 'latin1'));
    };
    const framer = new StreamFramer(MAX_MESSAGE_BYTES);
    socket.on('data', (chunk: Buffer) => {
      for (const frame of framer.push(chunk)) {
        if (frame.kind === 'message') host.receive(frame.text, flow, send);
        else if (frame.kind === 'ping') send('\r\n');
        else if (frame.kind === 'too-large' && frame.head !== undefined) host.tooLarge(frame.head, flow, send);
        else if (frame.kind === 'bad-length') host.receive(`${frame.head}\r\n\r\n`, flow, send);
      }
      if (framer.broken) socket.end();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => connections.delete(id));
  });

  let udp: dgram.Socket | undefined;
  for (let i = 0; udp === undefined; i++) {
    const candidate = await bindUdp(port, address);
    try {
      await listenTcp(tcp, candidate.address().port, address);
      udp = candidate;
    } catch (e) {
      await closeUdp(candidate);
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port !== 0) throw e;
      if (i + 1 >= SAME_PORT_TRIES) {
        udp = await bindUdp(0, address);
        await listenTcp(tcp, 0, address);
      }
    }
  }
  const socket = udp;
  socket.on('message', (bytes, rinfo) => {
    const flow: Flow = { transport: 'udp', address: plainAddress(rinfo.address), port: rinfo.port };
    host.receive(bytes.toString('latin1'), flow, (text) => socket.send(Buffer.from(text, 'latin1'), rinfo.port, rinfo.address));
  });
  socket.on('error', () => {}); // a send to a vanished peer; the listener stays up
  const tcpPort = (tcp.address() as net.AddressInfo).port;
  const rtp = await bindUdp(0, address);
  rtp.setRecvBufferSize(RTP_BUFFER_BYTES);
  rtp.setSendBufferSize(RTP_BUFFER_BYTES);
  rtp.on('message', (bytes, rinfo) => host.media?.(bytes, plainAddress(rinfo.address), rinfo.port));
  rtp.on('error', () => {});
  const ticker = realtimeSpeed !== undefined && host.tick ? setInterval(host.tick, FRAME_MS / realtimeSpeed) : undefined;
  ticker?.unref();
  return {
    host: address,
    udp: socket.address().port,
    tcp: tcpPort,
    rtp: rtp.address().port,
    sendUdp: (to, toPort, text) => socket.send(Buffer.from(text, 'latin1'), toPort, to),
    sendRtp: (to, toPort, packet) => rtp.send(packet, toPort, to),
    close: async () => {
      if (ticker) clearInterval(ticker);
      for (const c of connections.values()) c.destroy();
      connections.clear();
      await Promise.all([closeUdp(socket), closeUdp(rtp), new Promise<void>((resolve) => tcp.close(() => resolve()))]);
    },
  };
}
