// End to end with the messaging slice: an inbound text injected at the carrier reaches the
// receiving number's webhook and the account's webhook; a sent text's carrier report arrives as
// message.sent (or message.failed), over real HTTP, signed, on the virtual clock.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';
import { closeAllReceivers, startReceiver, type Received } from './receivers.ts';
import { verifyWebhookRequest } from '../core/signing.ts';

type H = ReturnType<typeof harness>;
const made: H[] = [];
afterEach(async () => {
  await closeAllReceivers();
  await Promise.all(made.splice(0).map((h) => h.sim.close()));
});

function sim(): H {
  const h = harness({ webhooks: { timeoutMs: 2000 } });
  made.push(h);
  return h;
}

async function verifies(h: H, got: Received): Promise<boolean> {
  const signingKey = await h.sim.webhooks.signingKey(ACME.accountId);
  return verifyWebhookRequest({ signingKey, url: got.url, method: got.method, body: got.body, signature: got.headers['x-signature'] as string });
}

describe('webhooks with messaging', () => {
  it('an inbound text reaches the number\'s webhook (its method and headers) and the subscribed account webhook', async () => {
    const h = sim();
    const numberHook = await startReceiver();
    const accountHook = await startReceiver();
    await h.call('PUT', h.acme('/numbers/07012340001'), { webhookUrl: numberHook.url, webhookMethod: 'GET', webhookHeaders: { 'X-Shop': 'acme' } });
    await h.call('POST', h.acme('/webhooks'), { url: accountHook.url, events: ['message.received'] });

    const inbound = await h.sim.control.request<{ messageId: string }>('POST', '/carrier/inbound', { from: '010-2222-3333', to: '070-1234-0001', body: '배송 언제 와요?' });
    await h.sim.webhooks.settle();

    expect(numberHook.requests).toHaveLength(1);
    const n = numberHook.requests[0]!;
    expect(n.method).toBe('GET');
    expect(n.headers['x-shop']).toBe('acme');
    expect(n.fields).toMatchObject({
      MessageId: inbound.messageId,
      AccountId: ACME.accountId,
      From: '01022223333',
      To: '07012340001',
      Direction: 'inbound',
      Status: 'received',
      Body: '배송 언제 와요?',
      NumMedia: '0',
    });
    expect(await verifies(h, n)).toBe(true);

    expect(accountHook.requests).toHaveLength(1);
    const a = accountHook.requests[0]!;
    expect(a.method).toBe('POST');
    expect(a.fields).toEqual(n.fields);
    expect(await verifies(h, a)).toBe(true);
  });

  it('a sent text: message.sent arrives when the carrier reports it; a failed one gives message.failed', async () => {
    const h = sim();
    const hook = await startReceiver();
    await h.call('POST', h.acme('/webhooks'), { url: hook.url, events: ['message.sent', 'message.failed'] });
    const ok = await h.call('POST', h.acme('/messages'), { To: '010-1234-5678', From: '070-1234-0001', Body: 'hello' });
    const bad = await h.call('POST', h.acme('/messages'), { To: '010-0000-0400', From: '070-1234-0001', Body: 'to the failing magic number' });
    expect([ok.status, bad.status]).toEqual([201, 201]);
    await h.sim.webhooks.settle();
    expect(hook.requests).toHaveLength(0); // queued: nothing to report before the carrier answers

    await h.sim.clock.advance({ seconds: 60 });
    const byId = Object.fromEntries(hook.requests.map((q) => [q.fields.MessageId, q.fields]));
    expect(byId[ok.json.messageId]).toMatchObject({ Status: 'sent', Direction: 'outbound', Type: 'sms', To: '01012345678', From: '07012340001' });
    expect(byId[bad.json.messageId]).toMatchObject({ Status: 'failed' });
    expect(byId[ok.json.messageId]).not.toHaveProperty('Body'); // delivery reports carry no body (guides)
    for (const q of hook.requests) expect(await verifies(h, q)).toBe(true);
    const events = (await h.sim.webhooks.journal()).map((j) => [j.event, j.resourceId]);
    expect(events).toEqual(expect.arrayContaining([['message.sent', ok.json.messageId], ['message.failed', bad.json.messageId]]));
  });
});
