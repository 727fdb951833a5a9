// The auth matrix (spec Authentication 1-3) over every account-scoped operation: the pipeline
// checks credentials before any handler runs, so each operation must give the same answers.
import { describe, expect, it } from 'vitest';
import { allOperations } from '../operations.ts';
import { ACME, BISTRO, harness } from './helpers.ts';

const accountOps = allOperations().filter((op) => op.auth === 'account');

function pathFor(path: string, accountId: string): string {
  return path.replace('{accountId}', accountId).replace(/\{[^}]+\}/g, 'x0');
}

describe('auth matrix', () => {
  const h = harness();
  it('covers the account-scoped operations', () => {
    expect(accountOps.length).toBeGreaterThanOrEqual(13);
  });
  for (const op of accountOps) {
    describe(`${op.operationId} (${op.method} ${op.path})`, () => {
      const url = pathFor(op.path, ACME.accountId);
      it('no Authorization header -> 401', async () => {
        const r = await h.call(op.method, url, undefined, { key: null });
        expect(r.status).toBe(401);
        expect(r.json).toMatchObject({ code: 'UNAUTHORIZED' });
        expect(typeof r.json.error).toBe('string');
      });
      it('unknown key -> 401', async () => {
        expect((await h.call(op.method, url, undefined, { key: 'sk_test_not_a_key' })).status).toBe(401);
      });
      it('malformed scheme -> 401', async () => {
        const r = await h.call(op.method, url, undefined, { key: null, headers: { authorization: `Basic ${ACME.key}` } });
        expect(r.status).toBe(401);
      });
      it("another account's key -> 403", async () => {
        const r = await h.call(op.method, url, undefined, { key: BISTRO.key });
        expect(r.status).toBe(403);
        expect(r.json.code).toBe('FORBIDDEN');
      });
      it('an unknown account in the path with a valid key -> 403', async () => {
        expect((await h.call(op.method, pathFor(op.path, 'ACdoesnotexist'), undefined, { key: ACME.key })).status).toBe(403);
      });
    });
  }

  it('the scheme is case-insensitive and the right key passes', async () => {
    const r = await h.call('GET', h.acme('/numbers'), undefined, { key: null, headers: { authorization: `bearer ${ACME.key}` } });
    expect(r.status).toBe(200);
  });

  it('a revoked key gets 401 and a new key works', async () => {
    const local = harness();
    const { apiKey } = await local.sim.control.request<{ apiKey: string }>('POST', `/accounts/${ACME.accountId}/api-keys`);
    expect((await local.call('GET', local.acme('/numbers'), undefined, { key: apiKey })).status).toBe(200);
    await local.sim.control.request('DELETE', `/accounts/${ACME.accountId}/api-keys/${apiKey}`);
    expect((await local.call('GET', local.acme('/numbers'), undefined, { key: apiKey })).status).toBe(401);
  });
});

describe('overseas_ip_blocked (spec Authentication 3)', () => {
  it('refuses requests from addresses marked foreign, with ip in the body; exceptions per account', async () => {
    const h = harness();
    expect((await h.call('GET', h.acme('/numbers'), undefined, { remoteAddress: '203.0.113.9' })).status).toBe(200);
    await h.sim.control.markForeign('203.0.113.0/24');
    const r = await h.call('GET', h.acme('/numbers'), undefined, { remoteAddress: '203.0.113.9' });
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ code: 'overseas_ip_blocked', ip: '203.0.113.9' });
    const mapped = await h.call('GET', h.acme('/numbers'), undefined, { remoteAddress: '::ffff:203.0.113.77' });
    expect(mapped.json).toMatchObject({ code: 'overseas_ip_blocked', ip: '203.0.113.77' });
    const fwd = await h.call('GET', h.acme('/numbers'), undefined, { headers: { 'x-forwarded-for': '203.0.113.5, 10.0.0.1' } });
    expect(fwd.json.ip).toBe('203.0.113.5');
    expect((await h.call('GET', h.acme('/numbers'), undefined, { remoteAddress: '198.51.100.1' })).status).toBe(200);
    // Another account is refused from the same address; an exception exempts only its account.
    await h.sim.control.request('PATCH', `/accounts/${ACME.accountId}`, { ipExceptions: ['203.0.113.9'] });
    expect((await h.call('GET', h.acme('/numbers'), undefined, { remoteAddress: '203.0.113.9' })).status).toBe(200);
    expect((await h.call('GET', h.bistro('/numbers'), undefined, { key: BISTRO.key, remoteAddress: '203.0.113.9' })).status).toBe(403);
    // Unknown keys are still 401 (credentials come first), the control plane is never refused.
    expect((await h.call('GET', h.acme('/numbers'), undefined, { key: 'sk_test_nope_nope', remoteAddress: '203.0.113.9' })).status).toBe(401);
    expect((await h.call('GET', '/_sim/health', undefined, { key: null, remoteAddress: '203.0.113.9' })).status).toBe(200);
    await h.sim.control.request('DELETE', '/geoip/foreign/203.0.113.0%2F24');
    expect((await h.call('GET', h.bistro('/numbers'), undefined, { key: BISTRO.key, remoteAddress: '203.0.113.9' })).status).toBe(200);
  });

  it('refuses a bad address with 400', async () => {
    const h = harness();
    for (const ip of ['not-an-ip', '300.1.1.1', '10.0.0.0/33']) {
      const r = await h.call('POST', '/_sim/geoip/foreign', { ip }, { key: null });
      expect(r.status, ip).toBe(400);
    }
  });
});
