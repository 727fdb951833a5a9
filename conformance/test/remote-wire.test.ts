// What a URL target puts on the wire and reads back: the path as the URL parser writes it (a plain
// path goes as written, without the parser; anything else through it), and answer bodies read
// whole across chunks, up to the cap and no further.
import { describe, expect, it } from 'vitest';
import { remoteTarget, wirePath } from '../target.ts';
import { json, stubServer } from './stub-server.ts';

const ORIGIN = 'http://127.0.0.1:4010';
const parsed = (path: string) => {
  const url = new URL(ORIGIN + path);
  return url.pathname + url.search;
};

describe('a URL target on the wire', () => {
  it('sends each path as the URL parser writes it, a plain one untouched', () => {
    const plain = ['/v1/accounts/AC1/calls?status=no-answer&pageSize=100&page=14', '/v1//x', '/v1/a?b=c?d/e', '/v1/a%2Fb?q=%zz', '/_sim/carrier/scripts'];
    for (const p of plain) expect(wirePath(ORIGIN, p)).toBe(p);
    const odd = ['/v1/a/../b', '/v1/a/%2e%2E/b', '/v1/./a', '/v1/a?', "/v1/a?x='y'", '/v1/a b', '/v1/a#frag', '/v1/é?q=é', '/v1/a\\b', '/v1/{x}?y=`z`', '/v1/a?b=c#d'];
    for (const p of odd) expect(wirePath(ORIGIN, p)).toBe(parsed(p));
    // Every string of these characters, up to three long after the slash: what the parser writes.
    const alphabet = ['a', '.', '%', '2', 'e', '?', '/', "'", ' ', '#', '=', '&', '~', '\\', '@'];
    const all = (n: number): string[] => (n === 0 ? [''] : all(n - 1).flatMap((s) => alphabet.map((c) => s + c)));
    for (const tail of [...all(1), ...all(2), ...all(3)]) expect(wirePath(ORIGIN, `/${tail}`)).toBe(parsed(`/${tail}`));
  });

  it('reaches the server with that path and reads a body sent in many chunks, up to the cap', async () => {
    const big = 'x'.repeat(64 * 1024);
    const server = await stubServer((req, res) => {
      if (!req.url!.endsWith('/chunks')) return json(res, 200, { ok: true });
      res.writeHead(200, { 'content-type': 'text/plain' });
      for (let i = 0; i < 4; i++) res.write(big);
      res.end();
    });
    const target = remoteTarget({ baseUrl: `${server.url}/base/`, accounts: new Map(), timeoutMs: 5000, maxBodyBytes: 300 * 1024 });
    const small = remoteTarget({ baseUrl: server.url, accounts: new Map(), timeoutMs: 5000, maxBodyBytes: 100 * 1024 });
    try {
      expect((await target.send({ method: 'GET', path: '/v1/a?b=1', headers: {} })).json).toEqual({ ok: true });
      await target.send({ method: 'GET', path: '/v1/x/../y', headers: {} });
      expect(server.seen).toEqual(['GET /base/v1/a?b=1', 'GET /base/v1/y']);
      const whole = await target.send({ method: 'GET', path: '/chunks', headers: {} });
      expect(whole.text.length).toBe(4 * big.length);
      expect(whole.text === big.repeat(4)).toBe(true);
      await expect(small.send({ method: 'GET', path: '/chunks', headers: {} })).rejects.toThrow(/over 102400 bytes, more than the kit reads/);
    } finally {
      await small.close();
      await target.close();
      await server.close();
    }
  });
});
