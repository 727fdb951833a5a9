// POST /_sim/accounts with `apiKeys`: an account made with the keys its users hold (as after a
// reset, when the conformance kit makes the accounts it was given again), refused when another
// account holds one of them, and all or nothing.
import { describe, expect, it } from 'vitest';
import { createSimulator } from '../index.ts';

async function call(sim: ReturnType<typeof createSimulator>, method: string, url: string, body?: unknown, key?: string) {
  const res = await sim.handle({ method, url, headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

describe('POST /_sim/accounts with apiKeys', () => {
  it('makes the account with exactly those keys, which then authenticate', async () => {
    const sim = createSimulator();
    const made = await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACkeys01', apiKeys: ['sk_test_given_key_0001', 'sk_test_given_key_0002'], numbers: 0 });
    expect(made.status).toBe(201);
    expect(made.json).toEqual({ accountId: 'ACkeys01', apiKey: 'sk_test_given_key_0001', numbers: [] });
    expect((await call(sim, 'GET', '/_sim/accounts/ACkeys01')).json.apiKeys).toEqual(['sk_test_given_key_0001', 'sk_test_given_key_0002']);
    expect((await call(sim, 'GET', '/v1/accounts/ACkeys01/numbers', undefined, 'sk_test_given_key_0002')).status).toBe(200);
    await sim.close();
  });

  it('survives a reset only when made again: the kit\'s way to keep given accounts', async () => {
    const sim = createSimulator();
    await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACkeys02', apiKeys: ['sk_test_given_key_0003'] });
    await call(sim, 'POST', '/_sim/reset', {});
    expect((await call(sim, 'GET', '/v1/accounts/ACkeys02/numbers', undefined, 'sk_test_given_key_0003')).status).toBe(401);
    expect((await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACkeys02', apiKeys: ['sk_test_given_key_0003'] })).status).toBe(201);
    expect((await call(sim, 'GET', '/v1/accounts/ACkeys02/numbers', undefined, 'sk_test_given_key_0003')).status).toBe(200);
    await sim.close();
  });

  it('refuses a key another account holds (409 API_KEY_TAKEN) and a malformed key (400), creating nothing', async () => {
    const sim = createSimulator();
    const before = JSON.stringify(sim.snapshot());
    const taken = await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACkeys03', apiKeys: ['sk_test_acme_4f9c2b7e1d3a5c8f'] });
    expect(taken.status).toBe(409);
    expect(taken.json.code).toBe('API_KEY_TAKEN');
    const malformed = await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACkeys03', apiKeys: ['short'] });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(sim.snapshot())).toBe(before);
    await sim.close();
  });
});
