// The delivery engine when targets change or go away, through the control plane (triggers,
// duplicates, settle, the journal), and across snapshots.
import { afterEach, describe, expect, it } from 'vitest';
import { ACME } from './helpers.ts';
import { startReceiver } from './receivers.ts';
import { closeDeliveryTests, sim, emit, subscribe, verifies, callflowEnded } from './webhooks-delivery-helpers.ts';

afterEach(closeDeliveryTests);

describe('targets that change or go away', () => {
  it('deleting or deactivating a webhook drops its pending retries; a corrected URL gets them', async () => {
    const h = sim();
    const broken = await startReceiver(() => ({ status: 500 }));
    const fixed = await startReceiver();
    const del = await subscribe(h, broken.url, ['message.sent']);
    const off = await subscribe(h, broken.url, ['message.sent']);
    const moved = await subscribe(h, broken.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await h.sim.webhooks.settle();
    expect(broken.requests).toHaveLength(3);
    await h.call('DELETE', h.acme(`/webhooks/${del}`));
    await h.call('PUT', h.acme(`/webhooks/${off}`), { active: false });
    await h.call('PUT', h.acme(`/webhooks/${moved}`), { url: fixed.url });
    await h.sim.clock.advance({ seconds: 10 });
    expect(broken.requests).toHaveLength(3);
    expect(fixed.requests).toHaveLength(1);
    expect(await verifies(h, fixed.requests[0]!)).toBe(true);
    const reasons = (await h.sim.webhooks.deliveries()).map((d) => [d.status, d.reason]);
    expect(reasons).toEqual([
      ['failed', 'dropped: the webhook was deleted'],
      ['failed', 'dropped: the webhook was deactivated'],
      ['delivered', null],
    ]);
  });

  it('strict mode refuses a loopback number webhook at delivery, for good', async () => {
    const h = sim({ webhooks: { strict: true } });
    const r = await startReceiver();
    emit(h, 'message.received', { MessageId: 'MG1', To: '07012340002' }); // fixture: http://127.0.0.1:9/inbound
    await h.sim.clock.advance({ seconds: 86400 });
    expect(r.requests).toHaveLength(0);
    const journal = await h.sim.webhooks.journal();
    expect(journal).toHaveLength(1);
    expect(journal[0]).toMatchObject({ status: 'failed', url: 'http://127.0.0.1:9/inbound', error: 'address not allowed in strict mode: the loopback address 127.0.0.1' });
    expect((await h.sim.webhooks.deliveries())[0]).toMatchObject({ status: 'failed', attempts: 1 });
  });
});

describe('control plane', () => {
  it('triggers any event: through subscriptions, or to a given URL only', async () => {
    const h = sim();
    const sub = await startReceiver();
    const direct = await startReceiver();
    await subscribe(h, sub.url, ['assignment.completed']);
    const viaBus = await h.call('POST', '/_sim/webhooks/events', { accountId: ACME.accountId, type: 'assignment.completed', payload: { LinkId: 'lnk_1', Note: 'vip', Count: 2 } });
    expect(viaBus.status).toBe(202);
    expect(viaBus.json.deliveries).toHaveLength(1);
    expect(viaBus.json.deliveries[0]).toMatchObject({ event: 'assignment.completed', resourceId: 'lnk_1', status: 'pending' });
    const nobody = await h.call('POST', '/_sim/webhooks/events', { accountId: ACME.accountId, type: 'recording.completed', payload: { CallId: 'CA1' } });
    expect(nobody.json.deliveries).toEqual([]);
    const toUrl = await h.call('POST', '/_sim/webhooks/events', {
      accountId: ACME.accountId,
      type: 'transfer',
      payload: { CallId: 'CA5', TransferStatus: 'completed', TransferSequence: '1' },
      to: { url: direct.url, method: 'GET', headers: { 'X-Test': '1' } },
    });
    expect(toUrl.json.deliveries[0]).toMatchObject({ resourceId: 'CA5', target: { kind: 'url', method: 'GET' } });
    await h.sim.webhooks.settle();
    expect(sub.requests.map((q) => q.fields)).toEqual([{ LinkId: 'lnk_1', Note: 'vip', Count: '2' }]);
    expect(direct.requests[0]).toMatchObject({ method: 'GET', fields: { CallId: 'CA5', TransferStatus: 'completed', TransferSequence: '1' } });
    expect(direct.requests[0]!.headers['x-test']).toBe('1');
    expect(await verifies(h, direct.requests[0]!)).toBe(true);

    const before = JSON.stringify(h.sim.snapshot());
    for (const body of [
      { accountId: 'ACnope', type: 'x', payload: {} },
      { accountId: ACME.accountId, type: 'x', payload: {}, to: { url: 'ftp://x' } },
      { accountId: ACME.accountId, type: 'x', payload: {}, to: { url: direct.url, headers: { 'X-Signature': 'forged' } } },
      { accountId: ACME.accountId, type: 'x', payload: {}, to: { url: direct.url, headers: { Authorization: 'x' } } },
      { accountId: ACME.accountId, type: '', payload: {} },
    ]) {
      const r = await h.call('POST', '/_sim/webhooks/events', body);
      expect(r.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(r.status).toBeLessThan(500);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('injects a duplicate delivery: the receiver gets the same CallId, body and signature again', async () => {
    const h = sim();
    const r = await startReceiver();
    await subscribe(h, r.url, ['callflow.ended']);
    emit(h, 'callflow.ended', callflowEnded('CA42'));
    emit(h, 'callflow.ended', callflowEnded('CA43'));
    await h.sim.webhooks.settle();
    const dup = await h.call('POST', '/_sim/webhooks/duplicates', { resourceId: 'CA42', event: 'callflow.ended' });
    expect(dup.status).toBe(202);
    expect(dup.json.delivery).toMatchObject({ resourceId: 'CA42', duplicateOf: 'whd_00000001' });
    const again = await h.call('POST', '/_sim/webhooks/duplicates', { deliveryId: dup.json.delivery.id });
    expect(again.json.delivery.duplicateOf).toBe('whd_00000001');
    await h.sim.webhooks.settle();
    const ca42 = r.requests.filter((q) => q.fields.CallId === 'CA42');
    expect(ca42).toHaveLength(3);
    expect(new Set(ca42.map((q) => `${q.body}|${q.headers['x-signature']}`)).size).toBe(1);
    expect((await h.sim.webhooks.journal({ resourceId: 'CA42' })).map((a) => a.duplicateOf)).toEqual([null, 'whd_00000001', 'whd_00000001']);
    expect((await h.call('POST', '/_sim/webhooks/duplicates', { resourceId: 'CA404' })).json.code).toBe('delivery_not_found');
    expect((await h.call('POST', '/_sim/webhooks/duplicates', {})).status).toBe(400);
  });

  it('filters the journal by event and resource id, and clears it', async () => {
    const h = sim();
    const r = await startReceiver((n) => (n === 3 ? { status: 500 } : { status: 200 }));
    await subscribe(h, r.url, ['callflow.ended', 'message.sent']);
    emit(h, 'callflow.ended', callflowEnded('CA1'));
    emit(h, 'message.sent', { MessageId: 'MG1' });
    emit(h, 'message.sent', { MessageId: 'MG2' });
    await h.sim.webhooks.settle();
    const journal = await h.sim.webhooks.journal();
    expect(journal).toHaveLength(3);
    const first = journal[0]!;
    expect(first).toMatchObject({ event: 'callflow.ended', resourceId: 'CA1', method: 'POST', url: r.url, status: 'delivered', responseStatus: 200, attempt: 1 });
    expect(first.requestHeaders).toMatchObject({ 'Content-Type': 'application/x-www-form-urlencoded', 'User-Agent': 'platform-simulator-webhooks/0.1' });
    expect(first.requestBody).toContain('CallId=CA1');
    expect(typeof first.latencyMs).toBe('number');
    expect((await h.sim.webhooks.journal({ event: 'message.sent' })).map((a) => a.resourceId)).toEqual(['MG1', 'MG2']);
    expect((await h.sim.webhooks.journal({ resourceId: 'MG2' })).map((a) => a.status)).toEqual(['failed']);
    expect((await h.sim.webhooks.journal({ status: 'failed' })).map((a) => a.resourceId)).toEqual(['MG2']);

    const cleared = await h.call('DELETE', '/_sim/webhooks/journal');
    expect(cleared.status).toBe(204);
    expect(await h.sim.webhooks.journal()).toEqual([]);
    // The delivery still retrying stays and goes on.
    expect((await h.sim.webhooks.deliveries()).map((d) => [d.resourceId, d.phase])).toEqual([['MG2', 'waiting']]);
    await h.sim.clock.advance({ seconds: 10 });
    expect((await h.sim.webhooks.journal()).map((a) => [a.resourceId, a.attempt, a.status])).toEqual([['MG2', 2, 'delivered']]);
  });

  it('settle reports the retries waiting on the clock', async () => {
    const h = sim();
    const r = await startReceiver(() => ({ status: 500 }));
    expect(await h.sim.webhooks.settle()).toEqual({ now: '2026-03-02T00:00:00.000Z', inFlight: 0, waiting: 0, nextRetryAt: null });
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    expect(await h.sim.webhooks.settle()).toEqual({ now: '2026-03-02T00:00:00.000Z', inFlight: 0, waiting: 1, nextRetryAt: '2026-03-02T00:00:10.000Z' });
  });
});

describe('snapshots', () => {
  it('a retry waiting on the clock survives snapshot and restore into another simulator', async () => {
    const h = sim();
    const r = await startReceiver((n) => (n === 1 ? { status: 500 } : { status: 200 }));
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await h.sim.webhooks.settle();
    const snap = await h.sim.control.snapshot();

    const other = sim();
    await other.sim.control.restore(snap);
    expect(await other.sim.webhooks.signingKey(ACME.accountId)).toBe(await h.sim.webhooks.signingKey(ACME.accountId));
    await other.sim.clock.advance({ seconds: 10 });
    expect(r.requests).toHaveLength(2);
    expect(await verifies(other, r.requests[1]!)).toBe(true);
    expect((await other.sim.webhooks.journal()).map((a) => a.status)).toEqual(['failed', 'delivered']);
    expect(await h.sim.webhooks.journal()).toHaveLength(1); // the original went nowhere
  });

  it('an attempt in flight at snapshot time is sent again by the restored simulator', async () => {
    const h = sim({ webhooks: { timeoutMs: 300 } });
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const r = await startReceiver((n) => {
      arrived();
      return n === 1 ? { hang: true } : { status: 200 };
    });
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await arrival;
    const snap = h.sim.snapshot(); // taken while the first attempt hangs
    expect((snap.models.webhookDeliveries as any).deliveries[0].phase).toBe('sending');

    const other = sim();
    await other.sim.control.restore(snap);
    await other.sim.webhooks.settle();
    expect((await other.sim.webhooks.journal()).map((a) => [a.attempt, a.status])).toEqual([[1, 'delivered']]);
    await h.sim.webhooks.settle();
    expect((await h.sim.webhooks.journal()).map((a) => [a.attempt, a.status, a.error])).toEqual([[1, 'failed', 'timeout after 300 ms']]);
  });

  it('reset while an attempt is in flight: its answer is ignored, nothing breaks', async () => {
    const h = sim({ webhooks: { timeoutMs: 300 } });
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const r = await startReceiver(() => {
      arrived();
      return { hang: true };
    });
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await arrival;
    await h.sim.control.reset();
    await h.sim.webhooks.settle();
    expect(await h.sim.webhooks.journal()).toEqual([]);
    expect(await h.sim.webhooks.deliveries()).toEqual([]);
    expect((await h.call('GET', h.acme('/webhooks'))).json.data).toEqual([]);
    expect(r.requests).toHaveLength(1);
  });

  it('a refused control request rolls back without sending an attempt in flight twice', async () => {
    const h = sim();
    let arrived: () => void = () => undefined;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const r = await startReceiver(() => (_req, res) => {
      arrived();
      void gate.then(() => res.end('ok'));
    });
    await subscribe(h, r.url, ['message.sent']);
    emit(h, 'message.sent', { MessageId: 'MG1' });
    await arrival;
    // Creating an existing account is refused and restores the state from before the request.
    expect((await h.call('POST', '/_sim/accounts', { accountId: ACME.accountId })).status).toBe(409);
    release();
    await h.sim.webhooks.settle();
    expect(r.requests).toHaveLength(1);
    expect((await h.sim.webhooks.journal()).map((a) => a.status)).toEqual(['delivered']);
  });
});
