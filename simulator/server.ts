// node:http adapter: reads the request (bounded), hands it to the pipeline, writes the answer;
// hands WebSocket upgrade requests to the host and, when it accepts, completes the handshake with
// `ws` and adapts the socket to core/live-socket.ts. No domain logic here. The Date header is off so that the bytes on the wire are as
// deterministic as the pipeline's answers. Refusals at the HTTP layer (a body over the limit,
// a request node's parser rejects) answer the spec's JSON error body and close in stages
// (RFC 9112 §9.6) so the client reads the answer instead of a connection reset.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo, Socket } from 'node:net';
import { errorResponse } from './app.ts';
import type { WebSocket, WebSocketServer } from 'ws';
import { errorCodes, type ApiError } from './core/errors.ts';
import type { SimRequest, SimResponse } from './core/operation.ts';
import type { LiveSocket, UpgradeAnswer } from './core/live-socket.ts';

export interface HttpHost {
  dispatch(req: SimRequest): SimResponse | Promise<SimResponse>;
  /** The largest body accepted for the request at method and URL. */
  bodyLimit(method: string, url: string): number;
  onDefect?: (error: unknown) => void;
  /** Answers a WebSocket upgrade request (no body); without it every upgrade is refused with 404. */
  upgrade?(req: SimRequest): UpgradeAnswer | Promise<UpgradeAnswer>;
}

/**
 * How long, in wall-clock milliseconds, a refused connection stays open to read what the client
 * is still sending before it is closed for good; and how many such bytes it reads at most.
 * I/O pacing only, never domain behaviour.
 */
const LINGER_MS = 2000;
const LINGER_BYTES = 64 * 1024 * 1024;
/** A request line longer than this (half node's 16 KiB header limit) makes an overflow a 414. */
const URI_SHARE = 8 * 1024;

/** A stream (server-sent events) stays open until the client goes or the server closes. */
function writeStream(res: http.ServerResponse, r: SimResponse & { stream: NonNullable<SimResponse['stream']> }): void {
  for (const k in r.headers) res.setHeader(k, r.headers[k]!);
  res.writeHead(r.status);
  res.write(r.body);
  const stop = r.stream.open((chunk) => {
    if (!res.destroyed) res.write(chunk);
  });
  res.on('close', stop);
}

function write(res: http.ServerResponse, r: SimResponse, close = false): void {
  if (res.headersSent || res.destroyed) return;
  if (r.stream) return writeStream(res, r as SimResponse & { stream: NonNullable<SimResponse['stream']> });
  for (const k in r.headers) res.setHeader(k, r.headers[k]!);
  // A HEAD answer declares the GET body's length itself (app.ts).
  if (!res.hasHeader('content-length')) res.setHeader('content-length', r.bytes ? r.bytes.byteLength : Buffer.byteLength(r.body));
  if (close) res.setHeader('connection', 'close');
  res.writeHead(r.status);
  res.end(r.bytes ?? r.body);
}

function respond(host: HttpHost, res: http.ServerResponse, req: SimRequest): void {
  let out: SimResponse | Promise<SimResponse>;
  try {
    out = host.dispatch(req);
  } catch (e) {
    host.onDefect?.(e);
    out = errorResponse(errorCodes.INTERNAL('internal simulator error'));
  }
  if (out instanceof Promise) {
    out.then(
      (r) => write(res, r),
      (e) => {
        host.onDefect?.(e);
        write(res, errorResponse(errorCodes.INTERNAL('internal simulator error')));
      },
    );
  } else {
    write(res, out);
  }
}

/**
 * Closes a connection whose request is refused unread, in stages: after the answer is written,
 * half-close (FIN) instead of closing, keep reading and discarding what the client still sends,
 * and close fully once it stops (its FIN), after LINGER_MS or after LINGER_BYTES. Closing with
 * unread bytes would make the kernel reset the connection and the client lose the answer.
 */
function lingerThenClose(socket: Socket | Duplex): void {
  let discarded = 0;
  const close = () => {
    clearTimeout(timer);
    socket.destroy();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) close();
  });
  socket.once('end', close);
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', close);
  socket.resume();
  socket.end();
}

/** Answers 413 before reading the body, then closes in stages. */
function refuseTooLarge(req: http.IncomingMessage, res: http.ServerResponse, limit: number): void {
  const socket = req.socket;
  // node:http closes a `connection: close` response with destroySoon(), which destroys once
  // the answer is written, unread bytes or not: linger instead.
  socket.destroySoon = () => lingerThenClose(socket);
  let discarded = 0;
  req.on('error', () => socket.destroy());
  // node's parser keeps consuming the body; its bytes are counted and dropped.
  req.on('data', (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER_BYTES) socket.destroy();
  });
  write(res, errorResponse(errorCodes.PAYLOAD_TOO_LARGE(`the request body is larger than ${limit} bytes`)), true);
}

/** The refusal for an error node's HTTP parser raises, or undefined when nothing should be answered. */
function parserRefusal(err: Error & { code?: string; rawPacket?: Buffer }): ApiError | undefined {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return undefined; // the client is gone or stalled: nothing to answer
    case 'HPE_HEADER_OVERFLOW': {
      // When the request line alone takes most of the 16 KiB, the URL is the long part (414), else the headers (431).
      const raw = err.rawPacket?.toString('latin1') ?? '';
      const lineEnd = raw.indexOf('\n');
      return lineEnd === -1 || lineEnd > URI_SHARE
        ? errorCodes.URI_TOO_LONG('the request line exceeds the 16 KiB header limit')
        : errorCodes.HEADERS_TOO_LARGE('the request headers exceed 16 KiB');
    }
    case 'HPE_INVALID_METHOD':
      return errorCodes.NOT_IMPLEMENTED('the server does not know this HTTP method');
    case 'HPE_INVALID_TRANSFER_ENCODING':
      // llhttp raises this for Content-Length beside Transfer-Encoding as well as for an unknown coding.
      return /Content-Length/i.test(err.message)
        ? errorCodes.BAD_REQUEST('send either Content-Length or Transfer-Encoding, not both')
        : errorCodes.NOT_IMPLEMENTED('the only transfer coding understood is chunked');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return errorCodes.BAD_REQUEST('send either Content-Length or Transfer-Encoding, not both');
    case 'HPE_INVALID_CONTENT_LENGTH':
      return errorCodes.BAD_REQUEST('Content-Length must be one non-negative decimal number');
    case 'HPE_INVALID_CHUNK_SIZE':
      return errorCodes.BAD_REQUEST('a chunk size is not a hexadecimal number');
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_CHARACTER':
      return errorCodes.BAD_REQUEST('the request line holds bytes a URL cannot (encode them as %XX)');
    default:
      return errorCodes.BAD_REQUEST(`malformed HTTP request (${err.code ?? 'parse error'})`);
  }
}

/** The raw bytes of a JSON error answer that closes the connection. */
function rawAnswer(e: ApiError): string {
  const r = errorResponse(e);
  const reason = http.STATUS_CODES[r.status] ?? 'Error';
  const head = [`HTTP/1.1 ${r.status} ${reason}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(r.body)}`, 'connection: close'];
  return `${head.join('\r\n')}\r\n\r\n${r.body}`;
}

/** The raw bytes of an answer to an upgrade request that is refused (the connection closes after it). */
function rawResponse(r: SimResponse): string {
  const reason = http.STATUS_CODES[r.status] ?? 'Error';
  const body = r.bytes ? Buffer.from(r.bytes).toString('latin1') : r.body;
  const head = [`HTTP/1.1 ${r.status} ${reason}`, ...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(body, 'latin1')}`, 'connection: close'];
  return `${head.join('\r\n')}\r\n\r\n${body}`;
}

// ws is loaded with the first accepted upgrade, not at start: most runs open no WebSocket, and
// loading it (and zlib) is a sizeable part of `npm start` (bench/README.md "Start-up").
let wsModule: Promise<typeof import('ws')> | undefined;
const loadWs = () => (wsModule ??= import('ws'));

/** One handshake-only ws server per message limit (the limit is fixed when ws makes the socket). */
const handshakers = new Map<number, WebSocketServer>();
async function wssFor(maxPayload: number): Promise<WebSocketServer> {
  let wss = handshakers.get(maxPayload);
  if (!wss) {
    const { WebSocketServer: Server } = await loadWs();
    wss = handshakers.get(maxPayload) ?? new Server({ noServer: true, clientTracking: false, perMessageDeflate: false, maxPayload });
    handshakers.set(maxPayload, wss);
  }
  return wss;
}

/** The accepted WebSockets of each server, so closing the server closes them (upgraded sockets leave node:http's tracking). */
const liveSockets = new WeakMap<http.Server, Set<WebSocket>>();

function adapt(ws: WebSocket): LiveSocket {
  return {
    send: (text) => {
      if (ws.readyState === ws.OPEN) ws.send(text);
    },
    close: (code, reason) => {
      if (ws.readyState === ws.OPEN || ws.readyState === ws.CONNECTING) ws.close(code, reason);
    },
    ping: () => {
      if (ws.readyState === ws.OPEN) ws.ping();
    },
    get open() {
      return ws.readyState === ws.OPEN;
    },
    get buffered() {
      return ws.bufferedAmount;
    },
  };
}

function acceptSocket(server: http.Server, req: http.IncomingMessage, socket: Duplex, head: Buffer, answer: Extract<UpgradeAnswer, { accept: unknown }>, onDefect: (e: unknown) => void): void {
  void wssFor(answer.maxMessageBytes).then((wss) => wss.handleUpgrade(req, socket, head, (ws) => {
    const sockets = liveSockets.get(server)!;
    sockets.add(ws);
    let session: ReturnType<typeof answer.accept> | undefined;
    const guard = (f: () => void) => {
      try {
        f();
      } catch (e) {
        onDefect(e);
      }
    };
    ws.on('message', (data, binary) => guard(() => session?.message(binary ? '' : data.toString('utf8'), binary)));
    ws.on('pong', () => guard(() => session?.pong?.()));
    // A protocol error or an oversized message makes ws close the socket with the matching code;
    // its own 'close' event then says 1006 (no reply came), so the session is told the real cause.
    let failedWith: number | undefined;
    ws.on('error', (e: Error & { code?: string }) => {
      failedWith = e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? 1009 : e.code === 'WS_ERR_INVALID_UTF8' ? 1007 : 1002;
    });
    ws.on('close', (code, reason) => {
      sockets.delete(ws);
      guard(() => session?.closed(failedWith ?? code, failedWith === 1009 ? 'message too big' : reason.toString('utf8')));
    });
    guard(() => {
      session = answer.accept(adapt(ws));
    });
  }), (e) => {
    onDefect(e);
    socket.destroy();
  });
}

function onUpgrade(server: http.Server, host: HttpHost, req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  const refuse = (r: SimResponse) => {
    if (socket.writable) socket.end(rawResponse(r));
    else socket.destroy();
  };
  const onDefect = host.onDefect ?? (() => {});
  const sim: SimRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, remoteAddress: req.socket.remoteAddress, lowercaseHeaders: true };
  const decide = (answer: UpgradeAnswer) => {
    if ('refuse' in answer) refuse(answer.refuse);
    else acceptSocket(server, req, socket, head, answer, onDefect);
  };
  const fail = (e: unknown) => {
    onDefect(e);
    refuse(errorResponse(errorCodes.INTERNAL('internal simulator error')));
  };
  if (!host.upgrade) return refuse(errorResponse(errorCodes.NOT_FOUND(`no WebSocket at ${sim.url.split('?')[0]}`)));
  try {
    const out = host.upgrade(sim);
    if (out instanceof Promise) out.then(decide, fail);
    else decide(out);
  } catch (e) {
    fail(e);
  }
}

/** Drops every WebSocket the server accepted (no closing handshake: the server is going away). */
export function closeSockets(server: http.Server): void {
  for (const ws of liveSockets.get(server) ?? []) ws.terminate();
}

export function createHttpServer(host: HttpHost): http.Server {
  const server = http.createServer((req, res) => {
    res.sendDate = false;
    const base: SimRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      remoteAddress: req.socket.remoteAddress,
      lowercaseHeaders: true,
    };
    const declared = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (!chunked && (declared === undefined || declared === '0')) {
      respond(host, res, base);
      return;
    }
    const limit = host.bodyLimit(base.method, base.url);
    if (declared !== undefined && Number(declared) > limit) {
      refuseTooLarge(req, res, limit);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    req.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > limit) {
        refused = true;
        chunks.length = 0;
        refuseTooLarge(req, res, limit);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!refused) respond(host, res, { ...base, body: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) });
    });
    req.on('error', () => {
      refused = true;
    });
  });
  // WebSockets: the handshake is ws's; which path upgrades and who may is the host's (HttpHost.upgrade).
  liveSockets.set(server, new Set());
  server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => onUpgrade(server, host, req, socket, head));
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) => {
    const refusal = parserRefusal(err);
    if (!refusal || !socket.writable) {
      socket.destroy();
      return;
    }
    socket.write(rawAnswer(refusal));
    lingerThenClose(socket);
  });
  return server;
}

export function listenOn(server: http.Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}
