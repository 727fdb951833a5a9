// The node:http adapter: real sockets on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { createSimulator, type ListeningServer } from '../index.ts';
import { ACME } from './helpers.ts';

let server: ListeningServer;
const sim = createSimulator({ maxBodyBytes: 64 * 1024 });

beforeAll(async () => {
  server = await sim.listen(0);
});
afterAll(async () => {
  await sim.close();
});

function raw(method: string, path: string, opts: { headers?: Record<string, string>; body?: string | Buffer; chunks?: Buffer[] } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${ACME.key}`, ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    if (opts.chunks) for (const c of opts.chunks) req.write(c);
    req.end(opts.body);
  });
}

const path = `/v1/accounts/${ACME.accountId}/blocked-callers`;

describe('HTTP adapter', () => {
  it('listens on loopback and answers JSON without a Date header', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await raw('GET', path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(r.headers.date).toBeUndefined();
    expect(Number(r.headers['content-length'])).toBe(Buffer.byteLength(r.body));
  });

  it('accepts an empty body with a JSON content type as "no body"', async () => {
    const r = await raw('POST', `/v1/accounts/${ACME.accountId}/numbers`, { headers: { 'content-type': 'application/json', 'content-length': '0' } });
    expect(r.status).toBe(201);
  });

  it('reads chunked bodies', async () => {
    const r = await raw('POST', path, { headers: { 'content-type': 'application/json' }, chunks: [Buffer.from('{"number":'), Buffer.from('"02-555-1234"}')] });
    expect(r.status).toBe(201);
    expect(JSON.parse(r.body).number).toBe('025551234');
  });

  it('answers invalid JSON with 400 INVALID_JSON, never 500', async () => {
    for (const body of ['{', '{"number": }', 'nul', '\u0000\u0001', '{"a":1}}']) {
      const r = await raw('POST', path, { headers: { 'content-type': 'application/json' }, body });
      expect(r.status, body).toBe(400);
      expect(JSON.parse(r.body).code).toBe('INVALID_JSON');
    }
  });

  it('refuses bodies over the limit with 413, by declared length and while streaming', async () => {
    const big = Buffer.alloc(70 * 1024, 'a');
    const declared = await raw('POST', path, { headers: { 'content-type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body).code).toBe('PAYLOAD_TOO_LARGE');
    const streamed = await raw('POST', path, { headers: { 'content-type': 'application/json' }, chunks: [big] }).catch((e) => ({ status: -1, body: String(e) }));
    expect(streamed.status).toBe(413); // the server lingers until the client has finished writing (server.ts)
    expect((await raw('GET', path)).status).toBe(200); // and keeps serving
  });

  it('answers unknown paths with 404 and wrong methods with 405 + Allow, both in the error shape', async () => {
    const nf = await raw('GET', '/v1/nothing');
    expect(nf.status).toBe(404);
    expect(JSON.parse(nf.body)).toMatchObject({ code: 'NOT_FOUND' });
    const na = await raw('PUT', path);
    expect(na.status).toBe(405);
    expect(na.headers.allow).toBe('GET, HEAD, POST');
  });

  it('refuses non-JSON bodies with 415', async () => {
    const r = await raw('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'number=0212345678' });
    expect(r.status).toBe(415);
  });

  it('serves /openapi.json without a key', async () => {
    const r = await raw('GET', '/openapi.json', { headers: { authorization: '' } });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body).openapi).toBe('3.1.0');
  });

  it('fetch() adapter answers like the socket', async () => {
    const res = await sim.fetch(`http://anything${path}?pageSize=1`, { headers: { authorization: `Bearer ${ACME.key}` } });
    expect(res.status).toBe(200);
    const body: any = await res.json();
    expect(body.meta.pageSize).toBe(1);
  });
});
