// Messenger channels as today's SDK names them (docs/compatibility.md): the connection's own id
// wherever a channel is named, the categories' meta, and the notification template list.
import { describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';

type H = ReturnType<typeof harness>;
const ACME_CHANNEL = 'KA01PFacme0000000000000001';
const MANAGER = '01077770001';
const SHIP_TEMPLATE = 'KA01TPacmeship0000000000001';

const api = (h: H, method: string, path: string, body?: unknown, who = ACME) =>
  h.call(method, `/v1/accounts/${who.accountId}/kakao${path}`, body, { key: who.key });

async function connect(h: H): Promise<{ id: string; channelId: string }> {
  await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
  const token = (await h.call('GET', `/_sim/messenger/tokens/${MANAGER}`, undefined, { key: null })).json.tokens[0].token;
  const r = await api(h, 'POST', '/channels', { searchId: 'acmelogistics', phoneNumber: MANAGER, categoryCode: '00300010001', token });
  expect(r.status).toBe(201);
  return r.json;
}

describe('a channel named by either id', () => {
  it('get and disconnect take the connection id as well as the messenger channel id; unknown either way is the same 404', async () => {
    const h = harness();
    const c = await connect(h);
    const byOwn = await api(h, 'GET', `/channels/${c.id}`);
    const byMessenger = await api(h, 'GET', `/channels/${ACME_CHANNEL}`);
    expect(byOwn.status).toBe(200);
    expect(byOwn.json).toEqual(byMessenger.json);
    const unknownOwn = await api(h, 'GET', '/channels/kch_000000000000000000000000');
    const unknownMessenger = await api(h, 'GET', '/channels/KA01PFnobody00000000000000');
    expect([unknownOwn.status, unknownOwn.json.code]).toEqual([404, 'kakao_channel_not_found']);
    expect([unknownMessenger.status, unknownMessenger.json.code]).toEqual([404, 'kakao_channel_not_found']);
    // Another account cannot reach the connection by its id.
    expect((await api(h, 'GET', `/channels/${c.id}`, undefined, BISTRO)).status).toBe(404);
    const gone = await api(h, 'DELETE', `/channels/${c.id}`);
    expect([gone.status, gone.json.id]).toEqual([200, c.id]);
    expect((await api(h, 'GET', `/channels/${c.id}`)).status).toBe(404);
  });

  it('a notification message takes the connection id as Kakao.ChannelId', async () => {
    const h = harness();
    const c = await connect(h);
    const body = (channelId: string) => ({
      From: '07012340001', To: '01012345678',
      Kakao: { ChannelId: channelId, TemplateId: SHIP_TEMPLATE, Variables: { trackingNumber: 'T9', trackingUrl: 'https://t.example/T9' } },
    });
    const byOwn = await h.call('POST', h.acme('/messages'), body(c.id));
    expect(byOwn.status).toBe(201);
    expect(byOwn.json).toMatchObject({ type: 'ata', body: 'Your parcel T9 is on its way.' });
    const byMessenger = await h.call('POST', h.acme('/messages'), body(ACME_CHANNEL));
    expect(byMessenger.status).toBe(201);
    // An id that names no connection is treated as a messenger channel id: the same refusal as any unknown channel.
    const unknownOwn = await h.call('POST', h.acme('/messages'), body('kch_000000000000000000000000'));
    const unknownMessenger = await h.call('POST', h.acme('/messages'), body('KA01PFnobody00000000000000'));
    expect([unknownOwn.status, unknownOwn.json.code]).toEqual([400, 'kakao_template_not_found']);
    expect([unknownMessenger.status, unknownMessenger.json.code]).toEqual([400, 'kakao_template_not_found']);
  });
});

describe('channel categories', () => {
  it('meta says when the list was fetched and that no cache answered', async () => {
    const h = harness();
    await h.sim.clock.advance({ seconds: 90 });
    const r = await api(h, 'GET', '/channel-categories');
    expect(r.status).toBe(200);
    expect(r.json.meta).toEqual({ fetchedAt: h.sim.clock.now(), cached: false });
    expect(r.json.data.length).toBeGreaterThan(0);
  });
});

describe('the notification template list', () => {
  it('lists the account\'s templates of a channel with sendable, by either channel id, paged; no channel is 400', async () => {
    const h = harness();
    const none = await api(h, 'GET', '/templates');
    expect([none.status, none.json.code, none.json.errors]).toEqual([400, 'VALIDATION', [{ path: 'channelId', message: 'is required' }]]);
    const all = await api(h, 'GET', `/templates?channelId=${ACME_CHANNEL}`);
    expect(all.status).toBe(200);
    expect(all.json.meta.total).toBe(3);
    const ship = all.json.data.find((t: any) => t.id === SHIP_TEMPLATE);
    expect(ship).toEqual({
      id: SHIP_TEMPLATE, channelId: ACME_CHANNEL, name: 'Shipped (with a tracking button)',
      content: 'Your parcel #{trackingNumber} is on its way.', status: 'APPROVED', dormant: false, sendable: true,
      assignType: 'CHANNEL', messageType: 'BA', emphasizeType: 'NONE', variables: ['trackingNumber', 'trackingUrl'],
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    expect(all.json.data.filter((t: any) => !t.sendable).map((t: any) => t.status)).not.toContain('APPROVED');
    // Connected, the templates show the connection id, and the filter takes either id.
    const c = await connect(h);
    const byOwn = await api(h, 'GET', `/templates?channelId=${c.id}&pageSize=2`);
    expect(byOwn.json.meta).toEqual({ page: 0, pageSize: 2, total: 3 });
    expect(byOwn.json.data.every((t: any) => t.channelId === c.id)).toBe(true);
    const byMessenger = await api(h, 'GET', `/templates?channelId=${ACME_CHANNEL}&pageSize=2`);
    expect(byMessenger.json).toEqual(byOwn.json);
    expect((await api(h, 'GET', '/templates?channelId=KA01PFother000000000000000')).json.meta.total).toBe(0);
    expect((await api(h, 'GET', `/templates?channelId=${ACME_CHANNEL}`, undefined, BISTRO)).json.meta.total).toBe(0);
  });
});
