// MMS images: downloads through the fake image host (each failure the guides name, refusing the
// send and changing nothing), the stored images behind getMessageMedia, and the API URLs in
// `mediaUrl` built from where the client reached the simulator.
import { describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { whitePixel } from '../peers/image-host/model.ts';

type H = ReturnType<typeof harness>;
const FROM = '07012340001';
const JPEG = whitePixel('image/jpeg');

function send(h: H, body: Record<string, unknown>, headers?: Record<string, string>) {
  return h.call('POST', h.acme('/messages'), { To: '01012345678', From: FROM, Body: 'pics', ...body }, { headers });
}

function script(h: H, body: Record<string, unknown>) {
  return h.call('PUT', '/_sim/images', body, { key: null });
}

const snapshot = (h: H) => JSON.stringify(h.sim.snapshot());

describe('getMessageMedia', () => {
  it('serves each stored image by its index; default PNG and BMP images come back converted to JPEG', async () => {
    const h = harness();
    const sent = await send(h, { MediaUrl: ['https://img.example/a.jpg', 'https://img.example/b.png', 'https://img.example/c.BMP'] });
    expect(sent.status).toBe(201);
    const id = sent.json.messageId;
    expect(sent.json.mediaUrl).toEqual([0, 1, 2].map((i) => `http://localhost/v1/accounts/${ACME.accountId}/messages/${id}/media/${i}`));
    for (const i of [0, 1, 2]) {
      const img = await h.call('GET', h.acme(`/messages/${id}/media/${i}`));
      expect(img.status).toBe(200);
      expect(img.headers['content-type']).toBe('image/jpeg');
      expect(Buffer.from(img.bytes!).equals(JPEG), `image ${i}`).toBe(true);
    }
  });

  it('answers 404 for a missing index or message, 401 without a key and 403 with another account\'s key', async () => {
    const h = harness();
    const id = (await send(h, { MediaUrl: ['https://img.example/a.jpg'] })).json.messageId;
    const plain = (await send(h, { Type: 'mms' })).json.messageId;
    for (const [path, code] of [
      [`/messages/${id}/media/1`, 'media_not_found'],
      [`/messages/${id}/media/-1`, 'media_not_found'],
      [`/messages/${id}/media/01`, 'media_not_found'],
      [`/messages/${id}/media/x`, 'media_not_found'],
      [`/messages/${plain}/media/0`, 'media_not_found'],
      [`/messages/MG0000/media/0`, 'message_not_found'],
    ] as const) {
      const r = await h.call('GET', h.acme(path));
      expect([r.status, r.json.code], path).toEqual([404, code]);
    }
    expect((await h.call('GET', h.acme(`/messages/${id}/media/0`), undefined, { key: null })).status).toBe(401);
    expect((await h.call('GET', h.acme(`/messages/${id}/media/0`), undefined, { key: BISTRO.key })).status).toBe(403);
    expect((await h.call('GET', h.bistro(`/messages/${id}/media/0`), undefined, { key: BISTRO.key })).json.code).toBe('message_not_found');
  });

  it('builds mediaUrl from the Host the client used (and https behind a proxy that says so)', async () => {
    const h = harness();
    const a = await send(h, { MediaUrl: ['https://img.example/a.jpg'] }, { host: 'sim.test:4010' });
    expect(a.json.mediaUrl[0]).toBe(`http://sim.test:4010/v1/accounts/${ACME.accountId}/messages/${a.json.messageId}/media/0`);
    const b = await send(h, { MediaUrl: ['https://img.example/a.jpg'] }, { host: 'api.example.com', 'x-forwarded-proto': 'https' });
    expect(b.json.mediaUrl[0]).toMatch(/^https:\/\/api\.example\.com\/v1\//);
    const c = await send(h, { MediaUrl: ['https://img.example/a.jpg'] }, { host: 'evil/../x' });
    expect(c.json.mediaUrl[0]).toMatch(/^http:\/\/localhost\/v1\//);
  });

  it('never stores a forged Host: other readers and snapshots see paths, rendered at their own origin', async () => {
    const h = harness();
    const forged = await send(h, { MediaUrl: ['https://img.example/a.jpg'] }, { host: 'evil.example' });
    const id = forged.json.messageId;
    expect(forged.json.mediaUrl[0]).toBe(`http://evil.example/v1/accounts/${ACME.accountId}/messages/${id}/media/0`); // only the forger sees it
    const honest = await h.call('GET', h.acme(`/messages/${id}`), undefined, { headers: { host: 'sim.test:4010' } });
    expect(honest.json.mediaUrl).toEqual([`http://sim.test:4010/v1/accounts/${ACME.accountId}/messages/${id}/media/0`]);
    const listed = await h.call('GET', h.acme('/messages'), undefined, { headers: { host: 'sim.test:4010' } });
    expect(listed.json.data[0].mediaUrl[0]).toMatch(/^http:\/\/sim\.test:4010\//);
    expect(snapshot(h)).not.toContain('evil.example');
    expect((h.sim.snapshot() as any).models.messages.messages[0].mediaUrl).toEqual([`/v1/accounts/${ACME.accountId}/messages/${id}/media/0`]);
  });

  it('a snapshot restored in another simulator points at that simulator', async () => {
    const first = harness();
    const id = (await send(first, { MediaUrl: ['https://img.example/a.jpg'] }, { host: '127.0.0.1:1' })).json.messageId;
    const second = harness();
    await second.sim.control.restore(await first.sim.control.snapshot());
    const server = await second.sim.listen(0);
    try {
      const auth = { authorization: `Bearer ${ACME.key}` };
      const got = (await (await fetch(`${server.url}/v1/accounts/${ACME.accountId}/messages/${id}`, { headers: auth })).json()) as { mediaUrl: string[] };
      expect(got.mediaUrl[0]!.startsWith(`${server.url}/v1/`)).toBe(true);
      expect((await fetch(got.mediaUrl[0]!, { headers: auth })).status).toBe(200);
    } finally {
      await second.sim.close();
    }
  });

  it('renders the absolute URLs an older snapshot stored at the serving origin', async () => {
    const h = harness();
    const id = (await send(h, { MediaUrl: ['https://img.example/a.jpg'] })).json.messageId;
    const old = h.sim.snapshot() as any;
    old.models.messages.messages[0].mediaUrl = [`http://old-host:9/v1/accounts/${ACME.accountId}/messages/${id}/media/0`];
    await h.sim.control.restore(old);
    const got = await h.call('GET', h.acme(`/messages/${id}`), undefined, { headers: { host: 'new-host:8' } });
    expect(got.json.mediaUrl).toEqual([`http://new-host:8/v1/accounts/${ACME.accountId}/messages/${id}/media/0`]);
  });

  it('over real HTTP the listed URL itself fetches the image with the API key', async () => {
    const h = harness();
    const server = await h.sim.listen(0);
    try {
      const auth = { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' };
      const sent = await fetch(`${server.url}/v1/accounts/${ACME.accountId}/messages`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ To: '01012345678', From: FROM, Body: 'pic', MediaUrl: ['https://img.example/a.jpg'] }),
      });
      const url = ((await sent.json()) as { mediaUrl: string[] }).mediaUrl[0]!;
      expect(url.startsWith(server.url)).toBe(true);
      const img = await fetch(url, { headers: auth });
      expect(img.status).toBe(200);
      expect(img.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await img.arrayBuffer()).equals(JPEG)).toBe(true);
      expect((await fetch(url)).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe('image downloads (fake image host)', () => {
  it('refuses a send with media_download_failed for each cause, naming the image, and changes nothing', async () => {
    const h = harness();
    expect((await script(h, { url: 'https://img.example/slow.jpg', seconds: 10.5 })).status).toBe(200);
    await script(h, { url: 'https://img.example/gone.jpg', status: 404 });
    await script(h, { url: 'https://img.example/page.jpg', contentType: 'text/html; charset=utf-8' });
    await script(h, { url: 'https://img.example/big.jpg', sizeBytes: 307_201 });
    for (const [url, cause] of [
      ['https://img.example/slow.jpg', 'TIMEOUT'],
      ['https://img.example/gone.jpg', 'HTTP 404'],
      ['https://img.example/page.jpg', 'CONTENT_TYPE:text/html'],
      ['https://img.example/big.jpg', 'SIZE_EXCEEDED'],
    ] as const) {
      const before = snapshot(h);
      const r = await send(h, { MediaUrl: ['https://img.example/fine.jpg', url] });
      expect([r.status, r.json.code], url).toEqual([400, 'media_download_failed']);
      expect(r.json.error).toBe(`image processing failed (1): ${cause}`);
      expect(r.json.errors).toEqual([{ path: 'MediaUrl[1]', message: cause }]);
      expect(snapshot(h), `${cause} changed state`).toBe(before);
    }
  });

  it('accepts the limits exactly: 10 seconds, 307,200 bytes, any 2xx, a content type with parameters', async () => {
    const h = harness();
    await script(h, { url: 'https://img.example/edge.jpg', seconds: 10, sizeBytes: 307_200, status: 203, contentType: 'Image/JPEG; q=1' });
    const r = await send(h, { MediaUrl: ['https://img.example/edge.jpg'] });
    expect(r.status).toBe(201);
    const img = await h.call('GET', h.acme(`/messages/${r.json.messageId}/media/0`));
    expect(img.headers['content-type']).toBe('image/jpeg');
    expect(img.bytes!.byteLength).toBe(307_200);
    expect(Buffer.from(img.bytes!.subarray(0, JPEG.length)).equals(JPEG)).toBe(true);
  });

  it('stores scripted bytes untouched (JPEG as the service does; PNG kept with its type, having no codec)', async () => {
    const h = harness();
    const jpegBytes = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const pngBytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 9, 8, 7]);
    await script(h, { url: 'https://img.example/real.jpg', base64: jpegBytes.toString('base64') });
    await script(h, { url: 'https://img.example/real.png', base64: pngBytes.toString('base64') });
    const r = await send(h, { MediaUrl: ['https://img.example/real.jpg', 'https://img.example/real.png'] });
    const id = r.json.messageId;
    const a = await h.call('GET', h.acme(`/messages/${id}/media/0`));
    const b = await h.call('GET', h.acme(`/messages/${id}/media/1`));
    expect([a.headers['content-type'], Buffer.from(a.bytes!).equals(jpegBytes)]).toEqual(['image/jpeg', true]);
    expect([b.headers['content-type'], Buffer.from(b.bytes!).equals(pngBytes)]).toEqual(['image/png', true]);
    // The carrier's log names the images by where they came from.
    const deliveries = await h.sim.control.request<any>('GET', '/carrier/deliveries?number=01012345678');
    expect(deliveries.data[0].mediaUrl).toEqual(['https://img.example/real.jpg', 'https://img.example/real.png']);
  });

  it('fetches the images of inbound messages too; a failure refuses the injection', async () => {
    const h = harness();
    await script(h, { url: 'https://phone.example/broken.jpg', status: 500 });
    const bad = await h.call('POST', '/_sim/carrier/inbound', { from: '01022223333', to: FROM, mediaUrl: ['https://phone.example/broken.jpg'] }, { key: null });
    expect([bad.status, bad.json.code, bad.json.error]).toEqual([400, 'media_download_failed', 'image processing failed (0): HTTP 500']);
    const ok = await h.call('POST', '/_sim/carrier/inbound', { from: '01022223333', to: FROM, mediaUrl: ['https://phone.example/ok.png'] }, { key: null });
    expect(ok.status).toBe(201);
    const img = await h.call('GET', h.acme(`/messages/${ok.json.messageId}/media/0`));
    expect([img.status, img.headers['content-type']]).toEqual([200, 'image/jpeg']);
  });

  it('control plane: lists, replaces and removes scripts, and refuses bad ones with 400', async () => {
    const h = harness();
    const set = await script(h, { url: 'HTTPS://IMG.example:443/a.png', status: 404 });
    expect(set.json).toEqual({ url: 'https://img.example/a.png', status: 404, contentType: 'image/png', sizeBytes: 67, base64: null, seconds: 0 });
    await script(h, { url: 'https://img.example/a.png', status: 410 });
    await script(h, { url: 'https://img.example/b.jpg', seconds: 30 });
    const list = await h.call('GET', '/_sim/images', undefined, { key: null });
    expect(list.json.data.map((s: any) => [s.url, s.status])).toEqual([['https://img.example/a.png', 410], ['https://img.example/b.jpg', 200]]);
    expect((await h.call('DELETE', '/_sim/images?url=https%3A%2F%2Fimg.example%2Fa.png', undefined, { key: null })).status).toBe(204);
    expect((await h.call('GET', '/_sim/images', undefined, { key: null })).json.data).toHaveLength(1);
    await h.call('DELETE', '/_sim/images', undefined, { key: null });
    expect((await h.call('GET', '/_sim/images', undefined, { key: null })).json.data).toEqual([]);
    for (const body of [
      { url: 'ftp://img.example/a.jpg' },
      { url: 'not a url' },
      { url: 'https://img.example/a.jpg', base64: '***' },
      { url: 'https://img.example/a.jpg', base64: 'AAAA', sizeBytes: 5 },
      { url: 'https://img.example/a.jpg', status: 99 },
      { url: 'https://img.example/a.jpg', seconds: -1 },
      { url: 'https://img.example/a.jpg', extra: true },
    ]) {
      const r = await script(h, body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([400, 'VALIDATION']);
    }
    expect((await h.call('GET', '/_sim/images', undefined, { key: null })).json.data).toEqual([]);
  });

  it('scripts and stored images survive snapshot and restore; reset forgets the scripts', async () => {
    const h = harness();
    await script(h, { url: 'https://img.example/gone.jpg', status: 404 });
    const id = (await send(h, { MediaUrl: ['https://img.example/a.png'] })).json.messageId;
    const snap = h.sim.snapshot();
    const other = harness();
    other.sim.restore(snap);
    expect((await other.call('GET', other.acme(`/messages/${id}/media/0`))).headers['content-type']).toBe('image/jpeg');
    expect((await send(other, { MediaUrl: ['https://img.example/gone.jpg'] })).json.code).toBe('media_download_failed');
    await other.call('POST', '/_sim/reset', {}, { key: null });
    expect((await send(other, { MediaUrl: ['https://img.example/gone.jpg'] })).status).toBe(201);
  });
});
