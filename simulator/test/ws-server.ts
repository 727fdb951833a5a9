// A minimal RFC 6455 WebSocket server for tests, on 127.0.0.1 (no WebSocket server library is in
// the dependencies): node:http's upgrade event, the accept key (§4.2.2), unfragmented text and
// close frames only, which is all a media stream uses. Each connection's messages are kept.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

export interface WsPeer {
  send(text: string): void;
  close(): void;
}

export interface WsBehaviour {
  /** 'accept' (default); 'refuse': answer the upgrade with 400; 'hang': never answer it. */
  handshake?: 'accept' | 'refuse' | 'hang';
  /** Called for each text message the client sends, in order. */
  onMessage?: (text: string, peer: WsPeer, index: number) => void;
}

export interface WsServer {
  url: string;
  /** Every connection's text messages, in order. */
  connections: string[][];
  /** Upgrade requests received, answered or not. */
  readonly upgrades: number;
  /** Whether each connection got the client's close frame. */
  closedByClient: boolean[];
  close(): Promise<void>;
}

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536 ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff]) : Buffer.concat([Buffer.from([0x80 | opcode, 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(len)); return b; })()]);
  return Buffer.concat([head, payload]);
}

export async function startWsServer(behaviour: WsBehaviour = {}): Promise<WsServer> {
  const connections: string[][] = [];
  const closedByClient: boolean[] = [];
  const sockets = new Set<Duplex>();
  const server = http.createServer((_, res) => res.writeHead(426).end());
  let upgrades = 0;
  server.on('upgrade', (req, socket: Duplex) => {
    upgrades++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (behaviour.handshake === 'hang') return;
    if (behaviour.handshake === 'refuse') {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}${GUID}`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    const messages: string[] = [];
    const n = connections.push(messages) - 1;
    closedByClient[n] = false;
    let closing = false;
    const peer: WsPeer = {
      send: (text) => {
        if (!closing) socket.write(frame(0x1, Buffer.from(text)));
      },
      close: () => {
        if (closing) return;
        closing = true;
        socket.write(frame(0x8, Buffer.from([0x03, 0xe8])));
      },
    };
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (buf.length < 2) return;
        const opcode = buf[0]! & 0x0f;
        let len = buf[1]! & 0x7f;
        let at = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          at = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          at = 10;
        }
        const masked = (buf[1]! & 0x80) !== 0;
        const end = at + (masked ? 4 : 0) + len;
        if (buf.length < end) return;
        const payload = Buffer.from(buf.subarray(end - len, end));
        if (masked) for (let i = 0; i < len; i++) payload[i]! ^= buf[at + (i % 4)]!;
        buf = buf.subarray(end);
        if (opcode === 0x1) {
          const text = payload.toString('utf8');
          messages.push(text);
          behaviour.onMessage?.(text, peer, messages.length - 1);
        } else if (opcode === 0x8) {
          closedByClient[n] = true;
          if (!closing) socket.write(frame(0x8, payload.subarray(0, 2)));
          closing = true;
          socket.end();
          return;
        } else if (opcode === 0x9) socket.write(frame(0xa, payload));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    connections,
    get upgrades() {
      return upgrades;
    },
    closedByClient,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
