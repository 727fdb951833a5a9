// Verifications (docs/decisions.md "Verifications"): create / get / check / cancel and GET /v2/verifications with every
// filter; each transition of the state machine; the code only ever on the phone; refusals
// leaving state unchanged; key authentication for the /v2 operations.
import { beforeEach, describe, expect, it } from 'vitest';
import { allOperations } from '../operations.ts';
import { ACME, BISTRO, harness } from './helpers.ts';

type H = ReturnType<typeof harness>;

function create(h: H, body: Record<string, unknown>, key = ACME.key) {
  return h.call('POST', '/v2/verifications', body, { key });
}

function check(h: H, id: string, code: string, key = ACME.key) {
  return h.call('POST', `/v2/verifications/${id}/check`, { code }, { key });
}

async function get(h: H, id: string) {
  return (await h.call('GET', `/v2/verifications/${id}`)).json;
}

/** The code as the phone received it (text or call), through the control plane. */
async function codeOnPhone(h: H, to: string, verificationId: string): Promise<string | undefined> {
  const phone = await h.sim.control.request<any>('GET', `/carrier/phones/${to}`);
  const entry = [...phone.messages, ...phone.calls].find((e: any) => e.verificationId === verificationId);
  return entry?.code ?? undefined;
}

function wrongCode(code: string): string {
  return code.replace(/^./, (d) => String((Number(d) + 1) % 10));
}

function state(h: H): string {
  return JSON.stringify(h.sim.snapshot());
}

describe('createVerification', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  it('answers 201 pending with the spec\'s fields and no code; the phone receives the code by text', async () => {
    const r = await create(h, { channel: 'sms', to: '+82 10-1234-5678', codeLength: 8, ttlSeconds: 120 });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      verificationId: expect.stringMatching(/^VE[0-9a-f]{32}$/),
      status: 'pending',
      channel: 'sms',
      to: '01012345678',
      from: '07012340001', // the account's oldest number when `from` is omitted
      codeLength: 8,
      remainingAttempts: 5,
      expiresAt: '2026-03-02T00:02:00.000Z',
      createdAt: '2026-03-02T00:00:00.000Z',
      verifiedAt: null,
      instruction: null,
    });
    expect(await codeOnPhone(h, '01012345678', r.json.verificationId)).toBeUndefined();
    await h.sim.clock.advance({ seconds: 2 });
    const phone = await h.sim.control.request<any>('GET', '/carrier/phones/01012345678');
    expect(phone.messages).toHaveLength(1);
    const text = phone.messages[0];
    expect(text).toMatchObject({ verificationId: r.json.verificationId, messageId: null, from: '07012340001', type: 'sms' });
    expect(text.code).toMatch(/^\d{8}$/);
    expect(text.body).toBe(`Your verification code is ${text.code}.`);
    // Not a message of the account: the code never shows in the message history.
    expect((await h.call('GET', h.acme('/messages'))).json.meta.total).toBe(0);
  });

  it('defaults: channel sms, 6 digits, 300 s; `from` may be any owned number in any spelling', async () => {
    const r = await create(h, { to: '01012345678', from: '070-1234-0002' });
    expect(r.json).toMatchObject({ channel: 'sms', codeLength: 6, from: '07012340002', expiresAt: '2026-03-02T00:05:00.000Z' });
  });

  it('channel call: the phone hears the code when it answers', async () => {
    const r = await create(h, { channel: 'call', to: '010-1234-5678', codeLength: 4 });
    await h.sim.clock.advance({ seconds: 4 });
    expect((await h.sim.control.request<any>('GET', '/carrier/phones/01012345678')).calls).toEqual([]);
    await h.sim.clock.advance({ seconds: 1 });
    const call = (await h.sim.control.request<any>('GET', '/carrier/phones/01012345678')).calls[0];
    expect(call.verificationId).toBe(r.json.verificationId);
    const spoken = call.code.split('').join(' ');
    expect(call.heard).toBe(`Your verification code is ${spoken}. Once more: ${spoken}.`);
    expect((await check(h, r.json.verificationId, call.code)).json.status).toBe('verified');
  });

  it('refuses bad input and the account\'s state with stable codes, changing nothing', async () => {
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ to: 'abc' }, 400, 'INVALID_PHONE_NUMBER'],
      [{ to: '+44 20 7946 0000' }, 400, 'UNSUPPORTED_COUNTRY'],
      [{ to: '01012345678', from: '07012349001' }, 400, 'from_not_registered'],
      [{ to: '01012345678', from: 'x' }, 400, 'INVALID_PHONE_NUMBER'],
      [{ to: '01012345678', codeLength: 3 }, 400, 'VALIDATION'],
      [{ to: '01012345678', codeLength: 11 }, 400, 'VALIDATION'],
      [{ to: '01012345678', ttlSeconds: 59 }, 400, 'VALIDATION'],
      [{ to: '01012345678', ttlSeconds: 3601 }, 400, 'VALIDATION'],
      [{ to: '01012345678', channel: 'email' }, 400, 'VALIDATION'],
      [{ to: '01012345678', code: '123456' }, 400, 'VALIDATION'],
      [{}, 400, 'VALIDATION'],
      // 010-5555-0101 has opted out of messages (fixture), so no code by text.
      [{ to: '010-5555-0101' }, 422, 'recipient_blocked'],
    ];
    for (const [body, status, code] of cases) {
      const before = state(h);
      const r = await create(h, body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(r.json.code, JSON.stringify(body)).toBe(code);
      expect(state(h), JSON.stringify(body)).toBe(before);
    }
    // A call opt-out blocks calls, not texts.
    await h.call('POST', h.acme('/blocked-recipients'), { number: '010-7777-0001', channel: 'call' });
    expect((await create(h, { to: '01077770001', channel: 'call' })).json.code).toBe('recipient_blocked');
    expect((await create(h, { to: '01077770001', channel: 'sms' })).status).toBe(201);
    expect((await create(h, { to: '01055550101', channel: 'call' })).status).toBe(201);
  });

  it('NO_SUBSCRIPTION without an active subscription; no_sender_number when the account owns no number', async () => {
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { subscription: { status: 'inactive', startedAt: '2026-01-15T03:00:00Z' } });
    expect((await create(h, { to: '01012345678' })).json.code).toBe('NO_SUBSCRIPTION');
    const bare = await h.sim.control.createAccount({ numbers: 0 });
    const before = state(h);
    const r = await create(h, { to: '01012345678' }, bare.apiKey);
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('no_sender_number');
    expect(state(h)).toBe(before);
  });
});

describe('checkVerification and the state machine', () => {
  let h: H;
  beforeEach(() => {
    h = harness();
  });

  async function started(body: Record<string, unknown> = { to: '01012345678' }) {
    const v = (await create(h, body)).json;
    await h.sim.clock.advance({ seconds: 5 });
    return { v, code: (await codeOnPhone(h, v.to, v.verificationId))! };
  }

  it('the right code verifies once: verifiedAt set, one attempt used, a second check is 409', async () => {
    const { v, code } = await started();
    const ok = await check(h, v.verificationId, code);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ status: 'verified', remainingAttempts: 4, verifiedAt: '2026-03-02T00:00:05.000Z' });
    const before = state(h);
    const again = await check(h, v.verificationId, code);
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'verification_not_pending', status: 'verified' });
    expect(state(h)).toBe(before);
    expect((await h.call('POST', `/v2/verifications/${v.verificationId}/cancel`)).json.code).toBe('verification_not_pending');
  });

  it('wrong codes count down; the fifth makes max_attempts; then even the right code is refused', async () => {
    const { v, code } = await started();
    for (let left = 4; left >= 1; left--) {
      const r = await check(h, v.verificationId, wrongCode(code));
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ status: 'pending', remainingAttempts: left });
    }
    const last = await check(h, v.verificationId, wrongCode(code));
    expect(last.json).toMatchObject({ status: 'max_attempts', remainingAttempts: 0, verifiedAt: null });
    expect((await check(h, v.verificationId, code)).json).toMatchObject({ code: 'verification_not_pending', status: 'max_attempts' });
  });

  it('a code of the wrong length (or not digits) is 400 and uses no attempt', async () => {
    const { v, code } = await started();
    for (const bad of [code.slice(1), code + '0', 'abcdef', ' ' + code.slice(1), '12 456']) {
      const before = state(h);
      const r = await check(h, v.verificationId, bad);
      expect(r.status, bad).toBe(400);
      expect(r.json.code).toBe('invalid_code_format');
      expect(state(h)).toBe(before);
    }
    for (const body of [{}, { code: 123456 }, { code: '' }, { code: '1', extra: 1 }]) {
      const r = await h.call('POST', `/v2/verifications/${v.verificationId}/check`, body);
      expect(r.json.code, JSON.stringify(body)).toBe('VALIDATION');
    }
    expect((await get(h, v.verificationId)).remainingAttempts).toBe(5);
  });

  it('expires at ttlSeconds exactly; a check then is 409 expired', async () => {
    const v = (await create(h, { to: '01012345678', ttlSeconds: 60 })).json;
    await h.sim.clock.advance({ seconds: 59.999 });
    expect((await get(h, v.verificationId)).status).toBe('pending');
    const code = (await codeOnPhone(h, v.to, v.verificationId))!;
    await h.sim.clock.advance({ seconds: 0.001 });
    expect((await get(h, v.verificationId)).status).toBe('expired');
    expect((await check(h, v.verificationId, code)).json).toMatchObject({ code: 'verification_not_pending', status: 'expired' });
  });

  it('cancel: pending becomes canceled; the code no longer works', async () => {
    const { v, code } = await started();
    const r = await h.call('POST', `/v2/verifications/${v.verificationId}/cancel`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'canceled', remainingAttempts: 5 });
    expect((await check(h, v.verificationId, code)).json.status).toBe('canceled');
  });

  it('verifying one cancels the other pending verifications of the same number (same account only)', async () => {
    const a = await started({ to: '010-1234-5678' });
    const b = await started({ to: '+82 10 1234 5678', channel: 'call' });
    const other = await started({ to: '01099990000' });
    const settled = (await create(h, { to: '01012345678' })).json;
    await h.call('POST', `/v2/verifications/${settled.verificationId}/cancel`);
    const bistro = (await create(h, { to: '01012345678' }, BISTRO.key)).json;
    expect((await check(h, b.v.verificationId, b.code)).json.status).toBe('verified');
    expect((await get(h, a.v.verificationId)).status).toBe('canceled');
    expect((await get(h, other.v.verificationId)).status).toBe('pending');
    expect((await get(h, settled.verificationId)).status).toBe('canceled');
    expect((await h.call('GET', `/v2/verifications/${bistro.verificationId}`, undefined, { key: BISTRO.key })).json.status).toBe('pending');
    expect((await check(h, a.v.verificationId, a.code)).json.code).toBe('verification_not_pending');
  });

  it('fails when delivery fails: text failed, call unanswered, busy or failed; a delivered one stays pending', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ to: '010-0000-0400' }, 2, 'failed'],
      [{ to: '010-0000-0400', channel: 'call' }, 5, 'failed'],
      [{ to: '010-0000-0480', channel: 'call' }, 30, 'failed'],
      [{ to: '010-0000-0486', channel: 'call' }, 5, 'failed'],
      [{ to: '010-0000-0480' }, 2, 'pending'], // texts to the no-answer number arrive
    ];
    for (const [body, seconds, status] of cases) {
      const local = harness();
      const v = (await create(local, body)).json;
      await local.sim.clock.advance({ seconds: seconds - 0.001 });
      expect((await get(local, v.verificationId)).status).toBe('pending');
      await local.sim.clock.advance({ seconds: 0.001 });
      expect((await get(local, v.verificationId)).status, JSON.stringify(body)).toBe(status);
    }
    // A scripted outcome works the same way, and a failed delivery never reaches the phone.
    await h.sim.control.request('POST', '/carrier/scripts', { number: '01012345678', outcome: 'failed', types: ['sms'] });
    const v = (await create(h, { to: '01012345678' })).json;
    await h.sim.clock.advance({ seconds: 2 });
    expect((await get(h, v.verificationId)).status).toBe('failed');
    expect(await codeOnPhone(h, '01012345678', v.verificationId)).toBeUndefined();
  });

  it('expiry wins when it falls due with a late delivery; a slow text still delivers the code', async () => {
    const v = (await create(h, { to: '010-0000-0408', ttlSeconds: 3600 })).json;
    await h.sim.clock.advance({ seconds: 3600 });
    expect((await get(h, v.verificationId)).status).toBe('expired');
    expect(await codeOnPhone(h, '01000000408', v.verificationId)).toMatch(/^\d{6}$/);
  });

  it('other accounts\' verifications are 404 for get, check and cancel', async () => {
    const { v, code } = await started();
    for (const [method, path, body] of [
      ['GET', `/v2/verifications/${v.verificationId}`, undefined],
      ['POST', `/v2/verifications/${v.verificationId}/check`, { code }],
      ['POST', `/v2/verifications/${v.verificationId}/cancel`, undefined],
      ['GET', '/v2/verifications/VEnope', undefined],
    ] as const) {
      const r = await h.call(method, path, body, { key: BISTRO.key });
      expect(r.status, path).toBe(404);
      expect(r.json.code).toBe('verification_not_found');
    }
    expect((await get(h, v.verificationId)).status).toBe('pending');
  });
});

describe('GET /v2/verifications', () => {
  it('lists the key\'s account newest first with channel, status, to, createdAfter/createdBefore and paging', async () => {
    const h = harness();
    const v1 = (await create(h, { to: '01011110001' })).json;
    await h.sim.clock.advance({ seconds: 60 });
    const v2 = (await create(h, { to: '01011110002', channel: 'call' })).json;
    await h.sim.clock.advance({ seconds: 60 });
    const v3 = (await create(h, { to: '01011110001' })).json;
    await h.call('POST', `/v2/verifications/${v3.verificationId}/cancel`);
    await create(h, { to: '01011110001' }, BISTRO.key);
    const ids = async (q = '') => {
      const r = await h.call('GET', `/v2/verifications${q}`);
      expect(r.status, q).toBe(200);
      return r.json.data.map((v: any) => v.verificationId);
    };
    expect(await ids()).toEqual([v3.verificationId, v2.verificationId, v1.verificationId]);
    expect(await ids('?channel=call')).toEqual([v2.verificationId]);
    expect(await ids('?status=canceled')).toEqual([v3.verificationId]);
    expect(await ids('?status=pending&to=010-1111-0001')).toEqual([v1.verificationId]);
    expect(await ids('?to=%2B82%2010%201111%200001')).toEqual([v3.verificationId, v1.verificationId]);
    // createdAfter inclusive, createdBefore exclusive: adjacent ranges do not overlap.
    expect(await ids('?createdAfter=2026-03-02T00:01:00Z')).toEqual([v3.verificationId, v2.verificationId]);
    expect(await ids('?createdBefore=2026-03-02T00:01:00Z')).toEqual([v1.verificationId]);
    expect(await ids('?createdAfter=2026-03-02T09:01:00%2B09:00&createdBefore=2026-03-02T00:02:00Z')).toEqual([v2.verificationId]);
    expect(await ids('?createdAfter=2026-03-02T00:01:00Z&createdBefore=2026-03-02T00:01:00Z')).toEqual([]);
    const page = (await h.call('GET', '/v2/verifications?pageSize=2&page=1')).json;
    expect(page.data.map((v: any) => v.verificationId)).toEqual([v1.verificationId]);
    expect(page.meta).toEqual({ page: 1, pageSize: 2, total: 3 });
    const bistro = (await h.call('GET', '/v2/verifications', undefined, { key: BISTRO.key })).json;
    expect(bistro.meta.total).toBe(1);
  });

  it('refuses bad filters with 400', async () => {
    const h = harness();
    for (const [q, code] of [
      ['status=done', 'VALIDATION'],
      ['channel=email', 'VALIDATION'],
      ['createdAfter=yesterday', 'VALIDATION'],
      ['createdAfter=2026-03-03T00:00:00Z&createdBefore=2026-03-02T00:00:00Z', 'VALIDATION'],
      ['pageSize=0', 'VALIDATION'],
      ['pageSize=101', 'VALIDATION'],
      ['to=x', 'INVALID_PHONE_NUMBER'],
    ]) {
      const r = await h.call('GET', `/v2/verifications?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.code, q).toBe(code);
    }
  });
});

describe('key authentication of the /v2 operations', () => {
  const keyOps = allOperations().filter((op) => op.auth === 'key');
  it('covers the five verification operations', () => {
    expect(keyOps.map((op) => op.operationId).sort()).toEqual(['cancelVerification', 'checkVerification', 'createVerification', 'getVerification', 'listVerifications']);
  });
  for (const op of keyOps) {
    it(`${op.operationId}: 401 without a key, with an unknown key, with another scheme`, async () => {
      const h = harness();
      const url = op.path.replace(/\{[^}]+\}/g, 'VEx');
      for (const opts of [{ key: null }, { key: 'sk_test_not_a_key' }, { key: null, headers: { authorization: `Basic ${ACME.key}` } }]) {
        const r = await h.call(op.method, url, op.method === 'POST' ? { to: '01012345678', code: '123456' } : undefined, opts);
        expect(r.status).toBe(401);
        expect(r.json.code).toBe('UNAUTHORIZED');
      }
    });
  }
});

describe('the code stays secret', () => {
  it('never appears in responses, lists, snapshots or the delivery log; only on the phone', async () => {
    const h = harness();
    const responses: string[] = [];
    const sms = await create(h, { to: '01012345678', codeLength: 10 });
    const call = await create(h, { to: '01012345679', channel: 'call', codeLength: 10 });
    responses.push(sms.text, call.text);
    await h.sim.clock.advance({ seconds: 5 });
    const codes = [await codeOnPhone(h, '01012345678', sms.json.verificationId), await codeOnPhone(h, '01012345679', call.json.verificationId)] as string[];
    expect(codes.every((c) => /^\d{10}$/.test(c))).toBe(true);
    responses.push((await check(h, sms.json.verificationId, wrongCode(codes[0]!))).text);
    responses.push((await check(h, sms.json.verificationId, codes[0]!)).text);
    responses.push((await h.call('GET', '/v2/verifications')).text);
    responses.push((await h.call('GET', `/v2/verifications/${call.json.verificationId}`)).text);
    responses.push((await h.call('GET', h.acme('/messages'))).text);
    responses.push((await h.call('GET', '/_sim/carrier/deliveries', undefined, { key: null })).text);
    responses.push((await h.call('GET', '/_sim/state', undefined, { key: null })).text);
    const spoken = codes[1]!.split('').join(' ');
    for (const text of responses) {
      for (const c of codes) expect(text).not.toContain(c);
      expect(text).not.toContain(spoken);
    }
    const log = JSON.parse(responses[responses.length - 2]!).data;
    expect(log.map((d: any) => d.content)).toEqual([
      'Your verification code is * * * * * * * * * *. Once more: * * * * * * * * * *.',
      'Your verification code is **********.',
    ]);
  });

  it('a snapshot restored in this process keeps codes readable; restored elsewhere they stay masked', async () => {
    const h = harness();
    const v = (await create(h, { to: '01012345678', codeLength: 8 })).json;
    await h.sim.clock.advance({ seconds: 2 });
    const code = (await codeOnPhone(h, '01012345678', v.verificationId))!;
    const snap = await h.sim.control.snapshot();
    await h.sim.control.restore(snap);
    expect(await codeOnPhone(h, '01012345678', v.verificationId)).toBe(code);

    const elsewhere = harness();
    await elsewhere.sim.control.restore(snap);
    const phone = await elsewhere.sim.control.request<any>('GET', '/carrier/phones/01012345678');
    expect(phone.messages[0]).toMatchObject({ verificationId: v.verificationId, code: null, body: 'Your verification code is ********.' });
    // The verification itself still works: the hash came along.
    expect((await check(elsewhere, v.verificationId, code)).json.status).toBe('verified');
    // A reset forgets every code.
    await h.sim.control.reset();
    expect((await h.sim.control.request<any>('GET', '/carrier/phones/01012345678')).messages).toEqual([]);
  });
});
