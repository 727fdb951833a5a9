import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';

type H = ReturnType<typeof harness>;

describe('blocked recipients', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('registers with 201, normalises the number, and answers 200 with the same entry when already active', async () => {
    const first = await h.call('POST', h.acme('/blocked-recipients'), { number: '+82 10-2222-3333', channel: 'message', note: 'asked by phone' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({
      number: '01022223333',
      channel: 'message',
      active: true,
      source: 'api',
      sourceRef: null,
      note: 'asked by phone',
      createdBy: null,
      unblockedAt: null,
      unblockedSource: null,
      unblockedBy: null,
      unblockedNote: null,
    });
    expect(first.json.createdAt).toBe(h.sim.clock.now());
    const again = await h.call('POST', h.acme('/blocked-recipients'), { number: '010 2222 3333', channel: 'message', note: 'other note' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(first.json);
    const otherChannel = await h.call('POST', h.acme('/blocked-recipients'), { number: '01022223333', channel: 'call' });
    expect(otherChannel.status).toBe(201);
    expect(otherChannel.json.id).not.toBe(first.json.id);
  });

  it('keeps released entries as history and filters by status, channel and number', async () => {
    const a = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call' })).json;
    await h.sim.clock.advance({ seconds: 60 });
    const b = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0002', channel: 'message' })).json;
    await h.sim.clock.advance({ seconds: 60 });
    const released = await h.call('DELETE', h.acme(`/blocked-recipients/${a.id}`), { note: 'consented again' });
    expect(released.status).toBe(200);
    expect(released.json).toMatchObject({ id: a.id, active: false, unblockedSource: 'api', unblockedBy: null, unblockedNote: 'consented again' });
    expect(released.json.unblockedAt).toBe(h.sim.clock.now());
    expect(released.json.updatedAt).toBe(h.sim.clock.now());

    const active = (await h.call('GET', h.acme('/blocked-recipients'))).json;
    // The fixture holds one active opt-out (01055550101) for ACME.
    expect(active.data.map((r: any) => r.number)).toEqual(['01011110002', '01055550101']);
    expect(active.meta).toEqual({ page: 0, pageSize: 20, total: 2 });
    const rel = (await h.call('GET', h.acme('/blocked-recipients?status=released'))).json;
    expect(rel.data.map((r: any) => r.id)).toEqual([a.id]);
    const all = (await h.call('GET', h.acme('/blocked-recipients?status=all'))).json;
    expect(all.data.map((r: any) => r.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect(all.meta.total).toBe(3);
    const byChannel = (await h.call('GET', h.acme('/blocked-recipients?status=all&channel=call'))).json;
    expect(byChannel.data.map((r: any) => r.id)).toEqual([a.id]);
    const byNumber = (await h.call('GET', h.acme('/blocked-recipients?status=all&number=%2B82%2010-1111-0002'))).json;
    expect(byNumber.data.map((r: any) => r.id)).toEqual([b.id]);
    const got = await h.call('GET', h.acme(`/blocked-recipients/${a.id}`));
    expect(got.json.active).toBe(false);
  });

  it('releasing again succeeds and keeps the first release', async () => {
    const a = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call' })).json;
    const first = (await h.call('DELETE', h.acme(`/blocked-recipients/${a.id}`), { note: 'first' })).json;
    await h.sim.clock.advance({ seconds: 3600 });
    const second = await h.call('DELETE', h.acme(`/blocked-recipients/${a.id}`), { note: 'second' });
    expect(second.status).toBe(200);
    expect(second.json).toEqual(first);
  });

  it('a released pair can be registered again as a new entry', async () => {
    const a = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call' })).json;
    await h.call('DELETE', h.acme(`/blocked-recipients/${a.id}`));
    const again = await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call' });
    expect(again.status).toBe(201);
    expect(again.json.id).not.toBe(a.id);
    expect(runtimeOf(h.sim).blockLists.isRecipientBlocked(ACME.accountId, '01011110001', 'call')).toBe(true);
  });

  it('PATCH: null or "" clears the note, omitted leaves it, number and channel cannot change', async () => {
    const a = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call', note: 'keep' })).json;
    const url = h.acme(`/blocked-recipients/${a.id}`);
    expect((await h.call('PATCH', url, {})).json.note).toBe('keep');
    expect((await h.call('PATCH', url, undefined)).json.note).toBe('keep');
    expect((await h.call('PATCH', url, { note: 'changed' })).json.note).toBe('changed');
    expect((await h.call('PATCH', url, { note: '' })).json.note).toBeNull();
    await h.call('PATCH', url, { note: 'again' });
    expect((await h.call('PATCH', url, { note: null })).json.note).toBeNull();
    for (const body of [{ number: '01099998888' }, { channel: 'message' }, { number: '01099998888', note: 'x' }]) {
      const r = await h.call('PATCH', url, body);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('IMMUTABLE_FIELD');
    }
    const stored = (await h.call('GET', url)).json;
    expect(stored).toMatchObject({ number: '01011110001', channel: 'call', note: null });
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const before = JSON.stringify(h.sim.snapshot());
    const cases: [unknown, string][] = [
      [{ number: '010-1111-0001' }, 'VALIDATION'],
      [{ number: '010-1111-0001', channel: 'sms' }, 'VALIDATION'],
      [{ number: 1012345678, channel: 'call' }, 'VALIDATION'],
      [{ number: '12345', channel: 'call' }, 'INVALID_PHONE_NUMBER'],
      [{ number: '+1 415 555 0100', channel: 'call' }, 'UNSUPPORTED_COUNTRY'],
      [{ number: '01011110001', channel: 'call', source: 'agent' }, 'VALIDATION'],
      [{ number: '01011110001', channel: 'call', source: 'ars' }, 'VALIDATION'],
      [{ number: '01011110001', channel: 'call', note: 'x'.repeat(501) }, 'VALIDATION'],
      [{ number: '01011110001', channel: 'call', extra: true }, 'VALIDATION'],
      [['01011110001'], 'VALIDATION'],
      [null, 'VALIDATION'],
    ];
    for (const [body, code] of cases) {
      const r = await h.call('POST', h.acme('/blocked-recipients'), body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code, JSON.stringify(body)).toBe(code);
      expect(typeof r.json.error).toBe('string');
    }
    const noBody = await h.call('POST', h.acme('/blocked-recipients'), undefined);
    expect(noBody.status).toBe(400);
    const badJson = await h.call('POST', h.acme('/blocked-recipients'), undefined, { rawBody: '{"number": "0101' });
    expect(badJson.status).toBe(400);
    expect(badJson.json.code).toBe('INVALID_JSON');
    const badFilter = await h.call('GET', h.acme('/blocked-recipients?number=abc'));
    expect(badFilter.status).toBe(400);
    expect(badFilter.json.code).toBe('INVALID_PHONE_NUMBER');
    expect((await h.call('GET', h.acme('/blocked-recipients?status=gone'))).status).toBe(400);
    expect((await h.call('GET', h.acme('/blocked-recipients?channel=sms'))).status).toBe(400);
    expect(JSON.stringify(h.sim.snapshot())).toBe(before);
  });

  it('entries are private to their account', async () => {
    const a = (await h.call('POST', h.acme('/blocked-recipients'), { number: '010-1111-0001', channel: 'call' })).json;
    const asBistro = await h.call('GET', h.bistro(`/blocked-recipients/${a.id}`), undefined, { key: BISTRO.key });
    expect(asBistro.status).toBe(404);
    expect(asBistro.json.code).toBe('blocked_recipient_not_found');
    const list = (await h.call('GET', h.bistro('/blocked-recipients?status=all'), undefined, { key: BISTRO.key })).json;
    expect(list.meta.total).toBe(0);
    expect((await h.call('DELETE', h.bistro(`/blocked-recipients/${a.id}`), undefined, { key: BISTRO.key })).status).toBe(404);
    expect((await h.call('GET', h.acme('/blocked-recipients/blk_nope'))).status).toBe(404);
  });
});

describe('blocked callers', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('create, list newest first, get, release keeps history', async () => {
    const first = await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567', note: 'spam' });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ number: '021234567', active: true, source: 'api', createdBy: null, note: 'spam' });
    expect('channel' in first.json).toBe(false);
    expect('sourceRef' in first.json).toBe(false);
    await h.sim.clock.advance({ seconds: 1 });
    const second = (await h.call('POST', h.acme('/blocked-callers'), { number: '031-123-4567' })).json;
    expect(second.note).toBeNull();
    expect((await h.call('POST', h.acme('/blocked-callers'), { number: '+82 2 123 4567' })).status).toBe(200);

    const list = (await h.call('GET', h.acme('/blocked-callers'))).json;
    expect(list.data.map((r: any) => r.number)).toEqual(['0311234567', '021234567', '01099990001']);
    expect(list.meta.total).toBe(3);

    const rel = await h.call('DELETE', h.acme(`/blocked-callers/${first.json.id}`), undefined);
    expect(rel.status).toBe(200);
    expect(rel.json).toMatchObject({ active: false, unblockedSource: 'api', unblockedBy: null, unblockedNote: null });
    expect((await h.call('GET', h.acme(`/blocked-callers/${first.json.id}`))).json.active).toBe(false);
    expect((await h.call('GET', h.acme('/blocked-callers'))).json.meta.total).toBe(2);
    expect((await h.call('GET', h.acme('/blocked-callers?status=released'))).json.data.map((r: any) => r.id)).toEqual([first.json.id]);
    expect((await h.call('GET', h.acme('/blocked-callers?number=021234567&status=all'))).json.meta.total).toBe(1);
    expect(runtimeOf(h.sim).blockLists.isCallerBlocked(ACME.accountId, '021234567')).toBe(false);
    expect(runtimeOf(h.sim).blockLists.isCallerBlocked(ACME.accountId, '0311234567')).toBe(true);
  });

  it('control-plane intake records source and createdBy; release records the releasing path', async () => {
    const r = await h.call('POST', `/_sim/accounts/${ACME.accountId}/blocked-callers`, { number: '010-3333-4444', source: 'mcp', createdBy: 'user_42' }, { key: null });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ source: 'mcp', createdBy: 'user_42' });
    const rel = await h.call('POST', `/_sim/accounts/${ACME.accountId}/blocked-callers/${r.json.id}/release`, { source: 'console', by: 'user_7', note: 'ok' }, { key: null });
    expect(rel.json).toMatchObject({ active: false, unblockedSource: 'console', unblockedBy: 'user_7', unblockedNote: 'ok' });
    const bad = await h.call('POST', `/_sim/accounts/${ACME.accountId}/blocked-callers/${r.json.id}/release`, { source: 'ars' }, { key: null });
    expect(bad.status).toBe(400);
    const rec = await h.call('POST', `/_sim/accounts/${ACME.accountId}/blocked-recipients`, { number: '010-3333-4444', channel: 'call', source: 'agent', sourceRef: 'CA123' }, { key: null });
    expect(rec.json).toMatchObject({ source: 'agent', sourceRef: 'CA123', createdBy: null });
  });

  it('has no PATCH and refuses unknown fields', async () => {
    const a = (await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567' })).json;
    const patch = await h.call('PATCH', h.acme(`/blocked-callers/${a.id}`), { note: 'x' });
    expect(patch.status).toBe(405);
    expect(patch.headers.allow).toBe('DELETE, GET, HEAD');
    expect((await h.call('POST', h.acme('/blocked-callers'), { number: '02-123-4567', channel: 'call' })).status).toBe(400);
  });
});
