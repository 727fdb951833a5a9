// The delivery engine against real receivers on loopback: form bodies and signatures, number
// webhooks (POST and GET), at-least-once retries on the virtual clock and the give-up point,
// bad receivers (slow, 500, closed socket, huge answer, redirect, nothing listening), per-
// receiver order, determinism; and the signing keys.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO } from './helpers.ts';
import { closedPortUrl, startReceiver } from './receivers.ts';
import { verifyWebhookRequest } from '../core/signing.ts';
import { MAX_ATTEMPTS } from '../peers/webhooks/engine.ts';
import { closeDeliveryTests, sim, emit, subscribe, verifies, callflowEnded } from './webhooks-delivery-helpers.ts';

afterEach(closeDeliveryTests);

describe('delivery', () => {
  it('posts the event form-encoded and signed to every active subscriber, and nowhere else', async () => {
    const h = sim();
    const a = await startReceiver();
    const b = await startReceiver();
    const other = await startReceiver();
    const inactive = await startReceiver();
    await subscribe(h, a.url, ['callflow.ended']);
    await subscribe(h, b.url, ['callflow.ended', 'message.sent']);
    await subscribe(h, other.url, ['callflow.ended'], BISTRO.key, h.bistro('/webhooks'));
    const off = await subscribe(h, inactive.url, ['callflow.ended']);
    await h.call('PUT', h.acme(`/webhooks/${off}`), { active: false });
    await subscribe(h, (await startReceiver()).url, ['message.sent']);

    emit(h, 'callflow.ended', callflowEnded('CA1'));
    await h.sim.webhooks.settle();

    expect(other.requests).toHaveLength(0);
    expect(inactive.requests).toHaveLength(0);
    for (const r of [a, b]) {
      expect(r.requests).toHaveLength(1);
      const got = r.requests[0]!;
      expect(got.method).toBe('POST');
      expect(got.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(got.fields).toMatchObject({ CallId: 'CA1', Status: 'completed', Event: 'callflow.ended', FlowId: 'CF1' });
      expect(JSON.parse(got.fields.Variables!)).toEqual({ caller: '01012345678', callee: '07012340001', menu: '2' });
      expect(await verifies(h, got)).toBe(true);
      expect(await verifies(h, got, BISTRO.accountId)).toBe(false);
    }
  });

  it('sends message.received also to the receiving number\'s webhook, with its method and headers', async () => {
    const h = sim();
    const post = await startReceiver();
    const get = await startReceiver();
    const account = await startReceiver();
    await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: `${post.url}?tenant=t1`, webhookHeaders: { 'X-Tenant': 't1', 'X-Env': 'test' } });
    await h.call('PUT', h.acme('/numbers/07012340002'), { webhookUrl: get.url, webhookMethod: 'GET' });
    await subscribe(h, account.url, ['message.received']);
    const inbound = (to: string, id: string) => ({ MessageId: id, AccountId: ACME.accountId, From: '01099998888', To: to, Direction: 'inbound', Type: 'sms', Status: 'received', Timestamp: '2026-03-02T00:00:00.000Z', Subject: '', Body: 'hello & bye', NumMedia: '0' });
    emit(h, 'message.received', inbound('070-1234-0001', 'MG1'));
    emit(h, 'message.received', inbound('+82 70 1234 0002', 'MG2'));
    emit(h, 'message.received', inbound('07012349001', 'MG3')); // Bistro's number: not Acme's to route
    await h.sim.webhooks.settle();

    expect(post.requests).toHaveLength(1);
    const p = post.requests[0]!;
    expect(p.path).toBe('/hook?tenant=t1');
    expect(p.headers['x-tenant']).toBe('t1');
    expect(p.headers['x-env']).toBe('test');
    expect(p.fields).toMatchObject({ MessageId: 'MG1', Body: 'hello & bye', To: '070-1234-0001' });
    expect(await verifies(h, p)).toBe(true);

    expect(get.requests).toHaveLength(1);
    const g = get.requests[0]!;
    expect(g.method).toBe('GET');
    expect(g.body).toBe('');
    expect(g.fields).toMatchObject({ MessageId: 'MG2', Body: 'hello & bye' });
    expect(await verifies(h, g)).toBe(true);

    expect(account.requests.map((r) => r.fields.MessageId)).toEqual(['MG1', 'MG2', 'MG3']);
    const toNumbers = await h.sim.webhooks.journal({ number: '070-1234-0001' });
    expect(toNumbers.map((a) => a.resourceId)).toEqual(['MG1']);
  });

  it('retries a non-2xx answer on the virtual clock (10 s, 1 min, ...) until a 2xx, at exact instants', async () => {
    const h = sim();
    const r = await startReceiver((n) => (n <= 2 ? { status: 500, body: 'down' } : { status: 200 }));
    await subscribe(h, r.url, ['callflow.ended']);
    emit(h, 'callflow.ended', callflowEnded('CA7'));
    await h.sim.webhooks.settle();
    expect(r.requests).toHaveLength(1);
    const [d] = await h.sim.webhooks.deliveries();
    expect(d).toMatchObject({ status: 'pending', phase: 'waiting', attempts: 1, nextAttemptAt: '2026-03-02T00:00:10.000Z', reason: 'receiver answered 500' });

    await h.sim.clock.advance({ seconds: 9 });
    expect(r.requests).toHaveLength(1);
    const advanced = await h.sim.clock.advance({ seconds: 3600 });
    expect(advanced.fired).toBe(2);
    expect(r.requests).toHaveLength(3);
    const journal = await h.sim.webhooks.journal({ resourceId: 'CA7' });
    expect(journal.map((a) => [a.attempt, a.createdAt, a.status, a.responseStatus])).toEqual([
      [1, '2026-03-02T00:00:00.000Z', 'failed', 500],
      [2, '2026-03-02T00:00:10.000Z', 'failed', 500],
      [3, '2026-03-02T00:01:10.000Z', 'delivered', 200],
    ]);
    // Every attempt carries the same body and signature.
    expect(new Set(r.requests.map((q) => q.body + q.headers['x-signature'])).size).toBe(1);
    expect((await h.sim.webhooks.deliveries())[0]).toMatchObject({ status: 'delivered', phase: 'done', attempts: 3, finishedAt: '2026-03-02T00:01:10.000Z' });
  });

  it('gives up after the sixth failed attempt, about 2 h 36 min after the event', async () => {
    const h = sim();
    const r = await startReceiver(() => ({ status: 404 }));
    await subscribe(h, r.url, ['callflow.ended']);
    emit(h, 'callflow.ended', callflowEnded('CA9'));
    await h.sim.clock.advance({ seconds: 86400 });
    expect(r.requests).toHaveLength(MAX_ATTEMPTS);
    const times = (await h.sim.webhooks.journal()).map((a) => a.createdAt.slice(11, 19));
    expect(times).toEqual(['00:00:00', '00:00:10', '00:01:10', '00:06:10', '00:36:10', '02:36:10']);
    const [d] = await h.sim.webhooks.deliveries();
    expect(d).toMatchObject({ status: 'failed', phase: 'done', attempts: 6, reason: 'gave up after 6 attempts: receiver answered 404', finishedAt: '2026-03-02T02:36:10.000Z' });
    expect((await h.sim.clock.advance({ seconds: 86400 })).fired).toBe(0);
    expect(r.requests).toHaveLength(MAX_ATTEMPTS);
  });

  it('bad receivers (closed socket, nothing listening, slow, huge answer, endless answer, redirect) never stall it or lose the event', async () => {
    const h = sim({ webhooks: { timeoutMs: 300 } });
    const closed = await startReceiver((n) => (n === 1 ? { destroy: true } : { status: 200 }));
    const slow = await startReceiver((n) => (n === 1 ? { hang: true } : { status: 200 }));
    const huge = await startReceiver(() => ({ huge: 20 * 1024 * 1024 }));
    const endless = await startReceiver(() => ({ dribble: true }));
    const target = await startReceiver();
    const redirect = await startReceiver((n) => (n === 1 ? { status: 302, headers: { location: target.url } } : { status: 200 }));
    const refused = await closedPortUrl();
    for (const url of [closed.url, slow.url, huge.url, endless.url, redirect.url, refused]) await subscribe(h, url, ['callflow.ended']);

    emit(h, 'callflow.ended', callflowEnded('CA1'));
    // The API keeps answering while the slow receiver holds its attempt.
    expect((await h.call('GET', h.acme('/webhooks'))).status).toBe(200);
    await h.sim.webhooks.settle();

    const byUrl = async (url: string) => (await h.sim.webhooks.journal()).filter((a) => a.url === url);
    expect((await byUrl(closed.url))[0]).toMatchObject({ status: 'failed', responseStatus: null, error: 'connection closed by the receiver' });
    expect((await byUrl(slow.url))[0]).toMatchObject({ status: 'failed', responseStatus: null, error: 'timeout after 300 ms' });
    expect((await byUrl(refused))[0]).toMatchObject({ status: 'failed', responseStatus: null, error: 'connection refused' });
    const big = (await byUrl(huge.url))[0]!;
    expect(big).toMatchObject({ status: 'delivered', responseStatus: 200, responseBodyTruncated: true });
    expect(big.responseBody).toHaveLength(2048);
    // A 2xx answer whose body never ends is a delivery; the deadline ends the reading.
    expect((await byUrl(endless.url))[0]).toMatchObject({ status: 'delivered', responseStatus: 200, responseBodyTruncated: true });
    expect((await byUrl(redirect.url))[0]).toMatchObject({ status: 'failed', responseStatus: 302, error: `redirect not followed (Location: ${target.url})` });
    expect(target.requests).toHaveLength(0);

    await h.sim.clock.advance({ seconds: 10 });
    for (const r of [closed, slow, redirect]) expect(r.requests).toHaveLength(2);
    expect(huge.requests).toHaveLength(1);
    expect(endless.requests).toHaveLength(1);
    const deliveries = await h.sim.webhooks.deliveries();
    expect(deliveries.filter((d) => d.status === 'delivered')).toHaveLength(5);
    expect(deliveries.find((d) => d.target.kind === 'webhook' && d.reason === 'connection refused')).toMatchObject({ status: 'pending', phase: 'waiting' });
  });

  it('sends one request at a time per receiver, in event order', async () => {
    const h = sim();
    const r = await startReceiver();
    await subscribe(h, r.url, ['message.sent']);
    for (let i = 1; i <= 8; i++) emit(h, 'message.sent', { MessageId: `MG${i}`, Status: 'sent' });
    await h.sim.webhooks.settle();
    expect(r.requests.map((q) => q.fields.MessageId)).toEqual(['MG1', 'MG2', 'MG3', 'MG4', 'MG5', 'MG6', 'MG7', 'MG8']);
    expect(Math.max(...r.requests.map((q) => q.concurrent))).toBe(1);
  });

  it('a retry waits its turn behind what the receiver already has queued', async () => {
    const h = sim();
    const r = await startReceiver((n, req) => (req.fields.MessageId === 'MG1' && n === 1 ? { status: 500 } : { status: 200 }));
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await h.sim.webhooks.settle();
    await h.sim.clock.advance({ seconds: 10 });
    emit(h, 'message.sent', { MessageId: 'MG2' });
    await h.sim.clock.advance({ seconds: 0 });
    expect(r.requests.map((q) => q.fields.MessageId)).toEqual(['MG1', 'MG1', 'MG2']);
  });

  it('same seed and requests: byte-identical bodies and headers, and the same journal', async () => {
    async function run(): Promise<{ sent: string[]; journal: unknown[] }> {
      const h = sim({ seed: 11 });
      const r = await startReceiver((n) => (n % 3 === 1 ? { status: 500 } : { status: 200 }));
      await subscribe(h, r.url, ['callflow.ended', 'message.sent']);
      await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: r.url, webhookMethod: 'GET' });
      for (let i = 0; i < 4; i++) {
        emit(h, 'callflow.ended', callflowEnded(`CA${i}`));
        emit(h, 'message.sent', { MessageId: `MG${i}`, Status: 'sent' });
        emit(h, 'message.received', { MessageId: `MGr${i}`, To: '07012340001', Body: `hi ${i}` });
        await h.sim.clock.advance({ seconds: 7 });
      }
      await h.sim.clock.advance({ seconds: 3600 });
      const port = new URL(r.url).port;
      const strip = (s: string) => s.split(port).join('PORT');
      return {
        sent: r.requests.map((q) => strip(`${q.method} ${q.path} ${q.headers['x-signature'] === undefined ? '' : 'signed'} ${q.headers['content-type'] ?? ''} ${q.headers['user-agent']} ${q.body}`)),
        journal: (await h.sim.webhooks.journal()).map(({ latencyMs: _l, url, requestHeaders, ...rest }) => ({ ...rest, url: strip(url), signature: requestHeaders['X-Signature'] ? 'present' : 'absent' })),
      };
    }
    const first = await run();
    const second = await run();
    expect(first.sent.length).toBeGreaterThan(12);
    expect(second.sent).toEqual(first.sent);
    expect(second.journal).toEqual(first.journal);
  });

  it('the same seed gives the same signature on the wire; the receiver URL is part of it', async () => {
    const signatures: string[] = [];
    for (let i = 0; i < 2; i++) {
      const h = sim({ seed: 5 });
      const r = await startReceiver();
      const at = `http://127.0.0.1:${new URL(r.url).port}/fixed`;
      await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: at });
      emit(h, 'message.received', { MessageId: 'MG1', To: '07012340001' });
      await h.sim.webhooks.settle();
      signatures.push((await h.sim.webhooks.journal())[0]!.requestHeaders['X-Signature']!);
      const key = await h.sim.webhooks.signingKey(ACME.accountId);
      expect(verifyWebhookRequest({ signingKey: key, url: at, body: 'MessageId=MG1&To=07012340001', signature: signatures[i] })).toBe(true);
    }
    // Different ports, so different URLs and signatures; the key is the same for the same seed.
    expect(signatures[0]).not.toBe(signatures[1]);
  });
});

describe('signing keys', () => {
  it('are stable per seed and account, differ across accounts and seeds, and can be rotated or set', async () => {
    const a = sim({ seed: 3 });
    const b = sim({ seed: 3 });
    const c = sim({ seed: 4 });
    const keyA = await a.sim.webhooks.signingKey(ACME.accountId);
    await b.call('POST', b.acme('/blocked-callers'), { number: '02-111-2222' }); // other requests do not change it
    expect(await b.sim.webhooks.signingKey(ACME.accountId)).toBe(keyA);
    expect(keyA).toMatch(/^whsec_[0-9a-f]{32}$/);
    expect(await a.sim.webhooks.signingKey(BISTRO.accountId)).not.toBe(keyA);
    expect(await c.sim.webhooks.signingKey(ACME.accountId)).not.toBe(keyA);

    const rotated = await a.sim.control.request<{ signingKey: string }>('PUT', `/accounts/${ACME.accountId}/signing-key`, {});
    expect(rotated.signingKey).not.toBe(keyA);
    const set = await a.sim.control.request<{ signingKey: string }>('PUT', `/accounts/${ACME.accountId}/signing-key`, { signingKey: 'my-app-secret-123' });
    expect(set).toEqual({ accountId: ACME.accountId, signingKey: 'my-app-secret-123' });
    const r = await startReceiver();
    await subscribe(a, r.url, ['message.sent']);
    emit(a, 'message.sent', { MessageId: 'MG1' });
    await a.sim.webhooks.settle();
    expect(verifyWebhookRequest({ signingKey: 'my-app-secret-123', url: r.requests[0]!.url, body: r.requests[0]!.body, signature: r.requests[0]!.headers['x-signature'] as string })).toBe(true);

    const bad = await a.call('PUT', `/_sim/accounts/${ACME.accountId}/signing-key`, { signingKey: 'short' });
    expect(bad.status).toBe(400);
    expect((await a.call('GET', '/_sim/accounts/ACnope/signing-key')).status).toBe(404);
  });

  it('never appear in API answers, logs or the journal', async () => {
    const h = sim();
    const key = await h.sim.webhooks.signingKey(ACME.accountId);
    const r = await startReceiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const id = await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await h.sim.clock.advance({ seconds: 60 });
    await h.call('POST', h.acme(`/webhooks/${id}/test`));
    const texts = [
      (await h.call('GET', h.acme('/webhooks'))).text,
      (await h.call('GET', h.acme(`/webhooks/${id}/logs`))).text,
      (await h.call('GET', '/_sim/webhooks/journal')).text,
      (await h.call('GET', '/_sim/webhooks/deliveries')).text,
      (await h.call('GET', '/openapi.json')).text,
      ...r.requests.map((q) => JSON.stringify(q)),
    ];
    expect(texts.join('\n').length).toBeGreaterThan(1000);
    for (const t of texts) expect(t).not.toContain(key);
  });
});
