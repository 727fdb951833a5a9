// A URL target keeps its connections: requests go one after another over the same few sockets,
// also after a HEAD (which undici answers and then closes) and after a connection the server
// dropped. undici's Agent once lost track after such a close and from then on opened a
// connection per request, which made runs against a served simulator much slower.
import { describe, expect, it } from 'vitest';
import { remoteTarget } from '../target.ts';
import { json, stubServer } from './stub-server.ts';

describe('a URL target', () => {
  it('reuses its connections, HEAD requests and a dropped connection included', async () => {
    let drop = false;
    const server = await stubServer((_req, res) => {
      if (drop) res.socket?.destroy(); // gone without an answer
      else json(res, 200, { ok: true });
    });
    const target = remoteTarget({ baseUrl: server.url, accounts: new Map(), timeoutMs: 2000 });
    try {
      const send = (method: string) => target.send({ method, path: '/v1/things', headers: {} });
      drop = true;
      await expect(send('GET')).rejects.toThrow();
      drop = false;
      const before = server.connections;
      for (let i = 0; i < 40; i++) expect((await send(i % 10 === 0 ? 'HEAD' : 'GET')).status).toBe(200);
      // Each HEAD costs its connection (undici closes after one), the GETs share the rest.
      expect(server.connections - before).toBeLessThanOrEqual(4 + 2);
      expect(server.seen).toHaveLength(41);
    } finally {
      await target.close();
      await server.close();
    }
  });
});
