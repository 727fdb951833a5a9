// Messages (docs/decisions.md "Messages"): sendMessage as the public API document shapes it, the type rules, the
// refusals (each leaving state unchanged), quotas on the virtual clock, ata templates and
// their fallback.
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { type H, FROM, CHANNEL, ORDER_TEMPLATE, SHIP_TEMPLATE, DORMANT_TEMPLATE, hangul, send, expectRefused, capture, tinyQuotaFixture } from './messages-helpers.ts';

describe('sendMessage', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('accepts an sms: 201, queued, numbers normalised, the public document\'s fields; sent 2 s later', async () => {
    const events = capture(h);
    const r = await send(h, { To: '+82 10-1234-5678', From: '070-1234-0001', Body: 'hello' });
    expect(r.status).toBe(201);
    expect(Object.keys(r.json).sort()).toEqual(
      ['accountId', 'body', 'dateCreated', 'dateUpdated', 'direction', 'from', 'mediaUrl', 'messageId', 'numMedia', 'status', 'subject', 'to', 'type'].sort(),
    );
    expect(r.json).toMatchObject({
      status: 'queued',
      type: 'sms',
      subject: null,
      to: '01012345678',
      from: FROM,
      body: 'hello',
      numMedia: 0,
      mediaUrl: [],
      direction: 'outbound',
      accountId: ACME.accountId,
      dateCreated: '2026-03-02T00:00:00.000Z',
      dateUpdated: null,
    });
    expect(r.json.messageId).toMatch(/^MG[0-9a-f]{32}$/);
    expect((await h.call('GET', h.acme(`/messages/${r.json.messageId}`))).json).toEqual(r.json);

    await h.sim.clock.advance({ seconds: 1.999 });
    expect((await h.call('GET', h.acme(`/messages/${r.json.messageId}`))).json.status).toBe('queued');
    expect(events).toEqual([]);
    await h.sim.clock.advance({ seconds: 0.001 });
    const sent = (await h.call('GET', h.acme(`/messages/${r.json.messageId}`))).json;
    expect(sent).toMatchObject({ status: 'sent', dateUpdated: '2026-03-02T00:00:02.000Z' });
    expect(events).toEqual([
      {
        type: 'message.sent',
        accountId: ACME.accountId,
        resourceId: r.json.messageId,
        at: Date.parse('2026-03-02T00:00:02.000Z'),
        payload: {
          MessageId: r.json.messageId,
          AccountId: ACME.accountId,
          From: FROM,
          To: '01012345678',
          Direction: 'outbound',
          Type: 'sms',
          Status: 'sent',
          Timestamp: '2026-03-02T00:00:02.000Z',
        },
      },
    ]);
  });

  it('chooses the type when Type is omitted: mms with images, lms with a subject or over 90 EUC-KR bytes, else sms', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ Body: 'a'.repeat(90) }, 'sms'],
      [{ Body: 'a'.repeat(91) }, 'lms'],
      [{ Body: hangul(45) }, 'sms'],
      [{ Body: hangul(45) + 'a' }, 'lms'],
      [{ Body: 'short', Subject: 'Notice' }, 'lms'],
      [{ Body: 'photo', MediaUrl: ['https://img.example/a.jpg'] }, 'mms'],
      [{ Body: 'photo', Subject: 'Look', MediaUrl: ['https://img.example/a.PNG'] }, 'mms'],
      [{ Body: 'empty subject is none', Subject: '' }, 'sms'],
    ];
    for (const [body, type] of cases) {
      const r = await send(h, body);
      expect(r.status, JSON.stringify(body)).toBe(201);
      expect(r.json.type, JSON.stringify(body)).toBe(type);
    }
  });

  it('keeps mms without images as mms (counted as mms) and echoes subject and images', async () => {
    const bare = await send(h, { Type: 'mms', Body: 'no picture' });
    expect(bare.json).toMatchObject({ type: 'mms', numMedia: 0, mediaUrl: [] });
    const full = await send(h, { Type: 'mms', Body: 'pics', Subject: 'Trip', MediaUrl: ['https://img.example/1.jpg', 'https://img.example/2.jpeg', 'https://img.example/3.bmp'] });
    const api = `http://localhost/v1/accounts/${ACME.accountId}/messages/${full.json.messageId}/media`;
    expect(full.json).toMatchObject({ type: 'mms', subject: 'Trip', numMedia: 3, mediaUrl: [`${api}/0`, `${api}/1`, `${api}/2`] });
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-quota`)).types.mms.used).toBe(2);
  });

  it('enforces the type limits with stable codes, changing nothing', async () => {
    const lms2000 = await send(h, { Type: 'lms', Body: hangul(2000) });
    expect(lms2000.status).toBe(201);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ Type: 'sms', Body: hangul(46) }, 400, 'body_too_long'],
      [{ Type: 'sms', Body: 'a'.repeat(91) }, 400, 'body_too_long'],
      [{ Type: 'lms', Body: hangul(2001) }, 400, 'body_too_long'],
      [{ Body: 'x'.repeat(2001) }, 400, 'body_too_long'],
      [{ Type: 'sms', Body: 'hi', Subject: 'S' }, 400, 'sms_no_subject'],
      [{ Type: 'sms', Body: 'hi', MediaUrl: ['https://img.example/a.jpg'] }, 400, 'sms_no_media'],
      [{ Type: 'lms', Body: 'hi', MediaUrl: ['https://img.example/a.jpg'] }, 400, 'lms_no_media'],
      [{ Body: 'hi', MediaUrl: ['https://img.example/a.gif'] }, 400, 'invalid_media_ext'],
      [{ Body: 'hi', MediaUrl: ['https://img.example/photo'] }, 400, 'invalid_media_ext'],
      [{ Body: 'hi', MediaUrl: ['ftp://img.example/a.jpg'] }, 400, 'media_download_failed'],
      [{ Body: 'hi', MediaUrl: ['https://img.example/1.jpg', 'https://img.example/2.jpg', 'https://img.example/3.jpg', 'https://img.example/4.jpg'] }, 400, 'VALIDATION'],
      [{ Body: 'hi', MediaUrl: ['not a url'] }, 400, 'VALIDATION'],
      [{}, 400, 'VALIDATION'],
      [{ Body: '' }, 400, 'invalid_input'],
      [{ Body: 'hi', Type: 'rcs' }, 400, 'VALIDATION'],
      [{ Body: 'hi', IdempotencyKey: '' }, 400, 'VALIDATION'],
      [{ Body: 'hi', body: 'camelCase is not the wire name' }, 400, 'VALIDATION'],
    ];
    for (const [body, status, code] of cases) await expectRefused(h, body, status, code);
    const tooLong = await expectRefused(h, { Type: 'sms', Body: hangul(46) }, 400, 'body_too_long');
    expect(tooLong.errors).toEqual([{ path: 'Body', message: expect.stringContaining('92') }]);
  });

  it('refuses bad numbers and a sender the account does not own', async () => {
    await expectRefused(h, { To: 'abc', Body: 'hi' }, 400, 'INVALID_PHONE_NUMBER');
    await expectRefused(h, { To: '1012345678', Body: 'hi' }, 400, 'INVALID_PHONE_NUMBER');
    await expectRefused(h, { To: '+1 212 555 0100', Body: 'hi' }, 400, 'UNSUPPORTED_COUNTRY');
    await expectRefused(h, { From: '+81 3 1234 5678', Body: 'hi' }, 400, 'UNSUPPORTED_COUNTRY');
    const other = await expectRefused(h, { From: '07012349001', Body: 'hi' }, 400, 'from_not_registered');
    expect(other.errors[0].path).toBe('From');
    await expectRefused(h, { From: '070-9999-9999', Body: 'hi' }, 400, 'from_not_registered');
    // A representative number the account owns can send; any spelling of an owned number works.
    expect((await send(h, { From: '1588-1234', Body: 'hi' })).json.from).toBe('15881234');
    expect((await send(h, { To: '1588-9999', Body: 'to a representative number' })).json.to).toBe('15889999');
  });

  it('recipient_blocked: an active message opt-out refuses; a call opt-out does not; released, it sends', async () => {
    // The fixture opts 010-5555-0101 out of messages.
    await expectRefused(h, { To: '+82 10-5555-0101', Body: 'hi' }, 422, 'recipient_blocked');
    await expectRefused(h, { To: '01055550101', Kakao: { ChannelId: CHANNEL, TemplateId: SHIP_TEMPLATE, Variables: { trackingNumber: '1', trackingUrl: 'u' } } }, 422, 'recipient_blocked');
    const call = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-7777-0001', channel: 'call' })).json;
    expect((await send(h, { To: '01077770001', Body: 'calls blocked, texts fine' })).status).toBe(201);
    // Another account's opt-out does not apply.
    expect((await send(h, { To: '01055550101', From: '07012349001', Body: 'bistro' }, BISTRO)).status).toBe(201);
    const entry = (await h.call('GET', h.acme('/blocked-recipients?number=01055550101'))).json.data[0];
    await h.call('DELETE', h.acme(`/blocked-recipients/${entry.id}`));
    expect((await send(h, { To: '01055550101', Body: 'released' })).status).toBe(201);
    expect(call.channel).toBe('call');
  });

  it('NO_SUBSCRIPTION (422) while the subscription is inactive or not yet started', async () => {
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    await expectRefused(h, { Body: 'hi' }, 422, 'NO_SUBSCRIPTION');
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'active', startedAt: '2026-03-05T00:00:00Z' } });
    await expectRefused(h, { Body: 'hi' }, 422, 'NO_SUBSCRIPTION');
    await h.sim.clock.advance({ to: '2026-03-05T00:00:00Z' });
    expect((await send(h, { Body: 'hi' })).status).toBe(201);
  });

  it('checks content (400) before numbers (400) before the account (422)', async () => {
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    await expectRefused(h, { To: 'bad', Type: 'sms', Body: hangul(50) }, 400, 'body_too_long');
    await expectRefused(h, { To: 'bad', Body: 'hi' }, 400, 'INVALID_PHONE_NUMBER');
    await expectRefused(h, { To: '01055550101', From: '07099999999', Body: 'hi' }, 400, 'from_not_registered');
    await expectRefused(h, { To: '01055550101', Body: 'hi' }, 422, 'NO_SUBSCRIPTION');
  });
});

describe('monthly quotas', () => {
  it('caps each type per UTC calendar month; queued counts, failed stops counting; next month works again', async () => {
    const h = harness({ fixture: tinyQuotaFixture() });
    expect((await send(h, { Body: 'one' })).status).toBe(201);
    // 010-0000-0400 always fails at the carrier.
    const doomed = await send(h, { To: '010-0000-0400', Body: 'two' });
    expect(doomed.status).toBe(201);
    const refused = await expectRefused(h, { Body: 'three' }, 422, 'quota_exceeded');
    expect(refused.error).toContain('2/2');
    // Other types have their own caps.
    expect((await send(h, { Body: 'long', Subject: 'S' })).json.type).toBe('lms');
    await expectRefused(h, { Body: 'long', Subject: 'S' }, 422, 'quota_exceeded');

    await h.sim.clock.advance({ seconds: 2 });
    expect((await h.call('GET', h.acme(`/messages/${doomed.json.messageId}`))).json.status).toBe('failed');
    expect((await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-quota`)).types.sms).toEqual({ used: 1, limit: 2, overage: false });
    expect((await send(h, { Body: 'three, now that two failed' })).status).toBe(201);
    await expectRefused(h, { Body: 'four' }, 422, 'quota_exceeded');

    await h.sim.clock.advance({ to: '2026-03-31T23:59:59.999Z' });
    await expectRefused(h, { Body: 'still March' }, 422, 'quota_exceeded');
    await h.sim.clock.advance({ to: '2026-04-01T00:00:00Z' });
    const april = await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-quota`);
    expect(april).toMatchObject({ month: '2026-04', types: { sms: { used: 0, limit: 2 } } });
    expect((await send(h, { Body: 'April' })).status).toBe(201);
  });

  it('an overage add-on lifts the cap of its type only; a cap of 0 is type_not_supported', async () => {
    const h = harness({ fixture: tinyQuotaFixture() });
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { addons: ['sms_overage'] });
    for (let i = 0; i < 4; i++) expect((await send(h, { Body: `n${i}` })).status).toBe(201);
    expect((await send(h, { Type: 'mms', Body: 'm' })).status).toBe(201);
    await expectRefused(h, { Type: 'mms', Body: 'm' }, 422, 'quota_exceeded');
    // Bistro's starter plan has no ata (cap 0).
    await h.sim.control.request('POST', `/accounts/${BISTRO.accountId}/kakao-templates`, { templateId: 'TPbistro', channelId: 'PFbistro', body: 'Table for #{n}' });
    const before = JSON.stringify(h.sim.snapshot());
    const r = await h.call('POST', h.bistro('/messages'), { To: '01012345678', From: '07012349001', Kakao: { ChannelId: 'PFbistro', TemplateId: 'TPbistro', Variables: { n: '2' } } }, { key: BISTRO.key });
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('type_not_supported');
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('plans on the control plane: PUT defines or replaces one, accounts on it follow at once; reset restores the fixture\'s', async () => {
    const h = harness();
    const tiny = { name: 'Tiny', lineLimit: 2, monthlyMessageQuota: { sms: 1, lms: 0, mms: 1, ata: 1 } };
    const made = await h.sim.handle({ method: 'PUT', url: '/_sim/plans/tiny', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tiny) });
    expect(made.status).toBe(201);
    expect(JSON.parse(made.body)).toEqual({ planId: 'tiny', ...tiny });
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { plan: 'tiny' });
    expect((await send(h, { Body: 'one' })).status).toBe(201);
    await expectRefused(h, { Body: 'two' }, 422, 'quota_exceeded');
    await expectRefused(h, { Body: 'long', Subject: 'S' }, 422, 'type_not_supported');
    // Raising the cap lets the next send through at once.
    const raised = await h.sim.handle({ method: 'PUT', url: '/_sim/plans/tiny', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...tiny, monthlyMessageQuota: { ...tiny.monthlyMessageQuota, sms: 2 } }) });
    expect(raised.status).toBe(200);
    expect((await send(h, { Body: 'two' })).status).toBe(201);
    const plans = await h.sim.control.request<{ data: { planId: string }[] }>('GET', '/plans');
    expect(plans.data.map((p) => p.planId)).toEqual(['business', 'starter', 'tiny']);
    // A bad key or body is refused and defines nothing.
    const bad = await h.sim.handle({ method: 'PUT', url: '/_sim/plans/Not-A-Key', headers: { 'content-type': 'application/json' }, body: JSON.stringify(tiny) });
    expect(bad.status).toBe(400);
    const partial = await h.sim.handle({ method: 'PUT', url: '/_sim/plans/other', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'x', lineLimit: 1 }) });
    expect(partial.status).toBe(400);
    await h.sim.control.reset();
    expect((await h.sim.control.request<{ data: { planId: string }[] }>('GET', '/plans')).data.map((p) => p.planId)).toEqual(['business', 'starter']);
  });
});

describe('ata (messenger notification templates)', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });
  const kakao = (Variables: Record<string, string> | undefined, TemplateId = ORDER_TEMPLATE) => ({ Kakao: { ChannelId: CHANNEL, TemplateId, Variables } });

  it('sends the approved template with its variables substituted; keys with or without #{}', async () => {
    const r = await send(h, kakao({ 고객명: '홍길동', '#{주문번호}': 'A-1024' }));
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ type: 'ata', body: '홍길동님, 주문 A-1024이 접수되었습니다.', subject: null, numMedia: 0 });
    const typed = await send(h, { Type: 'ata', ...kakao({ 고객명: 'Kim', 주문번호: '7' }) });
    expect(typed.json.type).toBe('ata');
    // A value that looks like a placeholder is not expanded again.
    expect((await send(h, kakao({ 고객명: '#{주문번호}', 주문번호: '9' }))).json.body).toBe('#{주문번호}님, 주문 9이 접수되었습니다.');
    // Variables of buttons (declared on the template) are required too but are not in the body.
    expect((await send(h, kakao({ trackingNumber: 'T1', trackingUrl: 'https://t.example/T1' }, SHIP_TEMPLATE))).json.body).toBe('Your parcel T1 is on its way.');
  });

  it('refuses bad template requests with the guides\' codes, changing nothing', async () => {
    await expectRefused(h, kakao({ 고객명: '홍길동' }), 400, 'kakao_variable_missing');
    await expectRefused(h, kakao({ 고객명: '홍길동', 주문번호: '' }), 400, 'kakao_variable_missing');
    await expectRefused(h, kakao(undefined), 400, 'kakao_variable_missing');
    await expectRefused(h, kakao({ trackingNumber: 'T1' }, SHIP_TEMPLATE), 400, 'kakao_variable_missing');
    const unknown = await expectRefused(h, kakao({ 고객명: 'a', 주문번호: 'b', 쿠폰: 'c' }), 400, 'kakao_variable_unknown');
    expect(unknown.errors).toEqual([{ path: 'Kakao.Variables.쿠폰', message: expect.any(String) }]);
    await expectRefused(h, kakao({ 고객명: 'a', '#{고객명}': 'b', 주문번호: 'c' }), 400, 'VALIDATION');
    await expectRefused(h, { Body: 'text', ...kakao({ 고객명: 'a', 주문번호: 'b' }) }, 400, 'kakao_body_not_allowed');
    await expectRefused(h, { Subject: 'S', ...kakao({ 고객명: 'a', 주문번호: 'b' }) }, 400, 'kakao_field_not_allowed');
    await expectRefused(h, { Type: 'sms', ...kakao({ 고객명: 'a', 주문번호: 'b' }) }, 400, 'kakao_type_mismatch');
    await expectRefused(h, { Type: 'ata', Body: 'no template' }, 400, 'kakao_type_mismatch');
    await expectRefused(h, { Body: 'text', Fallback: { Body: 'x' } }, 400, 'fallback_without_kakao');
    await expectRefused(h, kakao({}, 'KA01TPnosuchtemplate'), 400, 'kakao_template_not_found');
    await expectRefused(h, { Kakao: { ChannelId: 'KA01PFother', TemplateId: ORDER_TEMPLATE, Variables: { 고객명: 'a', 주문번호: 'b' } } }, 400, 'kakao_template_not_found');
    await expectRefused(h, { Kakao: { ChannelId: CHANNEL } }, 400, 'VALIDATION');
    await expectRefused(h, kakao({ date: 'Friday' }, DORMANT_TEMPLATE), 422, 'kakao_template_not_sendable');
    // Another account's template is unknown to this one.
    const r = await h.call('POST', h.bistro('/messages'), { To: '01012345678', From: '07012349001', ...kakao({ 고객명: 'a', 주문번호: 'b' }) }, { key: BISTRO.key });
    expect(r.json.code).toBe('kakao_template_not_found');
    await expectRefused(h, { ...kakao({ 고객명: 'a', 주문번호: 'b' }), Fallback: { Type: 'sms', Body: hangul(46) } }, 400, 'body_too_long');
    await expectRefused(h, { ...kakao({ 고객명: 'a', 주문번호: 'b' }), Fallback: { Type: 'sms', Subject: 'S' } }, 400, 'sms_no_subject');
  });

  it('templates added through the control plane can be sent; approval status decides', async () => {
    const t = await h.sim.control.request<any>('POST', `/accounts/${ACME.accountId}/kakao-templates`, { channelId: CHANNEL, body: 'Hi #{name}, code #{ref}', status: 'PENDING' });
    expect(t).toMatchObject({ channelId: CHANNEL, variables: ['name', 'ref'], status: 'PENDING', sendable: false });
    expect(t.templateId).toMatch(/^KA01TP[0-9a-f]{26}$/);
    await expectRefused(h, kakao({ name: 'A', ref: '1' }, t.templateId), 422, 'kakao_template_not_sendable');
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}/kakao-templates/${t.templateId}`, { status: 'APPROVED' });
    expect((await send(h, kakao({ name: 'A', ref: '1' }, t.templateId))).json.body).toBe('Hi A, code 1');
  });

  it('a failed ata message is followed by its fallback text, a separate message; Disabled sends none', async () => {
    const events = capture(h);
    // 010-0000-0410 is not a messenger user: ata fails, texts are delivered.
    const ata = await send(h, { To: '010-0000-0410', ...kakao({ 고객명: '홍길동', 주문번호: '1' }) });
    const custom = await send(h, { To: '010-0000-0410', ...kakao({ 고객명: 'Kim', 주문번호: '2' }), Fallback: { Body: 'Your order was received.', Subject: 'Order', Type: 'lms' } });
    const none = await send(h, { To: '010-0000-0410', ...kakao({ 고객명: 'Lee', 주문번호: '3' }), Fallback: { Disabled: true } });
    await h.sim.clock.advance({ seconds: 2 });
    const list = (await h.call('GET', h.acme('/messages?number=01000000410'))).json.data;
    expect(list.map((m: any) => [m.type, m.status, m.body])).toEqual([
      ['lms', 'queued', 'Your order was received.'],
      ['sms', 'queued', '홍길동님, 주문 1이 접수되었습니다.'],
      ['ata', 'failed', 'Lee님, 주문 3이 접수되었습니다.'],
      ['ata', 'failed', 'Kim님, 주문 2이 접수되었습니다.'],
      ['ata', 'failed', '홍길동님, 주문 1이 접수되었습니다.'],
    ]);
    expect(list[0].subject).toBe('Order');
    expect(list[0].dateCreated).toBe('2026-03-02T00:00:02.000Z');
    await h.sim.clock.advance({ seconds: 2 });
    const after = (await h.call('GET', h.acme('/messages?number=01000000410&status=sent'))).json.data;
    expect(after.map((m: any) => m.type)).toEqual(['lms', 'sms']);
    expect(events.map((e) => `${e.type}:${e.payload.Type}`)).toEqual([
      'message.failed:ata',
      'message.failed:ata',
      'message.failed:ata',
      'message.sent:sms',
      'message.sent:lms',
    ]);
    expect([ata, custom, none].every((r) => r.status === 201)).toBe(true);
    // The fallback counts against its own type, the failed ata against nothing.
    const usage = (await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-usage`)).data;
    expect(usage.map((u: any) => u.meter)).toEqual(['sms', 'lms']);
  });

  it('no fallback is sent when the account could not send it at that moment', async () => {
    const ata = await send(h, { To: '010-0000-0410', ...kakao({ 고객명: 'a', 주문번호: 'b' }) });
    await h.call('POST', h.acme('/blocked-recipients'), { number: '010-0000-0410', channel: 'message' });
    await h.sim.clock.advance({ seconds: 10 });
    const list = (await h.call('GET', h.acme('/messages?number=01000000410'))).json.data;
    expect(list.map((m: any) => m.messageId)).toEqual([ata.json.messageId]);
    expect(list[0].status).toBe('failed');
  });
});
