// Messenger channel connections against the fake messenger: the token sent to a manager's phone,
// connect (201, idempotent 200, 409 for another account, 422 for a bad token), the stored list
// and the checked get, disconnect with its templates, and the provider failing.
import { describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';

type H = ReturnType<typeof harness>;
const ACME_CHANNEL = 'KA01PFacme0000000000000001';
const MANAGER = '01077770001';
const CATEGORY = '00300010001';

const api = (h: H, method: string, path: string, body?: unknown, who = ACME) =>
  h.call(method, `/v1/accounts/${who.accountId}/kakao${path}`, body, { key: who.key });
const tokens = async (h: H, phone = MANAGER) => (await h.call('GET', `/_sim/messenger/tokens/${phone}`, undefined, { key: null })).json.tokens;
const snapshot = (h: H) => JSON.stringify(h.sim.snapshot());

async function connect(h: H, who = ACME, searchId = 'acmelogistics', phone = MANAGER) {
  expect((await api(h, 'POST', '/channels/token', { searchId, phoneNumber: phone }, who)).status).toBe(202);
  const token = (await tokens(h, phone))[0].token;
  return api(h, 'POST', '/channels', { searchId, phoneNumber: phone, categoryCode: CATEGORY, token }, who);
}

describe('connecting a channel', () => {
  it('sends a token only to the manager\'s phone (202, never in the response) and connects with it (201)', async () => {
    const h = harness();
    const asked = await api(h, 'POST', '/channels/token', { searchId: '@AcmeLogistics', phoneNumber: '+82 10-7777-0001' });
    expect([asked.status, asked.json]).toEqual([202, { requested: true, searchId: 'acmelogistics', phoneNumberMasked: '010-****-0001', retryAfterSeconds: 60 }]);
    const [sent] = await tokens(h);
    expect(sent).toMatchObject({ searchId: 'acmelogistics', phoneNumber: MANAGER, sentAt: '2026-03-02T00:00:00.000Z', expiresAt: '2026-03-02T00:05:00.000Z', usedAt: null });
    expect(sent.token).toMatch(/^\d{6}$/);
    expect(asked.text).not.toContain(sent.token);
    const r = await api(h, 'POST', '/channels', { searchId: 'acmelogistics', phoneNumber: '010-7777-0001', categoryCode: CATEGORY, token: sent.token });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      id: expect.stringMatching(/^kch_[0-9a-f]{24}$/), channelId: ACME_CHANNEL, searchId: 'acmelogistics', name: 'Acme Logistics', categoryCode: CATEGORY,
      status: 'connected', managerPhoneMasked: '010-****-0001',
      connectedAt: '2026-03-02T00:00:00.000Z', syncedAt: '2026-03-02T00:00:00.000Z', createdAt: '2026-03-02T00:00:00.000Z', updatedAt: '2026-03-02T00:00:00.000Z',
    });
    expect((await tokens(h))[0].usedAt).toBe('2026-03-02T00:00:00.000Z');
    // Idempotent: connecting again answers 200 with the same connection and uses no token.
    const again = await api(h, 'POST', '/channels', { searchId: 'acmelogistics', phoneNumber: MANAGER, categoryCode: CATEGORY, token: 'anything' });
    expect([again.status, again.json.id]).toEqual([200, r.json.id]);
  });

  it('refuses an unknown channel, a phone that is not a manager, a token asked again too soon, and changes nothing', async () => {
    const h = harness();
    const before = snapshot(h);
    for (const [body, status, code] of [
      [{ searchId: 'nosuchchannel', phoneNumber: MANAGER }, 400, 'KAKAO_CHANNEL_NOT_FOUND'],
      [{ searchId: 'acmelogistics', phoneNumber: '010-1234-5678' }, 400, 'KAKAO_MANAGER_NOT_REGISTERED'],
      [{ searchId: 'bad id!', phoneNumber: MANAGER }, 400, 'VALIDATION'],
      [{ searchId: 'acmelogistics', phoneNumber: 'nope' }, 400, 'INVALID_PHONE_NUMBER'],
      [{ searchId: 'acmelogistics' }, 400, 'VALIDATION'],
    ] as const) {
      const r = await api(h, 'POST', '/channels/token', body);
      expect([r.status, r.json.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect(snapshot(h)).toBe(before);
    await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
    await h.sim.clock.advance({ seconds: 45 });
    const soon = await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
    expect([soon.status, soon.json.code, soon.json.retryAfterSeconds]).toEqual([429, 'KAKAO_RATE_LIMITED', 15]);
    await h.sim.clock.advance({ seconds: 15 });
    expect((await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER })).status).toBe(202);
    expect(await tokens(h)).toHaveLength(2);
  });

  it('a wrong, expired or superseded token is 422; an unknown category 400; nothing is connected', async () => {
    const h = harness();
    await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
    const first = (await tokens(h))[0].token;
    const body = (token: string, categoryCode = CATEGORY) => ({ searchId: 'acmelogistics', phoneNumber: MANAGER, categoryCode, token });
    const wrong = first === '000000' ? '000001' : '000000';
    expect((await api(h, 'POST', '/channels', body(wrong))).json.code).toBe('KAKAO_TOKEN_INVALID');
    expect((await api(h, 'POST', '/channels', body(first, '999'))).json.code).toBe('KAKAO_CATEGORY_NOT_FOUND');
    await h.sim.clock.advance({ seconds: 300 });
    const expired = await api(h, 'POST', '/channels', body(first));
    expect([expired.status, expired.json.code]).toEqual([422, 'KAKAO_TOKEN_INVALID']);
    await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
    await h.sim.clock.advance({ seconds: 60 });
    await api(h, 'POST', '/channels/token', { searchId: 'acmelogistics', phoneNumber: MANAGER });
    const [newest, older] = await tokens(h);
    if (older.token !== newest.token) expect((await api(h, 'POST', '/channels', body(older.token))).json.code).toBe('KAKAO_TOKEN_INVALID');
    expect((await api(h, 'GET', '/channels')).json.meta.total).toBe(0);
    expect((await api(h, 'POST', '/channels', body(newest.token))).status).toBe(201);
  });

  it('a channel connected to one account is 409 for another, until it is disconnected', async () => {
    const h = harness();
    expect((await connect(h)).status).toBe(201);
    await h.sim.clock.advance({ seconds: 60 });
    const other = await connect(h, BISTRO);
    expect([other.status, other.json.code]).toEqual([409, 'KAKAO_CHANNEL_ALREADY_LINKED']);
    expect((await api(h, 'DELETE', `/channels/${ACME_CHANNEL}`)).status).toBe(200);
    await h.sim.clock.advance({ seconds: 60 });
    expect((await connect(h, BISTRO)).status).toBe(201);
    expect((await api(h, 'GET', '/channels', undefined, BISTRO)).json.data.map((c: any) => c.channelId)).toEqual([ACME_CHANNEL]);
    expect((await api(h, 'GET', '/channels')).json.data).toEqual([]);
  });
});

describe('reading and disconnecting', () => {
  it('the list is stored state; get checks the messenger: gone or failing is needs_attention, found again is connected', async () => {
    const h = harness();
    await connect(h);
    await h.sim.clock.advance({ seconds: 600 });
    await h.call('DELETE', '/_sim/messenger/channels/acmelogistics', undefined, { key: null });
    expect((await api(h, 'GET', '/channels')).json.data[0].status).toBe('connected');
    const checked = await api(h, 'GET', `/channels/${ACME_CHANNEL}`);
    expect(checked.json).toMatchObject({ status: 'needs_attention', syncedAt: '2026-03-02T00:10:00.000Z', updatedAt: '2026-03-02T00:10:00.000Z' });
    expect((await api(h, 'GET', '/channels?status=needs_attention')).json.meta.total).toBe(1);
    expect((await api(h, 'GET', '/channels?status=connected')).json.meta.total).toBe(0);
    await h.call('PUT', '/_sim/messenger/channels/acmelogistics', { channelId: ACME_CHANNEL, name: 'Acme Logistics', managers: [MANAGER] }, { key: null });
    expect((await api(h, 'GET', `/channels/${ACME_CHANNEL}`)).json.status).toBe('connected');
    await h.call('PUT', '/_sim/messenger/failure', { mode: 'outage' }, { key: null });
    expect((await api(h, 'GET', `/channels/${ACME_CHANNEL}`)).json.status).toBe('needs_attention');
    expect((await api(h, 'GET', '/channels/KA01PFnosuch')).json.code).toBe('kakao_channel_not_found');
    expect((await h.call('GET', h.acme(`/kakao/channels/${ACME_CHANNEL}`), undefined, { key: BISTRO.key })).status).toBe(403);
    expect((await api(h, 'GET', `/channels/${ACME_CHANNEL}`, undefined, BISTRO)).json.code).toBe('kakao_channel_not_found');
  });

  it('disconnecting returns the channel and deletes the account\'s templates on it; again is 404', async () => {
    const h = harness();
    const c = await connect(h);
    const listTemplates = async () => (await h.sim.control.request<any>('GET', `/accounts/${ACME.accountId}/kakao-templates`)).data;
    expect((await listTemplates()).length).toBe(3);
    const gone = await api(h, 'DELETE', `/channels/${ACME_CHANNEL}`);
    expect([gone.status, gone.json]).toEqual([200, c.json]);
    expect(await listTemplates()).toEqual([]);
    expect((await api(h, 'DELETE', `/channels/${ACME_CHANNEL}`)).json.code).toBe('kakao_channel_not_found');
  });

  it('while the messenger fails nothing changes: 503 or 429, categories included', async () => {
    const h = harness();
    await connect(h);
    await h.sim.clock.advance({ seconds: 60 });
    for (const [mode, status, code] of [['outage', 503, 'KAKAO_PROVIDER_UNAVAILABLE'], ['rate_limited', 429, 'KAKAO_RATE_LIMITED']] as const) {
      await h.call('PUT', '/_sim/messenger/failure', { mode }, { key: null });
      const before = snapshot(h);
      for (const [method, path, body] of [
        ['GET', '/channel-categories', undefined],
        ['POST', '/channels/token', { searchId: 'bistroseoul', phoneNumber: '01077770002' }],
        ['DELETE', `/channels/${ACME_CHANNEL}`, undefined],
      ] as const) {
        const r = await api(h, method, path, body);
        expect([r.status, r.json.code], `${mode} ${method} ${path}`).toEqual([status, code]);
      }
      expect(snapshot(h)).toBe(before);
    }
    await h.call('PUT', '/_sim/messenger/failure', { mode: 'none' }, { key: null });
    const cats = await api(h, 'GET', '/channel-categories');
    expect(cats.json.data).toContainEqual({ code: CATEGORY, name: 'Logistics / Delivery' });
    expect(cats.json.meta).toEqual({ fetchedAt: h.sim.clock.now(), cached: false });
  });

  it('connections and the messenger survive snapshot and restore; reset goes back to the fixture', async () => {
    const h = harness();
    await connect(h);
    const snap = h.sim.snapshot();
    const other = harness();
    other.sim.restore(snap);
    expect((await api(other, 'GET', '/channels')).json.meta.total).toBe(1);
    expect(await tokens(other)).toHaveLength(1);
    await other.call('POST', '/_sim/reset', {}, { key: null });
    expect((await api(other, 'GET', '/channels')).json.meta.total).toBe(0);
    expect((await other.call('GET', '/_sim/messenger', undefined, { key: null })).json.channels.map((c: any) => c.searchId)).toEqual(['acmelogistics', 'bistroseoul']);
  });
});
