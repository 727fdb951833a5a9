// node:http adapter: reads the request (bounded), hands it to the pipeline, writes the answer.
// No domain logic here. The Date header is off so that the bytes on the wire are as
// deterministic as the pipeline's answers.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorResponse } from './app.ts';
import { errorCodes } from './core/errors.ts';
import type { SimRequest, SimResponse } from './core/operation.ts';

export interface HttpHost {
  dispatch(req: SimRequest): SimResponse | Promise<SimResponse>;
  maxBodyBytes: number;
  onDefect?: (error: unknown) => void;
}

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
  res.setHeader('content-length', r.bytes ? r.bytes.byteLength : Buffer.byteLength(r.body));
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
    const tooLarge = () => {
      write(res, errorResponse(errorCodes.PAYLOAD_TOO_LARGE(`the request body is larger than ${host.maxBodyBytes} bytes`)), true);
      req.destroy();
    };
    if (declared !== undefined && Number(declared) > host.maxBodyBytes) {
      tooLarge();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let aborted = false;
    req.on('data', (chunk: Buffer) => {
      if (aborted) return;
      size += chunk.length;
      if (size > host.maxBodyBytes) {
        aborted = true;
        tooLarge();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!aborted) respond(host, res, { ...base, body: Buffer.concat(chunks) });
    });
    req.on('error', () => {
      aborted = true;
    });
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
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
