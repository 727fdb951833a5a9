// The platform's own MCP server at /mcp, driven by the official SDK client over a real socket:
// app tokens and grants, get_usage listed per permission and connection instant, and results
// equal to getUsage's for the same arguments (50 per page by default).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { harness, ACME, BISTRO } from './helpers.ts';
import type { ListeningServer } from '../index.ts';

let h: ReturnType<typeof harness>;
let server: ListeningServer;

beforeAll(async () => {
  h = harness();
  server = await h.sim.listen(0);
  // 120 usage entries over three days and two numbers, so paging has something to page.
  for (let i = 0; i < 120; i++) {
    const at = new Date(Date.parse('2026-03-01T00:00:00Z') - (i % 3) * 86_400_000 - i * 1000).toISOString();
    await h.sim.control.request('POST', `/accounts/${ACME.accountId}/usage`, { meter: i % 2 ? 'sms' : 'outbound_seconds', quantity: 30 + i, at, phoneNumber: i % 2 ? '07012340001' : '07012340002' });
  }
});
afterAll(async () => {
  await server.close();
  await h.sim.close();
});

async function app(permissions: string[], connectedAt?: string, accountId = ACME.accountId): Promise<{ appId: string; token: string }> {
  return h.sim.control.request('POST', `/accounts/${accountId}/mcp-apps`, connectedAt ? { permissions, connectedAt } : { permissions });
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
}

async function usage(query: string, accountId = ACME.accountId, key = ACME.key) {
  return (await h.call('GET', `/v1/accounts/${accountId}/usage?${query}`, undefined, { key })).json;
}

describe('/mcp', () => {
  it('lists get_usage only for apps holding read:usage since before they connected', async () => {
    const granted = await connect((await app(['read:usage'])).token);
    const tools = await granted.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['get_usage']);
    expect(Object.keys(tools.tools[0]!.inputSchema.properties ?? {}).sort()).toEqual(['from', 'groupBy', 'includeToday', 'meter', 'page', 'pageSize', 'to']);
    await granted.close();
    for (const [permissions, connectedAt] of [[['read:calls'], undefined], [['read:usage'], '2025-12-31T23:59:59Z']] as const) {
      const client = await connect((await app([...permissions], connectedAt)).token);
      expect((await client.listTools()).tools, JSON.stringify(permissions)).toEqual([]);
      await expect(client.callTool({ name: 'get_usage', arguments: {} })).rejects.toThrow(/not found/);
      await client.close();
    }
  });

  it('answers exactly what getUsage answers for the same arguments, 50 records per page by default', async () => {
    const client = await connect((await app(['read:usage'])).token);
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'pageSize=50'],
      [{ groupBy: ['day', 'number'] }, 'groupBy=day&groupBy=number&pageSize=50'],
      [{ groupBy: ['day', 'number'], page: 2 }, 'groupBy=day&groupBy=number&page=2&pageSize=50'],
      [{ from: '2026-02-01T00:00:00Z', to: '2026-03-02T00:00:00Z', meter: ['sms'], groupBy: ['day'], pageSize: 2, page: 2 }, 'from=2026-02-01T00:00:00Z&to=2026-03-02T00:00:00Z&meter=sms&groupBy=day&pageSize=2&page=2'],
      [{ includeToday: true, meter: 'sms' }, 'includeToday=true&meter=sms&pageSize=50'],
    ];
    for (const [args, query] of cases) {
      const r = await client.callTool({ name: 'get_usage', arguments: args });
      expect(r.isError, JSON.stringify(args)).toBe(false);
      const expected = await usage(query);
      expect(r.structuredContent, JSON.stringify(args)).toEqual(expected);
      expect(JSON.parse((r.content as { text: string }[])[0]!.text)).toEqual(expected);
    }
    const paged = (await client.callTool({ name: 'get_usage', arguments: { groupBy: ['day', 'number'] } })).structuredContent as any;
    expect(paged.meta.pageSize).toBe(50);
    // Something to compare: rows exist (paging itself is compared with pageSize 2 above).
    expect(paged.records.length).toBeGreaterThan(0);
    expect(paged.meta.total).toBeGreaterThan(0);
    await client.close();
  });

  it('refuses what the query refuses, as a tool error with the same error body', async () => {
    const client = await connect((await app(['read:usage'])).token);
    for (const [args, query] of [
      [{ from: '2026-01-01T00:00:00Z' }, 'from=2026-01-01T00:00:00Z'],
      [{ groupBy: ['week'] }, 'groupBy=week'],
      [{ pageSize: 0 }, 'pageSize=0'],
    ] as const) {
      const r = await client.callTool({ name: 'get_usage', arguments: args });
      expect(r.isError, JSON.stringify(args)).toBe(true);
      const body = JSON.parse((r.content as { text: string }[])[0]!.text);
      expect(body.code).toBe((await usage(query)).code);
    }
    const unknown = await client.callTool({ name: 'get_usage', arguments: { accountId: BISTRO.accountId } });
    expect(unknown.isError).toBe(true);
    await client.close();
  });

  it('scopes results to the app\'s account', async () => {
    const client = await connect((await app(['read:usage'], undefined, BISTRO.accountId)).token);
    const r = await client.callTool({ name: 'get_usage', arguments: {} });
    expect(r.structuredContent).toEqual(await usage('pageSize=50', BISTRO.accountId, BISTRO.key));
    await client.close();
  });

  it('needs an app token: 401 without or with a wrong one; GET answers 405; registration needs a known account', async () => {
    const post = (auth?: string) =>
      fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    expect((await post()).status).toBe(401);
    expect((await post(`Bearer ${ACME.key}`)).status).toBe(401);
    expect((await fetch(`${server.url}/mcp`)).status).toBe(405);
    const r = await h.call('POST', '/_sim/accounts/AC00000000/mcp-apps', { permissions: ['read:usage'] });
    expect(r.status).toBe(404);
    const bad = await h.call('POST', `/_sim/accounts/${ACME.accountId}/mcp-apps`, { permissions: ['READ USAGE'] });
    expect(bad.status).toBe(400);
    const snapshot = JSON.stringify(await h.sim.control.snapshot());
    const { token } = await app(['read:usage']);
    expect(JSON.stringify(await h.sim.control.snapshot())).not.toContain(token);
    expect(snapshot).toContain('tokenHash');
  });
});
