// The HTTP edge under bad input, on real loopback sockets: refusals the body limit and node's
// parser make answer the spec's JSON error and close cleanly (no reset), the state import has a
// limit of its own, and HEAD answers like GET without a body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import net from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createSimulator, type ListeningServer } from '../index.ts';
import { ACME } from './helpers.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
let server: ListeningServer;
const sim = createSimulator();

beforeAll(async () => {
  server = await sim.listen(0);
});
afterAll(async () => {
  await sim.close();
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** How the connection ended: 'end' (the server's FIN) or the error code (ECONNRESET...). */
  ended: string;
}

/** Writes `bytes` in one write on a fresh connection and reads until the server closes it. */
function rawExchange(bytes: Buffer | string, port = server.port): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const got: Buffer[] = [];
    let settled = false;
    const finish = (ended: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      const text = Buffer.concat(got).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const head = split === -1 ? text : text.slice(0, split);
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines) {
        const i = l.indexOf(':');
        if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
      }
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? -1);
      resolve({ status, headers, body: split === -1 ? '' : Buffer.from(text.slice(split + 4), 'latin1').toString('utf8'), ended });
    };
    socket.on('data', (d) => got.push(d));
    socket.on('end', () => finish('end'));
    socket.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
    socket.write(bytes);
  });
}

const recipients = `/v1/accounts/${ACME.accountId}/blocked-recipients`;
const auth = `authorization: Bearer ${ACME.key}\r\n`;

async function stateCount(url = server.url): Promise<number> {
  const snap = (await (await fetch(`${url}/_sim/state`)).json()) as any;
  return snap.models.blockLists.recipients.length;
}

describe('413 for an over-limit body (RFC 9112 §9.6 staged close)', () => {
  // The server runs in a process of its own: sharing the test's event loop hides the reset,
  // because the client then never writes while the server closes.
  let child: ChildProcess;
  let childUrl = '';
  beforeAll(async () => {
    // `npm start`'s way (bin/start.cjs: bin/sim.ts from its bundle), not a TypeScript loader
    // compiling every source again: the same server at a tenth of the start-up CPU.
    child = spawn(process.execPath, ['bin/start.cjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    childUrl = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d) => {
        out += d;
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      child.once('exit', (code) => reject(new Error(`bin/start.cjs exited with ${code}`)));
    });
  }, 30_000);
  afterAll(() => {
    child?.kill('SIGTERM');
  });

  it('reaches a client that sends the whole body in one write, then the server closes with FIN', async () => {
    const before = await stateCount(childUrl);
    const port = Number(new URL(childUrl).port);
    for (const size of [3 * 1024 * 1024, 40 * 1024 * 1024]) {
      const body = Buffer.alloc(size, 'a');
      const head = `POST ${recipients} HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
      for (let i = 0; i < 5; i++) {
        const r = await rawExchange(Buffer.concat([Buffer.from(head), body]), port);
        expect(r.ended, `${size} bytes, try ${i}`).toBe('end');
        expect(r.status).toBe(413);
        expect(r.headers.connection).toBe('close');
        expect(JSON.parse(r.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
      }
    }
    expect(await stateCount(childUrl)).toBe(before);
  }, 30_000);

  it('reaches built-in fetch while it is still uploading, declared or chunked', async () => {
    for (const size of [3 * 1024 * 1024, 40 * 1024 * 1024]) {
      const body = new Uint8Array(size).fill(97);
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${childUrl}${recipients}`, { method: 'POST', headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' }, body });
        expect(res.status).toBe(413);
        expect(((await res.json()) as any).code).toBe('PAYLOAD_TOO_LARGE');
      }
    }
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 48; i++) c.enqueue(new Uint8Array(64 * 1024).fill(97));
        c.close();
      },
    });
    const res = await fetch(`${childUrl}${recipients}`, { method: 'POST', headers: { authorization: `Bearer ${ACME.key}` }, body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
  }, 30_000);
});

describe('requests node:http refuses before routing answer a JSON error and close', () => {
  const long = 'a'.repeat(17 * 1024);
  const cases: [string, string, number, string][] = [
    ['URL over 16 KiB', `GET /v1/${long} HTTP/1.1\r\nhost: x\r\n\r\n`, 414, 'URI_TOO_LONG'],
    ['headers over 16 KiB', `GET ${recipients} HTTP/1.1\r\nhost: x\r\nx-big: ${long}\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['raw non-ASCII bytes in the path', `GET /v1/caf\u00e9 HTTP/1.1\r\nhost: x\r\n\r\n`, 400, 'BAD_REQUEST'],
    ['an unknown method', `BREW ${recipients} HTTP/1.1\r\nhost: x\r\n\r\n`, 501, 'NOT_IMPLEMENTED'],
    ['a bad chunk size', `POST ${recipients} HTTP/1.1\r\nhost: x\r\n${auth}transfer-encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`, 400, 'BAD_REQUEST'],
    ['a non-numeric Content-Length', `POST ${recipients} HTTP/1.1\r\nhost: x\r\n${auth}content-length: ten\r\n\r\n{}`, 400, 'BAD_REQUEST'],
    ['both Content-Length and Transfer-Encoding', `POST ${recipients} HTTP/1.1\r\nhost: x\r\n${auth}content-length: 2\r\ntransfer-encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`, 400, 'BAD_REQUEST'],
  ];
  for (const [name, request, status, code] of cases) {
    it(`${name}: ${status} ${code}`, async () => {
      const before = await stateCount();
      const r = await rawExchange(Buffer.from(request, 'latin1'));
      expect(r.status).toBe(status);
      expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(r.headers.connection).toBe('close');
      const body = JSON.parse(r.body);
      expect(body.code).toBe(code);
      expect(typeof body.error).toBe('string');
      expect(r.ended).toBe('end');
      expect(await stateCount()).toBe(before);
    });
  }
});

describe('state import has its own limit', () => {
  it('round-trips a state of 100,000 entities over HTTP', async () => {
    const local = createSimulator();
    const s = await local.listen(0);
    try {
      const snap = (await local.control.snapshot()) as any;
      const template = snap.models.blockLists.callers[0];
      snap.models.blockLists.callers = Array.from({ length: 100_000 }, (_, i) => ({
        ...template,
        id: `bc_${i.toString(16).padStart(24, '0')}`,
        number: `010${String(10_000_000 + i).padStart(8, '0')}`,
      }));
      const text = JSON.stringify(snap);
      expect(text.length).toBeGreaterThan(16 * 1024 * 1024); // far over the 1 MiB body limit
      const put = await fetch(`${s.url}/_sim/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: text });
      expect(put.status, await put.clone().text()).toBe(200);
      const back = await fetch(`${s.url}/_sim/state`);
      expect(back.status).toBe(200);
      expect(await back.json()).toEqual(snap);
    } finally {
      await s.close();
      await local.close();
    }
  }, 60_000);

  it('keeps the ordinary limit for every other body', async () => {
    const local = createSimulator({ maxBodyBytes: 1024, maxSnapshotBytes: 64 * 1024 });
    const s = await local.listen(0);
    try {
      const pad = 'x'.repeat(2048);
      const create = await fetch(`${s.url}${recipients}`, { method: 'POST', headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ number: '01012345678', note: pad }) });
      expect(create.status).toBe(413);
      const snap = await local.control.snapshot();
      const ok = await fetch(`${s.url}/_sim/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(snap) });
      expect(ok.status).toBe(200);
      const over = await fetch(`${s.url}/_sim/state`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...(snap as object), pad: 'x'.repeat(70 * 1024) }) });
      expect(over.status).toBe(413);
      expect(((await over.json()) as any).error).toContain(String(64 * 1024));
    } finally {
      await s.close();
      await local.close();
    }
  });
});

describe('HEAD', () => {
  it('answers like GET on every GET path, without a body', async () => {
    for (const path of [recipients, '/openapi.json', '/_sim/health', `/v1/accounts/${ACME.accountId}/numbers`]) {
      const get = await fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${ACME.key}` } });
      const getBody = await get.arrayBuffer();
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD', headers: { authorization: `Bearer ${ACME.key}` } });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
      expect(Number(head.headers.get('content-length'))).toBe(getBody.byteLength);
      expect((await head.arrayBuffer()).byteLength).toBe(0);
    }
  });

  it('carries the GET refusal (401 without a key) and lists HEAD in Allow', async () => {
    const head = await fetch(`${server.url}${recipients}`, { method: 'HEAD' });
    expect(head.status).toBe(401);
    const put = await fetch(`${server.url}${recipients}`, { method: 'PUT', headers: { authorization: `Bearer ${ACME.key}` } });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST');
  });

  it('in-process: handle() answers HEAD with no body and the GET length', async () => {
    const r = await sim.handle({ method: 'HEAD', url: recipients, headers: { authorization: `Bearer ${ACME.key}` } });
    expect(r.status).toBe(200);
    expect(r.body).toBe('');
    expect(Number(r.headers['content-length'])).toBeGreaterThan(2);
  });
});
