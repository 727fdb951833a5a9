// The shared egress guard (peers/egress.ts): address classification, strict-mode resolution
// through the fake DNS, DNS rebinding, and its use by MCP connection tests and webhooks.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blockedAddressReason, blockedHostReason, EgressGuard } from '../peers/egress.ts';
import { IoBarrier } from '../core/io.ts';
import { FakeDns } from '../peers/dns/model.ts';
import { harness } from './helpers.ts';
import { startReceiver } from './receivers.ts';
import { ReceiverClient } from '../peers/webhooks/receiver-client.ts';
import { ReceiverPolicy } from '../peers/webhooks/receiver-policy.ts';

describe('address classification', () => {
  it('refuses every non-public range and allows public unicast', () => {
    const blocked = [
      '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.0.1', '169.254.169.254', '100.64.0.1',
      '100.127.255.255', '0.0.0.0', '255.255.255.255', '224.0.0.1', '240.0.0.1', '192.0.2.1', '198.18.0.1',
      '::1', '::', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:8.8.8.8', '::ffff:127.0.0.1', '2001:db8::1', '64:ff9b::1.2.3.4',
    ];
    for (const a of blocked) expect(blockedAddressReason(a), a).toBeDefined();
    for (const a of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450::1']) {
      expect(blockedAddressReason(a), a).toBeUndefined();
    }
  });

  it('judges hosts on their face: literals (brackets included) and localhost names', () => {
    expect(blockedHostReason('[::1]')).toBeDefined();
    expect(blockedHostReason('localhost')).toBeDefined();
    expect(blockedHostReason('api.localhost.')).toBeDefined();
    expect(blockedHostReason('example.com')).toBeUndefined();
    expect(blockedHostReason('8.8.8.8')).toBeUndefined();
  });

  it('resolves through the fake DNS and refuses internal answers in strict mode only; rebinding is seen at the second lookup', async () => {
    const dns = new FakeDns();
    const guard = new EgressGuard(() => dns, new IoBarrier());
    dns.set(dns.prepare('mcp.example.com', [{ type: 'A', value: '93.184.215.14' }, { type: 'AAAA', value: '2606:4700:0:0::1' }]));
    dns.set(dns.prepare('evil.example.com', [{ type: 'A', value: '93.184.215.14' }, { type: 'A', value: '10.0.0.5' }]));
    expect(await guard.resolve('mcp.example.com')).toEqual({
      ok: true,
      fake: true,
      addresses: [{ address: '93.184.215.14', family: 4 }, { address: '2606:4700::1', family: 6 }],
    });
    expect((await guard.resolve('evil.example.com')).ok).toBe(true);
    guard.strict = true;
    expect(await guard.resolve('evil.example.com')).toMatchObject({ ok: false, blocked: true });
    expect((await guard.resolve('mcp.example.com')).ok).toBe(true);
    dns.setRebind({ name: 'mcp.example.com', afterLookups: 3, addresses: ['127.0.0.1'] });
    expect((await guard.resolve('mcp.example.com')).ok).toBe(true); // the third lookup of the name
    expect(await guard.resolve('mcp.example.com')).toMatchObject({ ok: false, blocked: true, reason: expect.stringContaining('loopback') });
  });
});

describe('strict egress through the API', () => {
  let h: ReturnType<typeof harness>;
  beforeEach(() => {
    h = harness({ strictEgress: true });
  });
  afterEach(async () => {
    await h.sim.close();
  });

  async function conn(url: string): Promise<string> {
    const r = await h.call('POST', h.acme('/mcp-connections'), { name: 'x', url });
    expect(r.status, r.text).toBe(201);
    return r.json.connectionId;
  }

  it('refuses a name resolving to a private address with URL_BLOCKED, recorded on the connection', async () => {
    await h.sim.control.request('PUT', '/dns/records/crm.example.com', { records: [{ type: 'A', value: '192.168.1.20' }] });
    const id = await conn('https://crm.example.com/mcp');
    const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(r.status).toBe(502);
    expect(r.json.code).toBe('URL_BLOCKED');
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).json).toMatchObject({ status: 'untested', lastErrorCode: 'URL_BLOCKED' });
  });

  it('reaches a fake server on the fake internet, and refuses the same name once it rebinds to loopback', async () => {
    const s = await h.sim.control.request<any>('POST', '/mcp/servers', { publicAddress: '93.184.215.14' });
    await h.sim.control.request('PUT', '/dns/records/crm.example.com', { records: [{ type: 'A', value: '93.184.215.14' }] });
    const id = await conn('https://crm.example.com/mcp');
    // The fake server speaks plain http behind the public address, so https to it fails in TLS:
    // the connection got through the guard to the server.
    const first = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(first.json.code).toBe('TLS_ERROR');
    // Answer public to the test's own check, then loopback to the connection (rebinding).
    const lookups = (await h.sim.control.snapshot() as any).models.dns.addressLookups['crm.example.com'];
    await h.sim.control.request('PUT', '/dns/rebind/crm.example.com', { afterLookups: lookups + 1, addresses: ['127.0.0.1'] });
    const before = (await h.sim.control.request<any>('GET', `/mcp/servers/${s.serverId}`)).requests.length;
    const rebound = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(rebound.json.code).toBe('URL_BLOCKED');
    expect(rebound.json.error).toContain('127.0.0.1');
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).json.lastErrorCode).toBe('URL_BLOCKED');
    expect((await h.sim.control.request<any>('GET', `/mcp/servers/${s.serverId}`)).requests.length).toBe(before);
  });

  it('a fake-internet address without a server refuses the connection (no real network)', async () => {
    await h.sim.control.request('PUT', '/dns/records/nowhere.example.com', { records: [{ type: 'A', value: '93.184.215.99' }] });
    const id = await conn('https://nowhere.example.com/mcp');
    const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(r.json.code).toBe('PROTOCOL_ERROR');
    expect(r.json.error).toContain('ECONNREFUSED');
  });

  it('switching strict mode on later refuses a local connection registered before', async () => {
    await h.sim.control.request('PUT', '/egress', { strict: false });
    const s = await h.sim.control.request<any>('POST', '/mcp/servers', {});
    const id = await conn(s.url);
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/test`))).json.status).toBe('tested');
    expect(await h.sim.control.request('PUT', '/egress', { strict: true })).toEqual({ strict: true });
    const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(r.json.code).toBe('URL_BLOCKED');
    // Webhooks share the switch.
    const hook = await h.call('POST', h.acme('/webhooks'), { url: 'http://127.0.0.1:3000/hook', events: ['message.sent'] });
    expect(hook.json.code).toBe('URL_BLOCKED');
  });
});

describe('the webhook client and keep-alive', () => {
  it('does not carry a strict-mode delivery over a connection pooled before strict mode was switched on', async () => {
    const hook = await startReceiver();
    const port = new URL(hook.url).port;
    const dns = new FakeDns();
    dns.set(dns.prepare('hooks.example.com', [{ type: 'A', value: '127.0.0.1' }]));
    const guard = new EgressGuard(() => dns, new IoBarrier());
    const client = new ReceiverClient(new ReceiverPolicy(guard));
    const send = () => client.send({ method: 'POST', url: `http://hooks.example.com:${port}/in`, headers: { 'content-type': 'application/json' }, body: '{}' });
    try {
      // Two sends: undici may open a second connection for the second request; after them a
      // keep-alive connection is pooled.
      expect((await send()).responseStatus).toBe(200);
      expect((await send()).responseStatus).toBe(200);
      guard.strict = true;
      const refused = await send();
      expect(refused.responseStatus).toBeNull();
      expect(refused).toMatchObject({ permanent: true, error: expect.stringContaining('strict') });
    } finally {
      await client.close();
      await hook.close();
    }
  });
});
