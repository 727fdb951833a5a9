// Brand messages (type bms) as today's official SDK sends them (docs/compatibility.md): brand
// templates and free-form bubbles, uploaded brand images, the night rule in Korea time, and every
// refusal storing nothing and using no quota.
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACME, harness } from './helpers.ts';

type H = ReturnType<typeof harness>;
const CHANNEL = 'KA01PFacme0000000000000001';
const FROM = '07012340001';
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

const state = (h: H) => JSON.stringify(h.sim.snapshot());
const send = (h: H, body: Record<string, unknown>) => h.call('POST', h.acme('/messages'), { From: FROM, To: '01012345678', ...body });

async function plant(h: H, body: Record<string, unknown>) {
  const r = await h.sim.control.request<any>('POST', `/accounts/${ACME.accountId}/kakao-brand-templates`, { channelId: CHANNEL, ...body });
  return r;
}

async function upload(h: H, bytes: Uint8Array, fields: Record<string, string> = { bubbleType: 'IMAGE' }) {
  const form = new FormData();
  form.set('image', new Blob([bytes], { type: 'image/png' }), 'banner.png');
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  const res = await h.sim.fetch(`http://sim${h.acme('/kakao/brand-images')}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${ACME.key}` } });
  return { status: res.status, json: (await res.json()) as any };
}

describe('brand messages', () => {
  let h: H;
  beforeEach(async () => {
    h = harness();
    // 2026-03-02T00:00Z is 09:00 in Korea: daytime for brand messages.
  });

  it('sends from a brand template with its variables: type bms, listed by type, counted as bms usage', async () => {
    const t = await plant(h, { templateId: 'BTspring', name: 'Spring sale', content: '#{name}님, 봄 세일이 시작됐어요.' });
    expect(t).toMatchObject({ id: 'BTspring', chatBubbleType: 'TEXT', variables: ['name'], header: null });
    const listed = await h.call('GET', h.acme(`/kakao/brand-templates?channelId=${CHANNEL}`));
    expect(listed.json.data.map((x: any) => x.id)).toEqual(['BTspring']);
    const r = await send(h, { Brand: { ChannelId: CHANNEL, TemplateId: 'BTspring', Variables: { name: '김민지' } } });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ type: 'bms', status: 'queued', body: '김민지님, 봄 세일이 시작됐어요.', subject: null, numMedia: 0 });
    const byType = await h.call('GET', h.acme('/messages?type=bms'));
    expect(byType.json.data.map((m: any) => m.messageId)).toEqual([r.json.messageId]);
    await h.sim.clock.advance({ seconds: 60 });
    expect((await h.call('GET', h.acme(`/messages/${r.json.messageId}`))).json.status).toBe('sent');
    const usage = await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/message-usage`);
    expect(usage.data.filter((u: any) => u.meter === 'bms').map((u: any) => u.messageId)).toEqual([r.json.messageId]);
    const missing = await send(h, { Brand: { ChannelId: CHANNEL, TemplateId: 'BTspring' } });
    expect([missing.status, missing.json.code, missing.json.errors[0].path]).toEqual([400, 'kakao_variable_missing', 'Brand.Variables.name']);
  });

  it('sends a free-form bubble: TEXT with content, IMAGE with an uploaded image', async () => {
    const text = await send(h, { Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'TEXT', content: '오늘만 무료 배송' } } });
    expect([text.status, text.json.type, text.json.body]).toEqual([201, 'bms', '오늘만 무료 배송']);
    const image = await upload(h, PNG, { bubbleType: 'IMAGE', slot: 'main' });
    expect(image.status).toBe(201);
    expect(image.json).toEqual({ id: expect.stringMatching(/^bimg_[0-9a-f]{24}$/), bubbleType: 'IMAGE', slot: 'main', name: 'banner.png', contentType: 'image/png', size: PNG.length, createdAt: h.sim.clock.now() });
    const sent = await send(h, { Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'IMAGE', imageId: image.json.id } } });
    expect([sent.status, sent.json.type, sent.json.body]).toEqual([201, 'bms', null]);
    const images = await h.call('GET', h.acme('/kakao/brand-images'));
    expect(images.json).toEqual({ data: [image.json], meta: { page: 0, pageSize: 20, total: 1 } });
  });

  it('lists images in the shape today\'s SDK parses: slot a string (main by default), name the file name', async () => {
    // The SDK's list item: id, bubbleType, slot (string), name (string or null), createdAt; more fields pass through.
    const SdkBrandImage = z.looseObject({ id: z.string(), bubbleType: z.string(), slot: z.string(), name: z.string().nullable(), createdAt: z.string() });
    await upload(h, PNG, { bubbleType: 'WIDE' });
    await upload(h, PNG, { bubbleType: 'WIDE_ITEM_LIST', slot: 'sub' });
    const listed = await h.call('GET', h.acme('/kakao/brand-images'));
    const items = listed.json.data.map((item: unknown) => SdkBrandImage.parse(item));
    expect(items.map((i: { slot: string; name: string | null }) => [i.slot, i.name])).toEqual([['sub', 'banner.png'], ['main', 'banner.png']]);
  });

  it('refuses, storing nothing and using no quota', async () => {
    await plant(h, { templateId: 'BTplain', content: 'hello' });
    const before = state(h);
    const brand = { ChannelId: CHANNEL, TemplateId: 'BTplain' };
    const cases: [Record<string, unknown>, number, string, string][] = [
      [{ Brand: brand, Fallback: { Body: 'x' } }, 400, 'kakao_fallback_not_allowed', 'Fallback'],
      [{ Brand: brand, Body: 'x' }, 400, 'kakao_field_not_allowed', 'Body'],
      [{ Brand: brand, Subject: 'x' }, 400, 'kakao_field_not_allowed', 'Subject'],
      [{ Brand: brand, MediaUrl: ['https://img.example/a.png'] }, 400, 'kakao_field_not_allowed', 'MediaUrl'],
      [{ Brand: brand, Kakao: { ChannelId: CHANNEL, TemplateId: 'KA01TPacmeorder000000000001' } }, 400, 'kakao_field_not_allowed', 'Kakao'],
      [{ Brand: { ...brand, Free: { chatBubbleType: 'TEXT', content: 'x' } } }, 400, 'VALIDATION', 'Brand'],
      [{ Brand: { ChannelId: CHANNEL } }, 400, 'VALIDATION', 'Brand'],
      [{ Brand: { ChannelId: CHANNEL, TemplateId: 'BTnone' } }, 400, 'kakao_brand_template_not_found', 'Brand.TemplateId'],
      [{ Brand: { ChannelId: 'KA01PFother000000000000000', TemplateId: 'BTplain' } }, 400, 'kakao_brand_template_not_found', 'Brand.TemplateId'],
      [{ Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'TEXT', content: '  ' } } }, 400, 'kakao_brand_body_empty', 'Brand.Free.content'],
      [{ Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'IMAGE' } } }, 400, 'kakao_brand_image_not_found', 'Brand.Free.imageId'],
      [{ Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'IMAGE', imageId: 'bimg_000000000000000000000000' } } }, 400, 'kakao_brand_image_not_found', 'Brand.Free.imageId'],
      [{ Type: 'bms', Body: 'x' }, 400, 'kakao_brand_required', 'Brand'],
      [{ Type: 'sms', Brand: brand }, 400, 'kakao_type_mismatch', 'Type'],
    ];
    for (const [body, status, code, path] of cases) {
      const r = await send(h, body);
      expect([r.status, r.json.code, r.json.errors?.[0]?.path], JSON.stringify(body)).toEqual([status, code, path]);
    }
    expect(state(h)).toBe(before);
  });

  it('is refused from 20:50 to 08:00 Korea time, with nothing stored', async () => {
    const body = { Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'TEXT', content: 'night test' } } };
    await h.sim.clock.advance({ to: '2026-03-02T11:49:59Z' }); // 20:49:59 KST
    expect((await send(h, body)).status).toBe(201);
    await h.sim.clock.advance({ to: '2026-03-02T11:50:00Z' }); // 20:50 KST
    const before = state(h);
    const night = await send(h, body);
    expect([night.status, night.json.code]).toEqual([422, 'kakao_brand_night_blocked']);
    expect(state(h)).toBe(before);
    await h.sim.clock.advance({ to: '2026-03-02T22:59:59Z' }); // 07:59:59 KST the next day
    expect((await send(h, body)).status).toBe(422);
    // Other types are not affected by the brand night.
    expect((await send(h, { Body: 'an sms at night' })).status).toBe(201);
    await h.sim.clock.advance({ to: '2026-03-02T23:00:00Z' }); // 08:00 KST
    expect((await send(h, body)).status).toBe(201);
  });

  it('a plan without a bms cap uses its ata cap: the Starter plan (ata 0) does not offer brand messages', async () => {
    const bistro = await h.call(
      'POST',
      '/v1/accounts/AC5e6f7a8b/messages',
      { From: '07012349001', To: '01012345678', Brand: { ChannelId: CHANNEL, Free: { chatBubbleType: 'TEXT', content: 'hi' } } },
      { key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' },
    );
    expect([bistro.status, bistro.json.code]).toEqual([422, 'type_not_supported']);
  });

  it('takes the connection id as Brand.ChannelId and shows it in the brand template list', async () => {
    await plant(h, { templateId: 'BTconn', content: 'via connection id' });
    await h.call('POST', h.acme('/kakao/channels/token'), { searchId: 'acmelogistics', phoneNumber: '01077770001' });
    const token = (await h.call('GET', '/_sim/messenger/tokens/01077770001', undefined, { key: null })).json.tokens[0].token;
    const c = (await h.call('POST', h.acme('/kakao/channels'), { searchId: 'acmelogistics', phoneNumber: '01077770001', categoryCode: '00300010001', token })).json;
    const listed = await h.call('GET', h.acme(`/kakao/brand-templates?channelId=${c.id}`));
    expect(listed.json.data).toEqual([expect.objectContaining({ id: 'BTconn', channelId: c.id })]);
    expect((await send(h, { Brand: { ChannelId: c.id, TemplateId: 'BTconn' } })).status).toBe(201);
    expect((await h.call('GET', h.acme('/kakao/brand-templates'))).status).toBe(400);
  });
});

describe('brand image uploads', () => {
  it('refuses what is not a JPEG or PNG, too large, or not a proper form, and stores nothing', async () => {
    const h = harness();
    const before = state(h);
    const gif = new TextEncoder().encode('GIF89a....');
    expect(await upload(h, gif)).toMatchObject({ status: 400, json: { code: 'kakao_brand_image_invalid' } });
    expect(await upload(h, new Uint8Array(0))).toMatchObject({ status: 400, json: { code: 'kakao_brand_image_invalid' } });
    const big = new Uint8Array(500 * 1024 + 1);
    big.set(PNG);
    expect(await upload(h, big)).toMatchObject({ status: 413, json: { code: 'kakao_brand_image_too_large' } });
    expect(await upload(h, PNG, {})).toMatchObject({ status: 400, json: { code: 'kakao_brand_image_invalid', errors: [{ path: 'bubbleType' }] } });
    expect(await upload(h, PNG, { bubbleType: 'TEXT' })).toMatchObject({ status: 400, json: { code: 'kakao_brand_image_invalid', errors: [{ path: 'bubbleType' }] } });
    expect(await upload(h, PNG, { bubbleType: 'WIDE', slot: 'side' })).toMatchObject({ status: 400, json: { code: 'kakao_brand_image_invalid', errors: [{ path: 'slot' }] } });
    const json = await h.call('POST', h.acme('/kakao/brand-images'), { image: 'x' });
    expect([json.status, json.json.code]).toEqual([400, 'kakao_brand_image_invalid']);
    const broken = await h.call('POST', h.acme('/kakao/brand-images'), undefined, { headers: { 'content-type': 'multipart/form-data; boundary=zz' }, rawBody: '--zz\r\nnonsense' });
    expect([broken.status, broken.json.code]).toEqual([400, 'kakao_brand_image_invalid']);
    expect(state(h)).toBe(before);
  });
});
