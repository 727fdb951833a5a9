// Account webhooks as the public API document shapes them: registration, listing, update,
// deletion, logs and the test send; refusals with their codes and no state change.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver } from './receivers.ts';
import { verifyWebhookRequest } from '../core/signing.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

describe('webhook registration', () => {
  let h: H;
  beforeEach(() => {
    h = harness({ webhooks: { timeoutMs: 2000 } });
  });
  afterEach(async () => {
    await closeAllReceivers();
    await h.sim.close();
  });

  it('creates a webhook with the reference\'s wire names (account_id, created_at) and 201', async () => {
    const r = await h.call('POST', h.acme('/webhooks'), { url: 'https://My-App.example/webhook', events: ['callflow.ended', 'message.sent', 'callflow.ended'] });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json)).toEqual(['id', 'account_id', 'url', 'events', 'active', 'created_at']);
    expect(r.json).toMatchObject({
      account_id: ACME.accountId,
      url: 'https://my-app.example/webhook',
      events: ['callflow.ended', 'message.sent'],
      active: true,
      created_at: '2026-03-02T00:00:00.000Z',
    });
    expect(r.json.id).toMatch(/^WH[0-9a-f]{16}$/);
  });

  it('refuses bad URLs with 400 and unknown events with UNKNOWN_EVENT, changing nothing', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    for (const url of ['not a url', 'ftp://x.example/h', 'https://user:pw@x.example/h', 'https://x.example/h#frag', '', 'mailto:a@b.example']) {
      const r = await h.call('POST', h.acme('/webhooks'), { url, events: ['message.sent'] });
      expect(r.status, url).toBe(400);
      expect(r.json.code, url).toBe('VALIDATION');
    }
    const unknown = await h.call('POST', h.acme('/webhooks'), { url: 'https://x.example/h', events: ['message.sent', 'call.ended', 'transfer'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.code).toBe('UNKNOWN_EVENT');
    expect(unknown.json.error).toContain('"call.ended"');
    expect(unknown.json.error).toContain('callflow.ended');
    expect(unknown.json.errors).toEqual([
      { path: 'events[1]', message: 'unknown event "call.ended"' },
      { path: 'events[2]', message: 'unknown event "transfer"' },
    ]);
    for (const body of [{ url: 'https://x.example/h', events: [] }, { url: 'https://x.example/h' }, { events: ['message.sent'] }, { url: 'https://x.example/h', events: ['message.sent'], secret: 'x' }]) {
      expect((await h.call('POST', h.acme('/webhooks'), body)).status, JSON.stringify(body)).toBe(400);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('accepts every event name of the reference', async () => {
    const events = [
      'message.sent', 'message.failed', 'message.received', 'transcript.completed', 'transcript.failed', 'summary.completed',
      'summary.failed', 'recording.completed', 'recording.failed', 'agent.disconnected', 'agent.connected', 'callflow.ended', 'assignment.completed',
    ];
    const r = await h.call('POST', h.acme('/webhooks'), { url: 'http://127.0.0.1:9/x', events });
    expect(r.status).toBe(201);
    expect(r.json.events).toEqual(events);
    // /openapi.json documents them, as the reference does, so generated clients offer them
    // (in the family list's order, generated from the descriptors).
    const doc = (await h.call('GET', '/openapi.json')).json;
    const items = doc.components.schemas.CreateWebhookRequest.properties.events.items;
    expect([...items.enum].sort()).toEqual([...events, 'email.received'].sort());
  });

  it('lists newest first without paging; other accounts\' webhooks stay invisible (404)', async () => {
    const a = (await h.call('POST', h.acme('/webhooks'), { url: 'https://a.example/1', events: ['message.sent'] })).json;
    await h.sim.clock.advance({ seconds: 5 });
    const b = (await h.call('POST', h.acme('/webhooks'), { url: 'https://a.example/2', events: ['callflow.ended'] })).json;
    const mine = await h.call('GET', h.acme('/webhooks'));
    expect(mine.status).toBe(200);
    expect(Object.keys(mine.json)).toEqual(['data']);
    expect(mine.json.data.map((w: any) => w.id)).toEqual([b.id, a.id]);
    expect((await h.call('GET', h.bistro('/webhooks'), undefined, { key: BISTRO.key })).json.data).toEqual([]);
    for (const [m, p, body] of [
      ['PUT', `/webhooks/${a.id}`, { active: false }],
      ['DELETE', `/webhooks/${a.id}`],
      ['GET', `/webhooks/${a.id}/logs`],
      ['POST', `/webhooks/${a.id}/test`],
    ] as const) {
      const r = await h.call(m, h.bistro(p), body, { key: BISTRO.key });
      expect(r.status, `${m} ${p}`).toBe(404);
      expect(r.json.code).toBe('webhook_not_found');
    }
  });

  it('updates partially, refuses an empty update, deletes with 204', async () => {
    const w = (await h.call('POST', h.acme('/webhooks'), { url: 'https://a.example/1', events: ['message.sent'] })).json;
    const url = h.acme(`/webhooks/${w.id}`);
    const off = await h.call('PUT', url, { active: false });
    expect(off.status).toBe(200);
    expect(off.json).toMatchObject({ id: w.id, url: 'https://a.example/1', events: ['message.sent'], active: false, created_at: w.created_at });
    const moved = await h.call('PUT', url, { url: 'https://b.example/2', events: ['callflow.ended'] });
    expect(moved.json).toMatchObject({ url: 'https://b.example/2', events: ['callflow.ended'], active: false });
    const empty = await h.call('PUT', url, {});
    expect(empty.status).toBe(400);
    expect(empty.json.code).toBe('NOTHING_TO_UPDATE');
    expect((await h.call('PUT', url, { events: ['nope'] })).json.code).toBe('UNKNOWN_EVENT');
    expect((await h.call('PUT', url, { url: 'gopher://x' })).status).toBe(400);
    expect((await h.call('PUT', h.acme('/webhooks/WHnope'), { active: true })).json.code).toBe('webhook_not_found');
    const del = await h.call('DELETE', url);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await h.call('DELETE', url)).status).toBe(404);
    expect((await h.call('GET', h.acme('/webhooks'))).json.data).toEqual([]);
  });

  it('testWebhook sends one signed test event, also to an inactive webhook, and reports the answer', async () => {
    let answer = 200;
    const receiver = await startReceiver(() => ({ status: answer, body: 'thanks' }));
    const w = (await h.call('POST', h.acme('/webhooks'), { url: receiver.url, events: ['message.sent'] })).json;
    await h.call('PUT', h.acme(`/webhooks/${w.id}`), { active: false });
    const ok = await h.call('POST', h.acme(`/webhooks/${w.id}/test`));
    expect(ok.status).toBe(200);
    expect(ok.json).toEqual({ ok: true, message: 'Test webhook sent' });
    expect(receiver.requests).toHaveLength(1);
    const got = receiver.requests[0]!;
    expect(got.fields).toEqual({ Event: 'webhook.test', WebhookId: w.id, AccountId: ACME.accountId, Timestamp: '2026-03-02T00:00:00.000Z' });
    const key = await h.sim.webhooks.signingKey(ACME.accountId);
    expect(verifyWebhookRequest({ signingKey: key, url: got.url, body: got.body, signature: got.headers['x-signature'] as string })).toBe(true);

    answer = 503;
    const failed = await h.call('POST', h.acme(`/webhooks/${w.id}/test`));
    expect(failed.json).toEqual({ ok: false, message: 'Test webhook failed: receiver answered 503' });
    await h.sim.clock.advance({ seconds: 86400 });
    expect(receiver.requests).toHaveLength(2); // a test send is never retried

    const logs = await h.call('GET', h.acme(`/webhooks/${w.id}/logs`));
    expect(logs.status).toBe(200);
    expect(logs.json.meta).toEqual({ page: 0, pageSize: 20, total: 2 });
    expect(logs.json.data.map((l: any) => [l.status, l.responseStatus, l.attempt, l.maxAttempts, l.event])).toEqual([
      ['failed', 503, 1, 1, 'webhook.test'],
      ['delivered', 200, 1, 1, 'webhook.test'],
    ]);
  });

  it('logs show every attempt, newest first, paged, in the reference\'s shape', async () => {
    const receiver = await startReceiver((n) => (n < 3 ? { status: 500, body: `no ${n}` } : { status: 204 }));
    const w = (await h.call('POST', h.acme('/webhooks'), { url: receiver.url, events: ['message.sent'] })).json;
    runtimeOf(h.sim).events.emit({ type: 'message.sent', accountId: ACME.accountId, resourceId: 'MG1', at: runtimeOf(h.sim).clock.now(), payload: { MessageId: 'MG1', Status: 'sent' } });
    await h.sim.clock.advance({ seconds: 3600 });
    const page = await h.call('GET', h.acme(`/webhooks/${w.id}/logs?pageSize=2`));
    expect(page.json.meta).toEqual({ page: 0, pageSize: 2, total: 3 });
    const [third, second] = page.json.data;
    expect(Object.keys(third)).toEqual([
      'id', 'webhookId', 'event', 'requestUrl', 'requestPayload', 'responseStatus', 'responseBody', 'responseTimeMs',
      'status', 'attempt', 'maxAttempts', 'createdAt', 'completedAt',
    ]);
    expect(third).toMatchObject({ webhookId: w.id, event: 'message.sent', requestUrl: receiver.url, requestPayload: { MessageId: 'MG1', Status: 'sent' }, status: 'delivered', responseStatus: 204, attempt: 3, maxAttempts: 6, createdAt: '2026-03-02T00:01:10.000Z' });
    expect(typeof third.responseTimeMs).toBe('number');
    expect(second).toMatchObject({ status: 'failed', responseStatus: 500, responseBody: 'no 2', attempt: 2, createdAt: '2026-03-02T00:00:10.000Z' });
    const last = await h.call('GET', h.acme(`/webhooks/${w.id}/logs?page=1&pageSize=2`));
    expect(last.json.data.map((l: any) => l.attempt)).toEqual([1]);
    expect((await h.call('GET', h.acme(`/webhooks/${w.id}/logs?pageSize=101`))).status).toBe(400);
  });
});

describe('strict webhook mode', () => {
  it('refuses loopback, private and localhost receivers with URL_BLOCKED, at registration and on numbers', async () => {
    const h = harness({ webhooks: { strict: true } });
    for (const url of ['http://127.0.0.1:3000/h', 'http://localhost/h', 'http://api.localhost/h', 'http://10.1.2.3/h', 'http://192.168.0.5/h', 'http://169.254.169.254/latest', 'http://[::1]/h', 'http://[fd00::1]/h', 'http://0x7f.1/h']) {
      const r = await h.call('POST', h.acme('/webhooks'), { url, events: ['message.sent'] });
      expect(r.status, url).toBe(400);
      expect(r.json.code, url).toBe('URL_BLOCKED');
    }
    expect((await h.call('POST', h.acme('/webhooks'), { url: 'https://hooks.example.com/h', events: ['message.sent'] })).status).toBe(201);
    const n = await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: 'http://127.0.0.1:3000/in' });
    expect(n.json.code).toBe('URL_BLOCKED');
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { statusCallback: 'http://10.0.0.1/cb' })).json.code).toBe('URL_BLOCKED');
    expect((await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: 'https://app.example.com/in' })).status).toBe(200);
  });

  it('is off by default: local receivers are what customers run', async () => {
    const h = harness();
    expect((await h.call('POST', h.acme('/webhooks'), { url: 'http://127.0.0.1:3000/h', events: ['message.sent'] })).status).toBe(201);
    expect((await h.call('POST', h.acme('/webhooks'), { url: 'http://localhost:3000/h', events: ['message.sent'] })).status).toBe(201);
  });
});
