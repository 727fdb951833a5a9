// A WebSocket server for tests on 127.0.0.1, standing for a customer's media-stream endpoint:
// `ws` completes the handshake (or the behaviour refuses or ignores it) and each connection's
// text messages are kept in order, with whether the client closed it.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

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

export async function startWsServer(behaviour: WsBehaviour = {}): Promise<WsServer> {
  const connections: string[][] = [];
  const closedByClient: boolean[] = [];
  const sockets = new Set<Duplex>();
  const open = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const server = http.createServer((_, res) => res.writeHead(426).end());
  let upgrades = 0;
  server.on('upgrade', (req, socket: Duplex, head) => {
    upgrades++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (behaviour.handshake === 'hang') return;
    if (behaviour.handshake === 'refuse') {
      socket.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      open.add(ws);
      const messages: string[] = [];
      const n = connections.push(messages) - 1;
      let closing = false;
      let endedWithoutFrame = false;
      // Read when asked: ws leaves OPEN as soon as the client's close frame arrives, before 'close'.
      Object.defineProperty(closedByClient, n, {
        enumerable: true,
        get: () => !endedWithoutFrame && (closing ? ws.readyState === ws.CLOSED : ws.readyState !== ws.OPEN),
      });
      const peer: WsPeer = {
        send: (text) => {
          if (!closing) ws.send(text);
        },
        close: () => {
          if (closing) return;
          closing = true;
          ws.close(1000);
        },
      };
      ws.on('message', (data, binary) => {
        if (binary) return;
        const text = data.toString('utf8');
        messages.push(text);
        behaviour.onMessage?.(text, peer, messages.length - 1);
      });
      // 1006: the connection ended without the client's close frame.
      ws.on('close', (code) => {
        open.delete(ws);
        endedWithoutFrame = code === 1006;
      });
      ws.on('error', () => {});
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
      for (const ws of open) ws.terminate();
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
