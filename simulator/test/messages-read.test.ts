// Messages (docs/decisions.md "Messages"): idempotent sends, listMessages and getMessage, inbound texts, usage
// records, the refusals as a property, and wire identity.
import { beforeEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import type { SimResponse } from '../core/operation.ts';
import { openApiJson } from '../operations.ts';
import { ACME, BISTRO, harness } from './helpers.ts';
import { type H, FROM, CHANNEL, ORDER_TEMPLATE, DORMANT_TEMPLATE, hangul, send, state, capture, tinyQuotaFixture } from './messages-helpers.ts';
import { runtimeOf } from '../internal.ts';

describe('IdempotencyKey', () => {
  it('a repeated key returns the first message (201) without sending, whatever the body; per account', async () => {
    const h = harness();
    const first = await send(h, { Body: 'order 1024 received', IdempotencyKey: 'order-1024' });
    const again = await send(h, { To: '010-9999-8888', Body: 'different', IdempotencyKey: 'order-1024' });
    expect(again.status).toBe(201);
    expect(again.json).toEqual(first.json);
    await h.sim.clock.advance({ seconds: 5 });
    expect((await send(h, { Body: 'x', IdempotencyKey: 'order-1024' })).json).toMatchObject({ messageId: first.json.messageId, status: 'sent' });
    expect((await h.call('GET', h.acme('/messages'))).json.meta.total).toBe(1);
    const bistro = await send(h, { From: '07012349001', Body: 'b', IdempotencyKey: 'order-1024' }, BISTRO);
    expect(bistro.json.messageId).not.toBe(first.json.messageId);
    // A refused send does not claim the key.
    const refused = await send(h, { To: '01055550101', Body: 'blocked', IdempotencyKey: 'k2' });
    expect(refused.status).toBe(422);
    expect((await send(h, { Body: 'ok', IdempotencyKey: 'k2' })).status).toBe(201);
    // The key survives a snapshot round trip.
    const snap = await h.sim.control.snapshot();
    const h2 = harness();
    await h2.sim.control.restore(snap);
    expect((await send(h2, { Body: 'y', IdempotencyKey: 'order-1024' })).json.messageId).toBe(first.json.messageId);
  });
});

describe('listMessages and getMessage', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('merges sent and received, newest first, with type, status and number (either side) filters', async () => {
    const a = (await send(h, { To: '010-1111-0001', Body: 'a' })).json;
    await h.sim.clock.advance({ seconds: 1 });
    const b = (await send(h, { To: '010-0000-0400', Body: 'b', Subject: 'S' })).json;
    await h.sim.clock.advance({ seconds: 1 });
    const inbound = await h.sim.control.request<any>('POST', '/carrier/inbound', { from: '010-1111-0001', to: '070-1234-0002', body: 'reply' });
    await h.sim.clock.advance({ seconds: 5 });
    const all = (await h.call('GET', h.acme('/messages'))).json;
    expect(all.data.map((m: any) => m.messageId)).toEqual([inbound.messageId, b.messageId, a.messageId]);
    expect(all.meta).toEqual({ page: 0, pageSize: 20, total: 3 });
    const ids = async (q: string) => (await h.call('GET', h.acme(`/messages?${q}`))).json.data.map((m: any) => m.messageId);
    expect(await ids('number=010-1111-0001')).toEqual([inbound.messageId, a.messageId]);
    expect(await ids('number=%2B82%2010%201111%200001')).toEqual([inbound.messageId, a.messageId]);
    expect(await ids('number=07012340002')).toEqual([inbound.messageId]);
    expect(await ids(`number=${FROM}`)).toEqual([b.messageId, a.messageId]);
    expect(await ids('status=received')).toEqual([inbound.messageId]);
    expect(await ids('status=failed')).toEqual([b.messageId]);
    expect(await ids('status=sent')).toEqual([a.messageId]);
    expect(await ids('type=lms')).toEqual([b.messageId]);
    expect(await ids('type=ata')).toEqual([]);
    expect(await ids('type=sms&status=sent&number=01011110001')).toEqual([a.messageId]);
    const page = (await h.call('GET', h.acme('/messages?pageSize=2&page=1'))).json;
    expect(page.data.map((m: any) => m.messageId)).toEqual([a.messageId]);
    expect(page.meta).toEqual({ page: 1, pageSize: 2, total: 3 });
    expect((await h.call('GET', h.acme('/messages?limit=1'))).json.meta.pageSize).toBe(1);
    // Another account sees none of them.
    expect((await h.call('GET', h.bistro('/messages'), undefined, { key: BISTRO.key })).json.meta.total).toBe(0);
  });

  it('refuses bad filters with 400', async () => {
    for (const [q, code] of [
      ['pageSize=101', 'VALIDATION'],
      ['pageSize=x', 'VALIDATION'],
      ['status=sending', 'VALIDATION'],
      ['type=rcs', 'VALIDATION'],
      ['number=abc', 'INVALID_PHONE_NUMBER'],
      ['number=%2B1%20212%20555%200100', 'UNSUPPORTED_COUNTRY'],
    ]) {
      const r = await h.call('GET', h.acme(`/messages?${q}`));
      expect(r.status, q).toBe(400);
      expect(r.json.code, q).toBe(code);
    }
  });

  it('getMessage: 404 message_not_found for an unknown id and for another account\'s message', async () => {
    const mine = (await send(h, { Body: 'mine' })).json;
    expect((await h.call('GET', h.acme('/messages/MGnope'))).json).toMatchObject({ code: 'message_not_found' });
    const theirs = await h.call('GET', h.bistro(`/messages/${mine.messageId}`), undefined, { key: BISTRO.key });
    expect(theirs.status).toBe(404);
    expect(theirs.json.code).toBe('message_not_found');
  });
});

describe('inbound messages (control plane)', () => {
  it('are stored as received for the number\'s account and announced with the inbound fields', async () => {
    const h = harness();
    const events = capture(h);
    const r = await h.call('POST', '/_sim/carrier/inbound', { from: '+82 10-2222-3333', to: '070-1234-0002', body: '주문 취소해 주세요' }, { key: null });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ status: 'received', direction: 'inbound', type: 'sms', from: '01022223333', to: '07012340002', accountId: ACME.accountId, body: '주문 취소해 주세요', dateUpdated: null });
    const mms = await h.call('POST', '/_sim/carrier/inbound', { from: '01022223333', to: '07012349001', mediaUrl: ['https://img.example/a.jpg', 'https://img.example/b.jpg'] }, { key: null });
    expect(mms.json).toMatchObject({ type: 'mms', accountId: BISTRO.accountId, body: null, numMedia: 2 });
    expect(events.map((e) => e.payload)).toEqual([
      {
        MessageId: r.json.messageId, AccountId: ACME.accountId, From: '01022223333', To: '07012340002', Direction: 'inbound', Type: 'sms', Status: 'received',
        Timestamp: '2026-03-02T00:00:00.000Z', Subject: '', Body: '주문 취소해 주세요', NumMedia: '0',
      },
      {
        MessageId: mms.json.messageId, AccountId: BISTRO.accountId, From: '01022223333', To: '07012349001', Direction: 'inbound', Type: 'mms', Status: 'received',
        Timestamp: '2026-03-02T00:00:00.000Z', Subject: '', Body: '', NumMedia: '2',
        MediaUrl0: `http://localhost/v1/accounts/${BISTRO.accountId}/messages/${mms.json.messageId}/media/0`,
        MediaUrl1: `http://localhost/v1/accounts/${BISTRO.accountId}/messages/${mms.json.messageId}/media/1`,
      },
    ]);
    expect(events.map((e) => [e.type, e.accountId, e.resourceId])).toEqual([
      ['message.received', ACME.accountId, r.json.messageId],
      ['message.received', BISTRO.accountId, mms.json.messageId],
    ]);
    // Opt-outs never block inbound; inbound counts toward no quota or usage.
    expect((await h.call('POST', '/_sim/carrier/inbound', { from: '01055550101', to: FROM, body: 'STOP' }, { key: null })).status).toBe(201);
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-usage`)).data).toEqual([]);
    const before = JSON.stringify(h.sim.snapshot());
    for (const [body, code] of [
      [{ from: '01022223333', to: '07099998888', body: 'x' }, 'number_not_found'],
      [{ from: 'nope', to: FROM, body: 'x' }, 'INVALID_PHONE_NUMBER'],
      [{ from: '01022223333', to: FROM, type: 'sms', mediaUrl: ['https://img.example/a.jpg'] }, 'VALIDATION'],
    ] as const) {
      const bad = await h.call('POST', '/_sim/carrier/inbound', body, { key: null });
      expect(bad.json.code).toBe(code);
    }
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });
});

describe('usage records', () => {
  it('one per outbound message not failed: meter, quantity, UTC day, number and linkId; failures drop out', async () => {
    const h = harness();
    await h.sim.clock.advance({ to: '2026-03-02T23:59:59Z' });
    const a = (await send(h, { Body: 'late evening' })).json;
    const failing = (await send(h, { To: '010-0000-0400', From: '070-1234-0002', Body: 'will fail' })).json;
    const usage = () => h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-usage`);
    expect((await usage()).data).toEqual([
      { messageId: a.messageId, meter: 'sms', unit: 'count', quantity: 1, day: '2026-03-02', phoneNumber: FROM, linkId: null, at: '2026-03-02T23:59:59.000Z' },
      { messageId: failing.messageId, meter: 'sms', unit: 'count', quantity: 1, day: '2026-03-02', phoneNumber: '07012340002', linkId: null, at: '2026-03-02T23:59:59.000Z' },
    ]);
    await h.sim.clock.advance({ seconds: 2 });
    expect((await usage()).data.map((u: any) => u.messageId)).toEqual([a.messageId]);
    expect(runtimeOf(h.sim).messages.usageRecords(ACME.accountId)).toEqual((await usage()).data);
    const b = (await send(h, { Type: 'lms', Body: 'next day' })).json;
    expect((await usage()).data[1]).toMatchObject({ messageId: b.messageId, meter: 'lms', day: '2026-03-03' });
  });

  it('carry the linkId of the assignment the sending number was issued through', async () => {
    const h = harness();
    // Issue a number as an assignment link would (the links resource is another issue).
    const row = runtimeOf(h.sim).numbers.issue(ACME.accountId, {}, 'lnk_test_1');
    const m = (await send(h, { From: row.id, Body: 'via link' })).json;
    const usage = await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-usage`);
    expect(usage.data).toEqual([expect.objectContaining({ messageId: m.messageId, phoneNumber: row.id, linkId: 'lnk_test_1' })]);
  });
});

describe('refusals as a property', () => {
  // A sendable text with zero to two changes, so that sends often pass the content checks and
  // reach the account's (opt-out, subscription, monthly caps).
  const kakao = (TemplateId: string, Variables?: Record<string, string>) => ({ Body: undefined, Kakao: { ChannelId: CHANNEL, TemplateId, Variables } });
  const change = fc.constantFrom<Record<string, unknown>>(
    { To: '01055550101' }, { To: '010-0000-0400' }, { To: 'abc' }, { To: '+1 212 555 0100' }, { To: '1588-1234' },
    { From: '070-1234-0002' }, { From: '07012349001' }, { From: 'nope' },
    { Type: 'sms' }, { Type: 'lms' }, { Type: 'mms' }, { Type: 'ata' },
    { Body: '' }, { Body: hangul(46) }, { Body: 'x'.repeat(2001) }, { Body: undefined },
    { Subject: 'S' }, { MediaUrl: ['https://i.example/a.jpg'] }, { MediaUrl: ['https://i.example/a.gif'] },
    kakao(ORDER_TEMPLATE, { 고객명: 'a', 주문번호: 'b' }), kakao(ORDER_TEMPLATE, { 고객명: 'a' }), kakao(DORMANT_TEMPLATE, { date: 'd' }), kakao('KA01TPunknown'),
    { IdempotencyKey: 'k1' }, { IdempotencyKey: 'k2' },
  );
  const sendBody = fc.array(change, { maxLength: 2 }).map((changes) => {
    const body: Record<string, unknown> = Object.assign({ To: '010-1234-5678', From: FROM, Body: 'hi' }, ...changes);
    return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
  });
  const step = fc.oneof(
    { arbitrary: sendBody.map((body) => ({ kind: 'send' as const, body })), weight: 6 },
    { arbitrary: fc.constantFrom('active', 'inactive').map((sub) => ({ kind: 'subscription' as const, sub })), weight: 1 },
    { arbitrary: fc.constantFrom(1, 2, 600).map((seconds) => ({ kind: 'advance' as const, seconds })), weight: 1 },
  );

  it('a refused send changes nothing; an accepted one adds one message and one count (or replays)', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 20, maxLength: 30 }), (steps) => {
        const h = harness({ fixture: tinyQuotaFixture() });
        const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };
        const run = (method: string, url: string, body?: unknown) => {
          const res = dispatch(runtimeOf(h.sim), opts, {
            method, url, headers: { authorization: `Bearer ${ACME.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
          }) as SimResponse;
          return { status: res.status, json: JSON.parse(res.body || 'null') };
        };
        // The whole state as text before each send: after a refusal or a replay it is the same text
        // (that is what is checked), so it is taken again only after something that may change it.
        let known: string | undefined;
        for (const s of steps) {
          if (s.kind !== 'send') known = undefined;
          if (s.kind === 'advance') run('POST', '/_sim/clock/advance', { seconds: s.seconds });
          else if (s.kind === 'subscription') run('PATCH', `/_sim/accounts/${ACME.accountId}`, { subscription: { status: s.sub, startedAt: '2026-01-15T03:00:00Z' } });
          else {
            const before = (known ??= state(h));
            const count = runtimeOf(h.sim).messages.messages.size;
            const used = runtimeOf(h.sim).messages.quotaView(ACME.accountId).types;
            const r = run('POST', h.acme('/messages'), s.body);
            expect(r.status, JSON.stringify(r.json)).not.toBeGreaterThanOrEqual(500);
            if (r.status !== 201) {
              expect([400, 422]).toContain(r.status);
              expect(state(h), `${r.json.code} changed state`).toBe(before);
              continue;
            }
            const after = runtimeOf(h.sim).messages.messages.size;
            if (after === count) {
              expect(s.body.IdempotencyKey).toBeDefined(); // only a replay adds nothing
              expect(state(h)).toBe(before);
            } else {
              known = undefined;
              expect(after).toBe(count + 1);
              const type = r.json.type as keyof typeof used;
              expect(runtimeOf(h.sim).messages.quotaView(ACME.accountId).types[type].used).toBe(used[type].used + 1);
            }
          }
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('wire identity and determinism', () => {
  it('keeps the public API document\'s operationIds, paths and success statuses', () => {
    const doc = JSON.parse(openApiJson());
    expect(doc.paths['/v1/accounts/{accountId}/messages'].post.operationId).toBe('sendMessage');
    expect(Object.keys(doc.paths['/v1/accounts/{accountId}/messages'].post.responses)).toContain('201');
    expect(doc.paths['/v1/accounts/{accountId}/messages'].get.operationId).toBe('listMessages');
    expect(doc.paths['/v1/accounts/{accountId}/messages/{messageId}'].get.operationId).toBe('getMessage');
    const body = doc.components.schemas.SendMessageRequest;
    // Brand: today's SDK adds brand messages (docs/compatibility.md).
    expect(Object.keys(body.properties).sort()).toEqual(['Body', 'Brand', 'Fallback', 'From', 'IdempotencyKey', 'Kakao', 'MediaUrl', 'Subject', 'To', 'Type']);
    expect(body.required.sort()).toEqual(['From', 'To']);
  });

  it('the same seed and requests give byte-identical answers, phones included', async () => {
    const runOnce = async () => {
      const h = harness({ seed: 9 });
      const out: string[] = [];
      out.push((await send(h, { Body: 'a' })).text);
      out.push((await send(h, { To: '010-0000-0410', Kakao: { ChannelId: CHANNEL, TemplateId: ORDER_TEMPLATE, Variables: { 고객명: 'a', 주문번호: 'b' } } })).text);
      out.push((await h.call('POST', '/v2/verifications', { to: '010-1234-5678' })).text);
      await h.sim.clock.advance({ seconds: 10 });
      out.push((await h.call('GET', h.acme('/messages'))).text);
      out.push((await h.call('GET', '/_sim/carrier/phones/01012345678', undefined, { key: null })).text);
      out.push((await h.call('GET', '/_sim/state', undefined, { key: null })).text);
      return out;
    };
    const x = await runOnce();
    expect(await runOnce()).toEqual(x);
  });
});
