// getIceServers and the three mobile-gateway operations (simulated, shaped after the public API
// document): TURN credentials in the TURN REST API form on the virtual clock; enroll tokens used
// once within 24 h; tunnel settings; the number verification polled with its nonce.
import { createHmac } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { ACME, harness } from './helpers.ts';

let h: ReturnType<typeof harness>;
beforeEach(() => {
  h = harness();
});
const state = () => JSON.stringify(h.sim.snapshot());

describe('getIceServers', () => {
  it('gives STUN and TURN URLs with a credential valid for ttl_seconds (default 3600) of virtual time', async () => {
    const r = await h.call('GET', h.acme('/ice-servers?ttl_seconds=600'));
    expect(r.status, r.text).toBe(200);
    const expires = Date.parse(h.sim.clock.now()) + 600_000;
    const username = `${expires / 1000}:${ACME.accountId}`;
    expect(r.json).toEqual({
      ice_servers: [
        { urls: 'stun:turn.claw-ops.com:3478' },
        {
          urls: ['turn:turn.claw-ops.com:3478?transport=udp', 'turn:turn.claw-ops.com:3478?transport=tcp', 'turns:turn.claw-ops.com:5349?transport=tcp'],
          username,
          credential: createHmac('sha1', 'platform-simulator-turn-secret').update(username).digest('base64'),
          credential_type: 'password',
        },
      ],
      expires_at: new Date(expires).toISOString(),
    });
    const byDefault = await h.call('GET', h.acme('/ice-servers'));
    expect(Date.parse(byDefault.json.expires_at) - Date.parse(h.sim.clock.now())).toBe(3600_000);
  });

  it('refuses ttl_seconds outside 1 to 86400 with 400, and another account\'s key with 403', async () => {
    for (const bad of ['0', '86401', 'ten', '1.5']) expect((await h.call('GET', h.acme(`/ice-servers?ttl_seconds=${bad}`))).status, bad).toBe(400);
    expect((await h.call('GET', '/v1/accounts/AC5e6f7a8b/ice-servers')).status).toBe(403);
    expect((await h.call('GET', h.acme('/ice-servers'), undefined, { key: null })).status).toBe(401);
  });
});

describe('mobile gateways', () => {
  const KEY = Buffer.alloc(32, 7).toString('base64');
  const enroll = (token: string | null, body: Record<string, unknown>) =>
    h.call('POST', '/v1/mobile-gateways/enroll', body, { key: null, headers: token === null ? {} : { authorization: `Bearer ${token}` } });
  const poll = (nonce: string | null) => h.call('GET', '/v1/mobile-gateways/verification/status', undefined, { key: null, headers: nonce === null ? {} : { authorization: `Bearer ${nonce}` } });

  it('issues a one-time token, enrolls a box with it once, and answers the tunnel settings', async () => {
    const t = await h.call('POST', h.acme('/mobile-gateways/enrollment-tokens'), { didNumber: '070-1111-2222' });
    expect(t.status, t.text).toBe(201);
    expect(t.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(t.json.expiresAt).toBe(new Date(Date.parse(h.sim.clock.now()) + 86_400_000).toISOString());
    expect(state()).not.toContain(t.json.token);
    const e = await enroll(t.json.token, { wgPubkey: KEY, msisdn: '010-1234-5678' });
    expect(e.status, e.text).toBe(201);
    expect(e.json).toMatchObject({ tunnelIp: '10.9.0.2', tunnelCidr: '10.9.0.0/16', kamailioIp: '10.0.1.3', rtpengineIp: '10.0.1.4', rtpPortRange: '10000-20000', keepalive: 25, receiveNumber: '07052358010' });
    expect(e.json.wgGwPubkey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(e.json.nonce).toMatch(/^[0-9a-f]{32}$/);
    const again = await enroll(t.json.token, { wgPubkey: Buffer.alloc(32, 8).toString('base64') });
    expect([again.status, again.json.code]).toEqual([401, 'enroll_token_invalid']);
    const t2 = (await h.call('POST', h.acme('/mobile-gateways/enrollment-tokens'))).json;
    const dup = await enroll(t2.token, { wgPubkey: KEY });
    expect([dup.status, dup.json.code]).toEqual([409, 'gateway_already_enrolled']);
    expect((await enroll(t2.token, { wgPubkey: Buffer.alloc(32, 9).toString('base64') })).json.tunnelIp).toBe('10.9.0.3');
  });

  it('refuses a missing, unknown or expired token (401) and a key that is not 32 bytes of base64 (400), changing nothing', async () => {
    const t = (await h.call('POST', h.acme('/mobile-gateways/enrollment-tokens'))).json;
    const before = state();
    expect((await enroll(null, { wgPubkey: KEY })).status).toBe(401);
    expect((await enroll('nope', { wgPubkey: KEY })).status).toBe(401);
    const bad = await enroll(t.token, { wgPubkey: 'abc=' });
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_wg_pubkey']);
    expect((await enroll(t.token, {})).status).toBe(400);
    expect(state()).toBe(before);
    await h.sim.clock.advance({ seconds: 86_400 });
    expect((await enroll(t.token, { wgPubkey: KEY })).status).toBe(401);
  });

  it('verifies the box\'s number by a text from its phone; the poll needs the nonce and expires after 30 minutes', async () => {
    const t = (await h.call('POST', h.acme('/mobile-gateways/enrollment-tokens'))).json;
    const { nonce } = (await enroll(t.token, { wgPubkey: KEY, msisdn: '01012345678' })).json;
    expect((await poll(null)).status).toBe(401);
    expect((await poll('0'.repeat(32))).status).toBe(404);
    const pending = await poll(nonce);
    expect(pending.json).toEqual({ status: 'pending', verifiedNumber: null, receiveNumber: '07052358010', expiresAt: new Date(Date.parse(h.sim.clock.now()) + 1_800_000).toISOString() });
    expect((await h.sim.control.request<{ verified: string[] }>('POST', '/mobile-gateways/verification-texts', { from: '01099998888' })).verified).toEqual([]);
    expect((await h.sim.control.request<{ verified: string[] }>('POST', '/mobile-gateways/verification-texts', { from: '010-1234-5678' })).verified).toHaveLength(1);
    expect((await poll(nonce)).json).toMatchObject({ status: 'verified', verifiedNumber: '01012345678' });

    const t2 = (await h.call('POST', h.acme('/mobile-gateways/enrollment-tokens'))).json;
    const late = (await enroll(t2.token, { wgPubkey: Buffer.alloc(32, 3).toString('base64') })).json;
    await h.sim.clock.advance({ seconds: 1800 });
    expect((await poll(late.nonce)).json.status).toBe('expired');
    expect((await poll(nonce)).json.status).toBe('verified');
  });
});
