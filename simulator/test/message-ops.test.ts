// Controls the service's operations staff put on an account's texting (guides): a bar (403
// messaging_blocked) and a monthly cap on all message types together (422
// override_quota_exceeded), set through the control plane or the fixture. Each refusal stores
// nothing and counts nothing.
import { describe, expect, it } from 'vitest';
import { parseFixture, DEFAULT_FIXTURE_PATH } from '../fixtures.ts';
import { readFileSync } from 'node:fs';
import { createSimulator } from '../index.ts';
import { ACME, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;
const FROM = '07012340001';
const CHANNEL = 'KA01PFacme0000000000000001';
const ORDER_TEMPLATE = 'KA01TPacmeorder000000000001';

function send(h: H, body: Record<string, unknown>) {
  return h.call('POST', h.acme('/messages'), { To: '010-1234-5678', From: FROM, ...body });
}

const ops = (h: H, messagingOps: Record<string, unknown>) => h.sim.control.request<any>('PATCH', `/accounts/${ACME.accountId}`, { messagingOps });
const ACME_KEYS = `    apiKeys: [${ACME.key}]`;
const snapshot = (h: H) => JSON.stringify(h.sim.snapshot());

async function expectRefused(h: H, body: Record<string, unknown>, status: number, code: string) {
  const before = snapshot(h);
  const r = await send(h, body);
  expect([r.status, r.json.code], JSON.stringify(body)).toEqual([status, code]);
  expect(snapshot(h), `${code} changed state`).toBe(before);
}

describe('operations bar (messaging_blocked)', () => {
  it('refuses every type with 403 while set, after the 400s and the subscription check; lifting it sends again', async () => {
    const h = harness();
    const view = await ops(h, { blocked: true });
    expect(view.messagingOps).toEqual({ blocked: true, monthlyCap: null });
    await expectRefused(h, { Body: 'hi' }, 403, 'messaging_blocked');
    await expectRefused(h, { Type: 'lms', Body: 'hi', Subject: 'S' }, 403, 'messaging_blocked');
    await expectRefused(h, { Body: 'hi', MediaUrl: ['https://img.example/a.jpg'] }, 403, 'messaging_blocked');
    await expectRefused(h, { Kakao: { ChannelId: CHANNEL, TemplateId: ORDER_TEMPLATE, Variables: { 고객명: 'a', 주문번호: 'b' } } }, 403, 'messaging_blocked');
    // Content and number errors come first; so does a lapsed subscription.
    await expectRefused(h, { Body: '' }, 400, 'invalid_input');
    await expectRefused(h, { Body: 'hi', From: '07099990000' }, 400, 'from_not_registered');
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    await expectRefused(h, { Body: 'hi' }, 422, 'NO_SUBSCRIPTION');
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'active', startedAt: '2026-01-15T03:00:00Z' } });
    // Only texting is barred: a verification still goes out, and inbound texts still arrive.
    expect((await h.call('POST', '/v2/verifications', { to: '01012345678', channel: 'sms' })).status).toBe(201);
    expect((await h.call('POST', '/_sim/carrier/inbound', { from: '01022223333', to: FROM, body: 'hello' }, { key: null })).status).toBe(201);
    // PATCH leaves what it does not name.
    expect((await ops(h, { monthlyCap: 5 })).messagingOps).toEqual({ blocked: true, monthlyCap: 5 });
    await ops(h, { blocked: false });
    expect((await send(h, { Body: 'hi' })).status).toBe(201);
  });

  it('a failed ata message sends no fallback while the account is barred', async () => {
    const h = harness();
    // 010-0000-0410 is not a messenger user: the ata message fails and its fallback would follow.
    const ata = await send(h, { To: '010-0000-0410', Kakao: { ChannelId: CHANNEL, TemplateId: ORDER_TEMPLATE, Variables: { 고객명: 'a', 주문번호: 'b' } } });
    await ops(h, { blocked: true });
    await h.sim.clock.advance({ seconds: 10 });
    const list = (await h.call('GET', h.acme('/messages?number=01000000410'))).json.data;
    expect(list.map((m: any) => [m.messageId, m.status])).toEqual([[ata.json.messageId, 'failed']]);
  });
});

describe('operations cap (override_quota_exceeded)', () => {
  it('counts every type together, is not lifted by overage add-ons, frees up when a message fails and resets next UTC month', async () => {
    const h = harness();
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: ['sms_overage', 'lms_overage'] });
    await ops(h, { monthlyCap: 3 });
    expect((await send(h, { Body: 'one' })).status).toBe(201);
    expect((await send(h, { Type: 'lms', Body: 'two', Subject: 'S' })).status).toBe(201);
    // 010-0000-0400 always fails at the carrier: it counts while queued, not once failed.
    expect((await send(h, { To: '010-0000-0400', Body: 'three' })).status).toBe(201);
    await expectRefused(h, { Body: 'four' }, 422, 'override_quota_exceeded');
    await expectRefused(h, { Type: 'lms', Body: 'four', Subject: 'S' }, 422, 'override_quota_exceeded');
    const quota = await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-quota`);
    expect(quota.operationsCap).toEqual({ used: 3, limit: 3 });
    await h.sim.clock.advance({ seconds: 5 });
    expect((await send(h, { Body: 'four' })).status).toBe(201);
    await expectRefused(h, { Body: 'five' }, 422, 'override_quota_exceeded');
    await h.sim.clock.advance({ to: '2026-04-01T00:00:00Z' });
    expect((await send(h, { Body: 'april' })).status).toBe(201);
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-quota`)).operationsCap).toEqual({ used: 1, limit: 3 });
  });

  it('a plan\'s own refusals come first; a cap of 0 refuses everything; null removes the cap', async () => {
    const h = harness();
    await ops(h, { monthlyCap: 0 });
    await expectRefused(h, { Body: 'x' }, 422, 'override_quota_exceeded');
    await h.sim.control.request('PUT', '/plans/tiny', { name: 'Tiny', lineLimit: 5, monthlyMessageQuota: { sms: 1, lms: 0, mms: 0, ata: 0 } });
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { plan: 'tiny' });
    await expectRefused(h, { Type: 'lms', Body: 'x', Subject: 'S' }, 422, 'type_not_supported');
    await ops(h, { monthlyCap: null });
    expect((await send(h, { Body: 'x' })).status).toBe(201);
    await ops(h, { monthlyCap: 5 });
    await expectRefused(h, { Body: 'y' }, 422, 'quota_exceeded');
  });

  it('control plane and fixture refuse bad values with the field named', async () => {
    const h = harness();
    for (const messagingOps of [{ blocked: 'yes' }, { monthlyCap: -1 }, { monthlyCap: 1.5 }, { other: true }]) {
      const r = await h.call('PATCH', `/_sim/accounts/${ACME.accountId}`, { messagingOps }, { key: null });
      expect([r.status, r.json.code], JSON.stringify(messagingOps)).toEqual([400, 'VALIDATION']);
    }
    const base = readFileSync(DEFAULT_FIXTURE_PATH, 'utf8');
    const withOps = base.replace(ACME_KEYS, `${ACME_KEYS}\n    messagingOps: { blocked: true, monthlyCap: 7 }`);
    expect(withOps).not.toBe(base);
    const sim = createSimulator({ fixture: parseFixture(withOps, 'f.yaml') });
    expect(runtimeOf(sim).accounts.get(ACME.accountId)!.messagingOps).toEqual({ blocked: true, monthlyCap: 7 });
    expect(() => parseFixture(base.replace(ACME_KEYS, `${ACME_KEYS}\n    messagingOps: { monthlyCap: -2 }`), 'f.yaml')).toThrow(/messagingOps/);
  });
});
