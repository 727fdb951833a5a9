// Managed agents over HTTP: the 13 agent operations with the public API document's paths,
// statuses and wire names; knowledge uploads (JSON, text and PDF files) and their refusals;
// MCP bindings with real connection tests; the behaviour control plane; isolation and state.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, BISTRO } from './helpers.ts';
import { textPdf } from './pdf-fixture.ts';
import { multipart } from './multipart.ts';

type H = ReturnType<typeof harness>;
let h: H;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.sim.close();
});

async function agent(body: Record<string, unknown> = { name: '상담원' }): Promise<string> {
  const r = await h.call('POST', h.acme('/agents'), body);
  expect(r.status, r.text).toBe(201);
  return r.json.agentId;
}

describe('agents', () => {
  it('create with only a name, get, list newest first; another account sees 404', async () => {
    const first = await agent();
    await h.sim.control.request('POST', '/clock/advance', { seconds: 1 });
    const second = await agent({ name: 'two', greeting: false, instructions: '짧게 답하세요' });
    const got = await h.call('GET', h.acme(`/agents/${first}`));
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({
      agentId: first,
      name: '상담원',
      greeting: true,
      language: 'ko',
      model: 'gpt-realtime-2.1-mini',
      voice: '7706804e-ea85-443a-968a-b9bf363bdde8',
      voiceProvider: 'cartesia',
      voiceModel: 'sonic-3.5',
      phoneNumbers: [],
      configuration: { outputMode: 'external_tts', language: 'ko', knowledge: { enabled: false, topK: 5 }, stt: null, vad: null, session: null, llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1-mini' } },
    });
    const list = await h.call('GET', h.acme('/agents'));
    expect(list.json.data.map((a: { agentId: string }) => a.agentId)).toEqual([second, first]);
    expect((await h.call('GET', h.bistro(`/agents/${first}`), undefined, { key: BISTRO.key })).status).toBe(404);
    expect((await h.call('GET', h.bistro('/agents'), undefined, { key: BISTRO.key })).json).toEqual({ data: [] });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no name', {}, 'name'],
    ['a name over 80', { name: 'x'.repeat(81) }, 'name'],
    ['instructions over 16,000', { name: 'x', instructions: 'x'.repeat(16_001) }, 'instructions'],
    ['an unknown model', { name: 'x', model: 'gpt-9' }, 'model'],
    ['a voice that is no UUID', { name: 'x', voice: 'minji' }, 'voice'],
    ['model with configuration', { name: 'x', model: 'gpt-realtime-2.1', configuration: { outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'ash' } } }, 'model'],
    ['a TTS speed of 2', { name: 'x', configuration: { outputMode: 'external_tts', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1' }, tts: { provider: 'cartesia', model: 'sonic-3.5', voice: '7706804e-ea85-443a-968a-b9bf363bdde8', speed: 2 } } }, 'configuration.tts.speed'],
  ])('refuses %s with 400 naming the field, storing nothing', async (_, body, path) => {
    const r = await h.call('POST', h.acme('/agents'), body);
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { path: string }) => e.path)).toContain(path);
    expect((await h.call('GET', h.acme('/agents'))).json.data).toEqual([]);
  });

  it('PATCH replaces the configuration whole; model/voice out of their mode are 409', async () => {
    const id = await agent();
    const r = await h.call('PATCH', h.acme(`/agents/${id}`), { greeting: false, configuration: { outputMode: 'realtime_voice', llm: { provider: 'openai-realtime', model: 'gpt-realtime-2.1', voice: 'coral' } } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ greeting: false, model: 'gpt-realtime-2.1', voice: 'coral', voiceProvider: 'openai', voiceModel: null, configuration: { tts: null, knowledge: { enabled: false, topK: 5 } } });
    const v = await h.call('PATCH', h.acme(`/agents/${id}`), { voice: '7706804e-ea85-443a-968a-b9bf363bdde8' });
    expect(v.status).toBe(409);
    expect(v.json.code).toBe('agent_mode_conflict');
    expect((await h.call('PATCH', h.acme(`/agents/${id}`), {})).status).toBe(400);
    expect((await h.call('PATCH', h.acme('/agents/AGnope'), { name: 'x' })).status).toBe(404);
  });

  it('delete: 409 while a number routes to it, then 204 and gone', async () => {
    const id = await agent();
    const numbers = (await h.call('GET', h.acme('/numbers'))).json.data as { number: string; numberType: string }[];
    const n = numbers.find((x) => x.numberType === 'did')!.number;
    const routed = await h.call('PUT', h.acme(`/numbers/${n}`), { routingType: 'agent', agentId: id });
    expect(routed.status, routed.text).toBe(200);
    expect((await h.call('GET', h.acme(`/agents/${id}`))).json.phoneNumbers).toEqual([n]);
    const refused = await h.call('DELETE', h.acme(`/agents/${id}`));
    expect(refused.status).toBe(409);
    expect(refused.json).toMatchObject({ code: 'agent_in_use', phoneNumbers: [n], callBatches: [] });
    await h.call('PUT', h.acme(`/numbers/${n}`), { routingType: 'webhook', webhookUrl: 'https://example.com/hook' });
    expect((await h.call('DELETE', h.acme(`/agents/${id}`))).status).toBe(204);
    expect((await h.call('GET', h.acme(`/agents/${id}`))).status).toBe(404);
  });

  it('a number may route only to an agent of its account', async () => {
    const theirs = (await h.call('POST', h.bistro('/agents'), { name: 'b' }, { key: BISTRO.key })).json.agentId;
    const n = ((await h.call('GET', h.acme('/numbers'))).json.data as { number: string; numberType: string }[]).find((x) => x.numberType === 'did')!.number;
    expect((await h.call('PUT', h.acme(`/numbers/${n}`), { routingType: 'agent', agentId: theirs })).status).toBe(400);
  });

  it('lists the voice catalogue', async () => {
    const r = await h.call('GET', h.acme('/agents/voices'));
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(14);
    expect(r.json.data[0]).toEqual({ id: '7706804e-ea85-443a-968a-b9bf363bdde8', provider: 'cartesia', model: 'sonic-3.5', name: 'Minji - Modern Communicator', description: expect.any(String), language: 'ko', country: 'KR', gender: 'feminine', isFeatured: true, isCustom: false });
  });
});

describe('knowledge documents', () => {
  it('JSON text and files are indexed inside the request; list newest first; delete; reindex', async () => {
    const id = await agent();
    const base = h.acme(`/agents/${id}/knowledge`);
    const refund = '환불은 결제일로부터 7일 이내에 요청할 수 있습니다.';
    const text = await h.call('POST', base, { title: '환불', text: refund });
    expect(text.status, text.text).toBe(201);
    expect(text.json).toMatchObject({ title: '환불', sourceType: 'text', status: 'ready', charCount: [...refund].length, chunkCount: 1, embeddingModel: 'sim-lexical-bm25-v1' });
    const md = await multipart(h.sim, base, { file: { fileName: 'faq.md', bytes: '# 배송\n보통 2일\n# 교환\n7일 이내' } });
    expect(md.status).toBe(201);
    expect(md.json).toMatchObject({ title: 'faq.md', sourceType: 'markdown', chunkCount: 2 });
    const pdf = await multipart(h.sim, base, { title: '정책', file: { fileName: 'policy.pdf', bytes: textPdf([['영업시간은 9시부터 6시까지입니다']]) } });
    expect(pdf.status).toBe(201);
    expect(pdf.json).toMatchObject({ title: '정책', sourceType: 'pdf', status: 'ready', chunkCount: 1 });
    const list = await h.call('GET', base);
    expect(list.json.data.map((d: { documentId: string }) => d.documentId)).toEqual([pdf.json.documentId, md.json.documentId, text.json.documentId]);
    const again = await h.call('POST', `${base}/${md.json.documentId}/reindex`);
    expect(again.status).toBe(200);
    expect(again.json.chunkCount).toBe(2);
    expect((await h.call('DELETE', `${base}/${md.json.documentId}`)).status).toBe(204);
    expect((await h.call('DELETE', `${base}/${md.json.documentId}`)).status).toBe(404);
  });

  it.each<[string, Record<string, string | { fileName: string; bytes: string }>, number, string]>([
    ['a spreadsheet', { file: { fileName: 'data.xlsx', bytes: 'x' } }, 400, 'file'],
    ['text and a file', { text: 'x', file: { fileName: 'a.txt', bytes: 'x' } }, 400, 'text'],
    ['no file', { title: 'x' }, 400, 'file'],
    ['an unknown field', { file: { fileName: 'a.txt', bytes: 'x' }, tags: 'a' }, 400, 'tags'],
  ])('refuses %s, storing nothing', async (_, parts, status, path) => {
    const id = await agent();
    const r = await multipart(h.sim, h.acme(`/agents/${id}/knowledge`), parts);
    expect(r.status).toBe(status);
    expect(r.json.errors[0].path).toBe(path);
    expect((await h.call('GET', h.acme(`/agents/${id}/knowledge`))).json.data).toEqual([]);
  });

  it('a file over 10 MB is 413; indexing failure (scripted) keeps the document failed until reindexed', async () => {
    const id = await agent();
    const base = h.acme(`/agents/${id}/knowledge`);
    const big = await multipart(h.sim, base, { file: { fileName: 'big.txt', bytes: new Uint8Array(10 * 1024 * 1024 + 1).fill(97) as unknown as string } });
    expect(big.status).toBe(413);
    await h.sim.control.request('PUT', '/agents/knowledge-indexing', { available: false });
    const failed = await h.call('POST', base, { text: '배송은 2일' });
    expect(failed.status).toBe(502);
    const [doc] = (await h.call('GET', base)).json.data;
    expect(doc).toMatchObject({ status: 'failed', chunkCount: 0 });
    await h.sim.control.request('PUT', '/agents/knowledge-indexing', { available: true });
    expect((await h.call('POST', `${base}/${doc.documentId}/reindex`)).json).toMatchObject({ status: 'ready', chunkCount: 1 });
  });
});

describe('MCP bindings', () => {
  it('attach a tested connection\'s tools; untested and unknown tools refused; agentCount follows', async () => {
    const id = await agent();
    const server = await h.sim.control.request<{ url: string }>('POST', '/mcp/servers', { tools: [{ name: 'get_reservation' }, { name: 'cancel' }] });
    const conn = (await h.call('POST', h.acme('/mcp-connections'), { name: 'CRM', url: server.url })).json.connectionId;
    const put = (body: unknown) => h.call('PUT', h.acme(`/agents/${id}/mcp-connections/${conn}`), body);
    const untested = await put({ allowedTools: ['cancel'] });
    expect(untested.status).toBe(409);
    expect(untested.json.code).toBe('MCP_CONNECTION_UNTESTED');
    expect((await h.call('POST', h.acme(`/mcp-connections/${conn}/test`))).status).toBe(200);
    const unknown = await put({ allowedTools: ['cancel', 'drop_tables'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors[0].path).toBe('allowedTools[1]');
    expect((await put({ allowedTools: [] })).status).toBe(400);
    const ok = await put({ allowedTools: ['get_reservation'], failureMode: 'fail_session' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.json).toMatchObject({ connectionId: conn, name: 'CRM', host: '127.0.0.1', status: 'tested', enabled: true, allowedTools: ['get_reservation'], failureMode: 'fail_session', missingTools: [] });
    expect((await h.call('GET', h.acme(`/agents/${id}/mcp-connections`))).json.data).toHaveLength(1);
    expect((await h.call('DELETE', h.acme(`/agents/${id}/mcp-connections/${conn}`))).json).toEqual({ deleted: true });
    expect((await h.call('DELETE', h.acme(`/agents/${id}/mcp-connections/${conn}`))).status).toBe(404);
  });
});

describe('behaviour (control plane)', () => {
  it('PUT stores it with defaults; GET reads it; DELETE restores the default; bad rules are 400', async () => {
    const id = await agent();
    const path = `/agents/${id}/behaviour`;
    const def = await h.sim.control.request<{ custom: boolean; rules: unknown[] }>('GET', path);
    expect(def).toMatchObject({ agentId: id, custom: false, rules: [], maxTurns: 20 });
    const put = await h.sim.control.request('PUT', path, { rules: [{ heard: '예약', say: '네' }] });
    expect(put).toMatchObject({ custom: true, rules: [{ heard: '예약', say: '네', tool: null, transfer: null, optOut: null, hangup: false }], greeting: '안녕하세요, 무엇을 도와드릴까요?' });
    const bad = await h.sim.handle({ method: 'PUT', url: `/_sim${path}`, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [{ heard: 'x', tool: { name: 'echo' } }] }) });
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body).errors[0].path).toBe('rules[0].tool.name');
    const del = await h.sim.handle({ method: 'DELETE', url: `/_sim${path}` });
    expect(del.status).toBe(204);
    expect(await h.sim.control.request('GET', path)).toMatchObject({ custom: false });
    expect((await h.sim.handle({ method: 'GET', url: '/_sim/agents/AGnope/behaviour' })).status).toBe(404);
  });

  it('agents, knowledge and behaviours are state: a snapshot restores them exactly', async () => {
    const id = await agent();
    await h.call('POST', h.acme(`/agents/${id}/knowledge`), { text: '환불 규정' });
    await h.sim.control.request('PUT', `/agents/${id}/behaviour`, { rules: [{ heard: 'a', hangup: true }] });
    const snap = h.sim.snapshot();
    await h.sim.control.request('POST', '/reset', {});
    expect((await h.call('GET', h.acme('/agents'))).json.data).toEqual([]);
    h.sim.restore(snap);
    expect((await h.call('GET', h.acme(`/agents/${id}/knowledge`))).json.data).toHaveLength(1);
    expect(await h.sim.control.request('GET', `/agents/${id}/behaviour`)).toMatchObject({ custom: true });
    expect(JSON.stringify(h.sim.snapshot())).toBe(JSON.stringify(snap));
  });
});
