// External MCP connections: registration rules, the write-only secret, rotation, and the
// connection test speaking real MCP (official SDK client) to fake servers built with the SDK's
// server, with every failure mapped to lastErrorCode.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, ACME, BISTRO } from './helpers.ts';

type H = ReturnType<typeof harness>;
let h: H;

beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.sim.close();
});

const SECRET = 'sk-live-TOPSECRET-0123456789';

async function server(script: Record<string, unknown> = {}): Promise<{ serverId: string; url: string }> {
  return h.sim.control.request('POST', '/mcp/servers', script);
}

async function create(body: Record<string, unknown>) {
  return h.call('POST', h.acme('/mcp-connections'), body);
}

async function connectTo(script: Record<string, unknown>, conn: Record<string, unknown> = {}) {
  const s = await server(script);
  const c = await create({ name: 'CRM', url: s.url, ...conn });
  expect(c.status, c.text).toBe(201);
  return { server: s, id: c.json.connectionId as string };
}

describe('MCP connections: registration', () => {
  it('creates an untested connection with host derived and no secret in the answer', async () => {
    const r = await create({ name: 'CRM', url: 'https://CRM.Example.com/mcp', authType: 'bearer', secret: SECRET });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      name: 'CRM',
      url: 'https://crm.example.com/mcp',
      host: 'crm.example.com',
      transport: 'streamable_http',
      authType: 'bearer',
      authHeaderName: null,
      hasSecret: true,
      enabled: true,
      status: 'untested',
      toolCount: 0,
      tools: [],
      lastTestedAt: null,
      lastErrorCode: null,
      agentCount: 0,
    });
    expect(r.text).not.toContain(SECRET);
    const list = await h.call('GET', h.acme('/mcp-connections'));
    expect(list.json.data.map((c: any) => c.connectionId)).toEqual([r.json.connectionId]);
    expect(list.text).not.toContain(SECRET);
    const state = JSON.stringify(await h.sim.control.snapshot());
    expect(state).not.toContain(SECRET);
    expect(state).toContain('sealedSecret');
  });

  it('applies the authType and header rules', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ authType: 'bearer' }, 'secret'],
      [{ authType: 'api_key', secret: 'x' }, 'headerName'],
      [{ authType: 'api_key', headerName: 'Authorization', secret: 'x' }, 'headerName'],
      [{ authType: 'api_key', headerName: 'cookie', secret: 'x' }, 'headerName'],
      [{ authType: 'api_key', headerName: 'Mcp-Session-Id', secret: 'x' }, 'headerName'],
      [{ authType: 'api_key', headerName: 'X Api Key', secret: 'x' }, 'headerName'],
      [{ authType: 'bearer', headerName: 'X-Api-Key', secret: 'x' }, 'headerName'],
      [{ authType: 'none', secret: 'x' }, 'secret'],
      [{ authType: 'bearer', secret: 'bad\nsecret' }, 'secret'],
      [{ authType: 'bearer', secret: 'x'.repeat(8193) }, 'secret'],
    ];
    for (const [body, path] of cases) {
      const r = await create({ name: 'x', url: 'https://mcp.example.com/mcp', ...body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.code).toBe('VALIDATION');
      expect(JSON.stringify(r.json.errors), JSON.stringify(body)).toContain(path);
      expect(r.text).not.toContain('bad\nsecret');
    }
    const ok = await create({ name: 'x', url: 'https://mcp.example.com/mcp', authType: 'api_key', headerName: 'X-Api-Key', secret: 'k1' });
    expect(ok.json).toMatchObject({ authType: 'api_key', authHeaderName: 'X-Api-Key', hasSecret: true });
    expect((await h.call('GET', h.acme('/mcp-connections'))).json.data).toHaveLength(1);
  });

  it('applies the URL rules: https and 443 for public hosts, local servers allowed by default', async () => {
    for (const url of ['http://mcp.example.com/mcp', 'https://mcp.example.com:8443/mcp', 'ftp://mcp.example.com', 'not a url', 'https://user:pw@mcp.example.com/', 'https://mcp.example.com/#x']) {
      const r = await create({ name: 'x', url });
      expect(r.status, url).toBe(400);
      expect(r.json.code, url).toBe('VALIDATION');
    }
    for (const url of ['http://127.0.0.1:3000/mcp', 'http://localhost:8080/mcp', 'http://[::1]:9000/mcp', 'http://192.168.1.10:8000/mcp']) {
      expect((await create({ name: 'x', url })).status, url).toBe(201);
    }
  });

  it('refuses what the real service refuses with strict egress', async () => {
    await h.sim.control.request('PUT', '/egress', { strict: true });
    const refused: [string, string][] = [
      ['http://mcp.example.com/mcp', 'VALIDATION'],
      ['https://mcp.example.com:8443/mcp', 'VALIDATION'],
      ['https://127.0.0.1/mcp', 'URL_BLOCKED'],
      ['https://localhost/mcp', 'URL_BLOCKED'],
      ['https://10.1.2.3/mcp', 'URL_BLOCKED'],
      ['https://169.254.169.254/latest', 'URL_BLOCKED'],
      ['https://100.64.0.1/mcp', 'URL_BLOCKED'],
      ['https://[::ffff:8.8.8.8]/mcp', 'URL_BLOCKED'],
      ['https://[fd00::1]/mcp', 'URL_BLOCKED'],
      ['https://0x7f.1/mcp', 'URL_BLOCKED'],
    ];
    for (const [url, code] of refused) {
      const r = await create({ name: 'x', url });
      expect(r.status, url).toBe(400);
      expect(r.json.code, url).toBe(code);
    }
    expect((await create({ name: 'x', url: 'https://8.8.8.8/mcp' })).status).toBe(201);
    expect((await create({ name: 'x', url: 'https://mcp.example.com:443/mcp' })).status).toBe(201);
  });

  it('updates: a new url or transport discards the tools and goes back to untested; delete answers affectedAgents', async () => {
    const { id } = await connectTo({});
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/test`))).json.status).toBe('tested');
    const renamed = await h.call('PATCH', h.acme(`/mcp-connections/${id}`), { name: 'CRM 2', enabled: false });
    expect(renamed.json).toMatchObject({ name: 'CRM 2', enabled: false, status: 'tested', toolCount: 1 });
    const moved = await h.call('PATCH', h.acme(`/mcp-connections/${id}`), { transport: 'sse' });
    expect(moved.json).toMatchObject({ transport: 'sse', status: 'untested', toolCount: 0, tools: [] });
    expect((await h.call('PATCH', h.acme(`/mcp-connections/${id}`), {})).status).toBe(400);
    expect((await h.call('GET', h.bistro(`/mcp-connections/${id}`), undefined, { key: BISTRO.key })).status).toBe(404);
    const del = await h.call('DELETE', h.acme(`/mcp-connections/${id}`));
    expect(del.json).toEqual({ deleted: true, affectedAgents: [] });
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).status).toBe(404);
  });
});

describe('MCP connection test: real MCP', () => {
  it('lists the tools over streamable_http and over sse, as the server gave them', async () => {
    const tools = [
      { name: 'get_reservation', description: 'Looks a reservation up.', inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'], 'x-extra': 1 } },
      { name: 'no_description' },
    ];
    for (const transport of ['streamable_http', 'sse']) {
      const { id } = await connectTo({ transport, tools }, { transport });
      const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
      expect(r.status, r.text).toBe(200);
      expect(r.json).toMatchObject({ status: 'tested', toolCount: 2, lastErrorCode: null, lastTestedAt: h.sim.clock.now() });
      expect(r.json.tools).toEqual([
        { name: 'get_reservation', description: 'Looks a reservation up.', inputSchema: tools[0]!.inputSchema },
        { name: 'no_description', description: null, inputSchema: { type: 'object' } },
      ]);
    }
  });

  it('follows tools/list cursors and refuses more than 50 tools with 422 TOO_MANY_TOOLS', async () => {
    const paged = await connectTo({ tools: [], generatedTools: 50, pageSize: 7 });
    expect((await h.call('POST', h.acme(`/mcp-connections/${paged.id}/test`))).json.toolCount).toBe(50);
    const many = await connectTo({ tools: [], generatedTools: 10_000 });
    const r = await h.call('POST', h.acme(`/mcp-connections/${many.id}/test`));
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('TOO_MANY_TOOLS');
    expect((await h.call('GET', h.acme(`/mcp-connections/${many.id}`))).json).toMatchObject({ status: 'untested', lastErrorCode: 'TOO_MANY_TOOLS', toolCount: 0 });
  });

  it('sends the credential: bearer and api_key pass, a wrong one is AUTH_FAILED and credential_error', async () => {
    const bearer = await connectTo({ auth: { type: 'bearer', secret: SECRET } }, { authType: 'bearer', secret: SECRET });
    expect((await h.call('POST', h.acme(`/mcp-connections/${bearer.id}/test`))).json.status).toBe('tested');
    const key = await connectTo({ transport: 'sse', auth: { type: 'api_key', headerName: 'X-Api-Key', secret: SECRET } }, { transport: 'sse', authType: 'api_key', headerName: 'X-Api-Key', secret: SECRET });
    expect((await h.call('POST', h.acme(`/mcp-connections/${key.id}/test`))).json.status).toBe('tested');
    for (const transport of ['streamable_http', 'sse']) {
      const wrong = await connectTo({ transport, auth: { type: 'bearer', secret: SECRET } }, { transport, authType: 'bearer', secret: 'wrong-secret' });
      const r = await h.call('POST', h.acme(`/mcp-connections/${wrong.id}/test`));
      expect(r.status, transport).toBe(502);
      expect(r.json.code, transport).toBe('AUTH_FAILED');
      const after = await h.call('GET', h.acme(`/mcp-connections/${wrong.id}`));
      expect(after.json).toMatchObject({ status: 'credential_error', lastErrorCode: 'AUTH_FAILED' });
    }
    const log = await h.sim.control.request<any>('GET', `/mcp/servers/${bearer.server.serverId}`);
    expect(log.requests.some((r: any) => r.rpcMethod === 'tools/list' && r.authorized)).toBe(true);
    expect(JSON.stringify(log)).not.toContain(SECRET);
  });

  it('maps a slow server to TIMEOUT on the virtual budget without waiting, and a delay that fits passes', async () => {
    const fits = await connectTo({ delays: { handshake: 4, listTools: 5 } });
    expect((await h.call('POST', h.acme(`/mcp-connections/${fits.id}/test`))).json.status).toBe('tested');
    for (const delays of [{ listTools: 30 }, { handshake: 6, listTools: 6 }, { hang: 'handshake' }, { hang: 'listTools' }]) {
      for (const transport of ['streamable_http', 'sse']) {
        const started = performance.now();
        const slow = await connectTo({ transport, delays }, { transport });
        const r = await h.call('POST', h.acme(`/mcp-connections/${slow.id}/test`));
        expect(r.json.code, JSON.stringify({ delays, transport })).toBe('TIMEOUT');
        expect(r.status).toBe(502);
        expect(r.json.error).toContain('budget'); // the virtual budget, not the 10 s network ceiling
        expect(performance.now() - started).toBeLessThan(9000);
      }
    }
  });

  it('maps a broken handshake to PROTOCOL_ERROR and a self-signed certificate to TLS_ERROR', async () => {
    for (const transport of ['streamable_http', 'sse']) {
      for (const handshake of ['garbage', 'http_error']) {
        const { id } = await connectTo({ transport, handshake }, { transport });
        const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
        expect(r.json.code, `${transport} ${handshake}`).toBe('PROTOCOL_ERROR');
      }
      const tls = await connectTo({ transport, tls: true }, { transport });
      const r = await h.call('POST', h.acme(`/mcp-connections/${tls.id}/test`));
      expect(r.json.code, transport).toBe('TLS_ERROR');
      expect((await h.call('GET', h.acme(`/mcp-connections/${tls.id}`))).json.status).toBe('untested');
    }
    const invalidTool = await connectTo({ tools: [{ name: 't', inputSchema: { type: 'string' } }] });
    expect((await h.call('POST', h.acme(`/mcp-connections/${invalidTool.id}/test`))).json.code).toBe('PROTOCOL_ERROR');
    const gone = await create({ name: 'x', url: 'http://127.0.0.1:9/mcp' });
    expect((await h.call('POST', h.acme(`/mcp-connections/${gone.json.connectionId}/test`))).json.code).toBe('PROTOCOL_ERROR');
  });

  it('a real server that never answers times out on the wall ceiling, and the clock advance waits for the test', async () => {
    const silent = http.createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await h.sim.control.request('PUT', '/mcp/runner', { timeoutMs: 300 });
      const c = await create({ name: 'silent', url: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp` });
      const order: string[] = [];
      const test = h.call('POST', h.acme(`/mcp-connections/${c.json.connectionId}/test`)).then((r) => {
        order.push('test');
        return r;
      });
      await new Promise((resolve) => setImmediate(resolve));
      const advance = h.sim.clock.advance({ seconds: 1 }).then(() => order.push('advance'));
      const [r] = await Promise.all([test, advance]);
      expect(r.json.code).toBe('TIMEOUT');
      expect(r.json.error).toContain('network timeout');
      expect(order).toEqual(['test', 'advance']);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('answers 503 while the runtime is unavailable, changing nothing', async () => {
    const { id } = await connectTo({});
    await h.sim.control.request('PUT', '/mcp/runner', { available: false });
    const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(r.status).toBe(503);
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'none' })).status).toBe(503);
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).json).toMatchObject({ status: 'untested', lastErrorCode: null });
  });
});

describe('fake MCP servers (control plane)', () => {
  it('refuses bad scripts with 400 and starts nothing; shows no secret; stops', async () => {
    for (const script of [
      { auth: { type: 'bearer' } },
      { auth: { type: 'api_key', secret: 'x' } },
      { publicAddress: '10.0.0.1' },
      { publicAddress: 'not-an-ip' },
      { tools: [{ name: 'a' }, { name: 'a' }] },
      { transport: 'websocket' },
      { generatedTools: 1e9 },
    ]) {
      const r = await h.call('POST', '/_sim/mcp/servers', script);
      expect(r.status, JSON.stringify(script)).toBe(400);
    }
    expect((await h.call('GET', '/_sim/mcp/servers')).json.data).toEqual([]);
    const s = await server({ auth: { type: 'bearer', secret: SECRET } });
    const shown = await h.call('GET', `/_sim/mcp/servers/${s.serverId}`);
    expect(shown.json).toMatchObject({ authType: 'bearer', hasSecret: true, transport: 'streamable_http', toolCount: 1 });
    expect(shown.text).not.toContain(SECRET);
    expect((await h.call('PATCH', `/_sim/mcp/servers/${s.serverId}`, { tls: true })).status).toBe(400);
    expect((await h.call('DELETE', `/_sim/mcp/servers/${s.serverId}`)).status).toBe(204);
    expect((await h.call('GET', `/_sim/mcp/servers/${s.serverId}`)).status).toBe(404);
  });
});

describe('MCP credential rotation', () => {
  it('verifies the new credential first: a bad one is 502 and keeps the old one; a good one tests the connection', async () => {
    const { id, server: s } = await connectTo({ auth: { type: 'bearer', secret: SECRET } }, { authType: 'bearer', secret: SECRET });
    await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    const before = (await h.call('GET', h.acme(`/mcp-connections/${id}`))).json;
    const bad = await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'bearer', secret: 'nope' });
    expect(bad.status).toBe(502);
    expect(bad.json.code).toBe('AUTH_FAILED');
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).json).toEqual(before);
    await h.sim.control.request('PATCH', `/mcp/servers/${s.serverId}`, { auth: { type: 'api_key', headerName: 'X-Key', secret: 'new-secret' } });
    const good = await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'api_key', headerName: 'X-Key', secret: 'new-secret' });
    expect(good.status, good.text).toBe(200);
    expect(good.json).toMatchObject({ authType: 'api_key', authHeaderName: 'X-Key', hasSecret: true, status: 'tested' });
    expect(good.text).not.toContain('new-secret');
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/test`))).json.status).toBe('tested');
  });

  it('force stores without trying and leaves untested; authType none removes the secret', async () => {
    const { id } = await connectTo({ auth: { type: 'bearer', secret: SECRET } }, { authType: 'bearer', secret: SECRET });
    await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    const forced = await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'bearer', secret: 'whatever', force: true });
    expect(forced.json).toMatchObject({ status: 'untested', hasSecret: true, toolCount: 1 });
    const none = await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'none', force: true });
    expect(none.json).toMatchObject({ authType: 'none', authHeaderName: null, hasSecret: false, status: 'untested' });
    const r = await h.call('POST', h.acme(`/mcp-connections/${id}/test`));
    expect(r.json.code).toBe('AUTH_FAILED');
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/credential`), { authType: 'api_key', secret: 'x' })).status).toBe(400);
  });

  it('keeps the sealed secret usable across a snapshot and restore', async () => {
    const { id } = await connectTo({ auth: { type: 'bearer', secret: SECRET } }, { authType: 'bearer', secret: SECRET });
    const snap = await h.sim.control.snapshot();
    await h.sim.control.reset();
    expect((await h.call('GET', h.acme(`/mcp-connections/${id}`))).status).toBe(404);
    await h.sim.control.restore(snap);
    expect((await h.call('POST', h.acme(`/mcp-connections/${id}/test`))).json.status).toBe('tested');
  });
});

export { ACME };
