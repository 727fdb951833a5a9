// POST /_sim/accounts is all or nothing: a creation that fails half way (a bad or taken number
// after the account was made, a pool that runs dry, an unknown plan after an id was drawn) leaves
// the state exactly as it was, seeded draws included, so what follows is what would have followed
// had the failed request never come.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createSimulator, DEFAULT_FIXTURE_PATH } from '../index.ts';

// A pool of three numbers, so a creation can run it dry half way.
const SMALL_POOL = readFileSync(DEFAULT_FIXTURE_PATH, 'utf8').replace(/(numberPool:\s*\n\s*first: "07040000000"\s*\n\s*size: )10000/, '$13');
const ACME = 'AC1a2b3c4d';
const ACME_KEY = 'sk_test_acme_4f9c2b7e1d3a5c8f';

async function call(sim: ReturnType<typeof createSimulator>, method: string, url: string, body?: unknown, key?: string) {
  const res = await sim.handle({ method, url, headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

describe('POST /_sim/accounts: a failed creation stores nothing', () => {
  it('takes back the account, its numbers, the pool and the draws; the next creation matches a simulator that never saw the failures', async () => {
    expect(SMALL_POOL).toContain('size: 3');
    const sim = createSimulator({ fixture: { yaml: SMALL_POOL } });
    const twin = createSimulator({ fixture: { yaml: SMALL_POOL } });
    for (const s of [sim, twin]) {
      // One pool number issued and released again: it waits in the pool's returned list.
      const issued = await call(s, 'POST', `/v1/accounts/${ACME}/numbers`, {}, ACME_KEY);
      expect(issued.json.number).toBe('07040000000');
      expect(issued.status).toBe(201);
      expect((await call(s, 'DELETE', `/v1/accounts/${ACME}/numbers/${issued.json.number}`, undefined, ACME_KEY)).status).toBe(204);
    }
    const before = JSON.stringify(sim.snapshot());
    const failures: [unknown, number, string][] = [
      [{ numbers: ['07040000000', 'not a number'] }, 400, 'INVALID_PHONE_NUMBER'], // the returned number taken, then a bad one
      [{ numbers: ['07040000001', '07040000001'] }, 400, 'VALIDATION'], // the same free number twice
      [{ numbers: ['07040000002', '07012340001'] }, 400, 'VALIDATION'], // a number the fixture's account holds
      [{ numbers: 5 }, 503, 'NUMBER_POOL_EMPTY'], // three left in the pool, five asked for
      [{ plan: 'no-such-plan' }, 400, 'PLAN_NOT_FOUND'], // refused after the account id was drawn
    ];
    for (const [body, status, code] of failures) {
      const refused = await call(sim, 'POST', '/_sim/accounts', body);
      expect({ body, status: refused.status, code: refused.json.code }).toEqual({ body, status, code });
      expect(JSON.stringify(sim.snapshot())).toBe(before);
    }
    // The same creations afterwards: same ids, keys and numbers as in the twin, and the same state.
    for (const body of [{ numbers: 3 }, { plan: 'business', numbers: 0 }]) {
      const made = await call(sim, 'POST', '/_sim/accounts', body);
      expect(made.status).toBe(201);
      expect(made.json).toEqual((await call(twin, 'POST', '/_sim/accounts', body)).json);
      expect((await call(sim, 'GET', `/v1/accounts/${made.json.accountId}/numbers`, undefined, made.json.apiKey)).status).toBe(200);
    }
    expect(JSON.stringify(sim.snapshot())).toBe(JSON.stringify(twin.snapshot()));
    await sim.close();
    await twin.close();
  });

  it('keeps the keys of a failed creation free for the next one', async () => {
    const sim = createSimulator();
    const refused = await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACundo01', apiKeys: ['sk_test_undo_key_0001'], numbers: ['12'] });
    expect(refused.status).toBe(400);
    expect((await call(sim, 'GET', `/v1/accounts/ACundo01/numbers`, undefined, 'sk_test_undo_key_0001')).status).toBe(401);
    const made = await call(sim, 'POST', '/_sim/accounts', { accountId: 'ACundo02', apiKeys: ['sk_test_undo_key_0001'], numbers: 0 });
    expect(made.status).toBe(201);
    expect((await call(sim, 'GET', `/v1/accounts/ACundo02/numbers`, undefined, 'sk_test_undo_key_0001')).status).toBe(200);
    await sim.close();
  });
});
