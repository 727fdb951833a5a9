// Agent calls end to end through the API: createCall with AgentId and CallContext, a scripted
// phone that talks, a real MCP tool call to a fake server, the conversation in the call view and
// on the phone, durations, opt-outs, transfers, inbound calls to a number routed `agent` with its
// callContextUrl and dictionary, and batches with AgentId.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, ACME } from './helpers.ts';

type H = ReturnType<typeof harness>;
let h: H;
beforeEach(() => {
  h = harness();
});
afterEach(async () => {
  await h.sim.close();
});

const FROM = '07012340001';
const ctl = <T = any>(method: string, path: string, body?: unknown) => h.sim.control.request<T>(method, path, body);
const advance = (seconds: number) => ctl('POST', '/clock/advance', { seconds });

async function agent(behaviour?: Record<string, unknown>, body: Record<string, unknown> = { name: 'bot' }): Promise<string> {
  const r = await h.call('POST', h.acme('/agents'), body);
  expect(r.status, r.text).toBe(201);
  if (behaviour) await ctl('PUT', `/agents/${r.json.agentId}/behaviour`, behaviour);
  return r.json.agentId;
}

async function place(agentId: string, to: string, extra: Record<string, unknown> = {}): Promise<string> {
  const r = await h.call('POST', h.acme('/calls'), { To: to, From: FROM, AgentId: agentId, ...extra });
  expect(r.status, r.text).toBe(201);
  return r.json.callId;
}

const said = (conversation: { speaker: string; text: string | null; startMs: number; endMs: number }[]) =>
  conversation.filter((t) => t.text !== null).map((t) => `${t.startMs / 1000}-${t.endMs / 1000} ${t.speaker}: ${t.text}`);

describe('agent calls', () => {
  it('createCall with AgentId: the agent and the scripted phone talk, the call ends when the phone has nothing left', async () => {
    const id = await agent({ greeting: '안녕하세요 {{var.name}}님', rules: [{ heard: '예약', say: '예약을 도와드릴게요' }], fallback: '네' });
    await ctl('POST', '/carrier/scripts', { number: '010-3000-0001', outcome: 'delivered', types: ['call'], lines: ['예약하려고요', '고마워요'] });
    const callId = await place(id, '010-3000-0001', { CallContext: { Instruction: '친절하게', Variables: { name: '민수' } } });
    await advance(60);
    const view = await ctl('GET', `/calls/${callId}`);
    // The phone's turn after "네" (8-9 s) comes at 10 s; with nothing left to say it hangs up then.
    expect(view.call).toMatchObject({ status: 'completed', hangupSource: 'callee', hangupCause: 'normal_clearing', duration: 10 });
    expect(view.handler).toEqual({ kind: 'agent', target: id, context: { instruction: '친절하게', variables: { name: '민수' } } });
    expect(said(view.conversation)).toEqual(['0-1 agent: 안녕하세요 민수님', '2-3 caller: 예약하려고요', '4-5 agent: 예약을 도와드릴게요', '6-7 caller: 고마워요', '8-9 agent: 네']);
    const phone = await ctl('GET', '/carrier/phones/01030000001');
    expect(phone.calls[0].conversation.map((t: { text: string }) => t.text)).toEqual(['안녕하세요 민수님', '예약하려고요', '예약을 도와드릴게요', '고마워요', '네']);
    // The whole call is recorded (a signed link before 2026-07-28): a WAV of the call's 10 s.
    const url = (await h.call('GET', h.acme(`/calls/${callId}`))).json.recordingUrl as string;
    expect(url.startsWith(`/v1/accounts/${ACME.accountId}/recordings/${callId}`)).toBe(true);
    const wav = await h.call('GET', h.acme(`/recordings/${callId}`));
    expect(wav.status).toBe(200);
    expect(wav.bytes!.byteLength).toBe(44 + 10 * 8000 * 2);
    // Its transcript, once requested, is the conversation itself.
    expect((await h.call('POST', h.acme(`/calls/${callId}/transcript`))).status).toBeLessThan(300);
    await advance(120);
    const transcript = (await h.call('GET', h.acme(`/calls/${callId}/transcript`))).json;
    expect(transcript.segments).toEqual([
      { speaker: 'AGENT', start: 0, end: 1, text: '안녕하세요 민수님' },
      { speaker: 'CUSTOMER', start: 2, end: 3, text: '예약하려고요' },
      { speaker: 'AGENT', start: 4, end: 5, text: '예약을 도와드릴게요' },
      { speaker: 'CUSTOMER', start: 6, end: 7, text: '고마워요' },
      { speaker: 'AGENT', start: 8, end: 9, text: '네' },
    ]);
    const summary = (await h.call('GET', h.acme(`/calls/${callId}/summary`))).json;
    expect(summary.resultJson).toMatchObject({ sentiment: 'positive', coreSummary: expect.stringContaining('예약하려고요') });
  });

  it('refuses an unknown agent, another account\'s agent, snake_case CallContext and CallContext without AgentId; nothing stored', async () => {
    const id = await agent();
    const before = (await h.call('GET', h.acme('/calls'))).json.meta.total;
    const unknown = await h.call('POST', h.acme('/calls'), { To: '01030000002', From: FROM, AgentId: 'AGnope' });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'agent_not_found', errors: [{ path: 'AgentId' }] });
    const theirs = (await h.call('POST', h.bistro('/agents'), { name: 'b' }, { key: 'sk_test_bistro_9a8b7c6d5e4f3a2b' })).json.agentId;
    expect((await h.call('POST', h.acme('/calls'), { To: '01030000002', From: FROM, AgentId: theirs })).status).toBe(404);
    const snake = await h.call('POST', h.acme('/calls'), { To: '01030000002', From: FROM, AgentId: id, CallContext: { instruction: 'x' } });
    expect(snake.status).toBe(400);
    expect((await h.call('POST', h.acme('/calls'), { To: '01030000002', From: FROM, CallContext: { Instruction: 'x' } })).status).toBe(400);
    const long = await h.call('POST', h.acme('/calls'), { To: '01030000002', From: FROM, AgentId: id, CallContext: { Instruction: 'x'.repeat(4001) } });
    expect(long.status).toBe(400);
    expect((await h.call('GET', h.acme('/calls'))).json.meta.total).toBe(before);
  });

  it('calls an MCP tool for real during the call; an opt-out and a hang-up follow the line', async () => {
    const server = await ctl<{ url: string; serverId: string }>('POST', '/mcp/servers', { tools: [{ name: 'get_order', result: { status: '배송 중', id: '{{arguments.id}}' } }] });
    const conn = (await h.call('POST', h.acme('/mcp-connections'), { name: 'shop', url: server.url })).json.connectionId;
    expect((await h.call('POST', h.acme(`/mcp-connections/${conn}/test`))).status).toBe(200);
    const id = await agent();
    expect((await h.call('PUT', h.acme(`/agents/${id}/mcp-connections/${conn}`), { allowedTools: ['get_order'] })).status).toBe(200);
    expect((await h.call('GET', h.acme(`/mcp-connections/${conn}`))).json.agentCount).toBe(1);
    await ctl('PUT', `/agents/${id}/behaviour`, {
      greeting: '주문 번호를 말씀해 주세요',
      rules: [
        { heard: '(\\d+)번', tool: { name: 'get_order', arguments: { id: '{{1}}' } }, say: '{{tool.id}}번 주문은 {{tool.status}}입니다' },
        { heard: '그만', say: '수신거부 처리했습니다', optOut: 'call', hangup: true },
      ],
    });
    await ctl('POST', '/carrier/scripts', { number: '010-3000-0003', outcome: 'delivered', types: ['call'], lines: ['77번이요', '이제 그만 전화하세요'] });
    const callId = await place(id, '010-3000-0003');
    await advance(60);
    const view = await ctl('GET', `/calls/${callId}`);
    const tool = view.conversation.find((t: { detail: { tool?: unknown } }) => t.detail.tool);
    expect(tool).toMatchObject({ speaker: 'agent', text: '77번 주문은 배송 중입니다', detail: { tool: { name: 'get_order', arguments: { id: '77' }, connectionId: conn, ok: true, latencyMs: 300 }, rule: 'rule 0 ((\\d+)번)' } });
    expect(view.call).toMatchObject({ status: 'completed', hangupSource: 'caller' });
    const blocks = await h.call('GET', h.acme('/blocked-recipients?number=01030000003'));
    expect(blocks.json.data[0]).toMatchObject({ channel: 'call', source: 'agent', sourceRef: callId });
    const requests = (await ctl('GET', `/mcp/servers/${server.serverId}`)).requests.map((r: { rpcMethod: string }) => r.rpcMethod);
    expect(requests).toContain('tools/call');
    const del = await h.call('DELETE', h.acme(`/mcp-connections/${conn}`));
    expect(del.json).toEqual({ deleted: true, affectedAgents: [{ agentId: id, name: 'bot' }] });
    expect((await h.call('GET', h.acme(`/agents/${id}/mcp-connections`))).json.data).toEqual([]);
  });

  it('transfers the caller: a connected leg ends the call with the party; the leg is recorded as a transfer', async () => {
    const id = await agent({ greeting: 'hi', rules: [{ heard: 'human', say: 'connecting', transfer: { to: '010-3000-0099', mode: 'warm' } }] });
    await ctl('POST', '/carrier/scripts', { number: '010-3000-0004', outcome: 'delivered', types: ['call'], lines: ['a human please'] });
    await ctl('POST', '/carrier/scripts', { number: '010-3000-0099', outcome: 'delivered', types: ['call'], delaySeconds: 2, hangupAfterSeconds: 20 });
    const callId = await place(id, '010-3000-0004');
    await advance(120);
    const call = (await h.call('GET', h.acme(`/calls/${callId}`))).json;
    expect(call).toMatchObject({ status: 'completed', transferTo: '01030000099', transferStatus: 'completed', transferDuration: 20 });
    // The fixture's clock is before 2026-07-10: legs of then carry no destinationType (spec Versioning 6).
    expect(call.transfers[0]).toMatchObject({ sequence: 1, mode: 'warm', destinationType: null, status: 'completed' });
    // Warm: the caller holds while the party rings (2 s); the party hears the whisper, then the caller is bridged.
    const turns = (await ctl('GET', `/calls/${callId}`)).conversation as { text: string | null; startMs: number; endMs: number; detail: { events?: string[] } }[];
    const events = turns.flatMap((t) => (t.detail.events ?? []).map((e) => `${t.startMs / 1000}:${e}`));
    expect(events).toEqual(['6:transfer:010-3000-0099', '6:hold', '8:whisper', '12:bridged']);
    expect(call.duration).toBe(28); // the party talks 20 s from its answer at 8 s
    expect(turns.find((t) => t.detail.events?.includes('whisper'))!.text).toBe('고객님 전화를 연결합니다. 고객님 말씀: "a human please"');
  });

  it('inbound calls to a number routed agent: callContextUrl fetched before the answer, the number\'s dictionary rewrites what the agent hears', async () => {
    const received: { body: string; signature: string | undefined }[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ body, signature: req.headers['x-signature'] as string | undefined });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ Instruction: 'VIP', Variables: { tier: 'gold' } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/context`;
      const dict = (await h.call('POST', h.acme('/dictionaries'), { name: 'terms' })).json.id;
      await h.call('POST', h.acme(`/dictionaries/${dict}/terms`), { term: '클로옵스', canonical: 'ClawOps' });
      const id = await agent({ greeting: '{{var.tier}} 고객님', rules: [{ heard: 'ClawOps', say: 'ClawOps 상담입니다' }] });
      const routed = await h.call('PUT', h.acme(`/numbers/${FROM}`), { routingType: 'agent', agentId: id, callContextUrl: url, dictionaryId: dict });
      expect(routed.status, routed.text).toBe(200);
      const inbound = await ctl<{ callId: string }>('POST', '/carrier/inbound-calls', { from: '010-3000-0005', to: FROM, lines: ['클로옵스 문의요'] });
      await advance(30);
      expect(received).toHaveLength(1);
      expect(received[0]!.body).toContain(`CallId=${inbound.callId}`);
      expect(received[0]!.signature).toBeTruthy();
      const view = await ctl('GET', `/calls/${inbound.callId}`);
      expect(view.handler.context).toEqual({ instruction: 'VIP', variables: { tier: 'gold' } });
      expect(said(view.conversation)).toEqual(['0-1 agent: gold 고객님', '2-3 caller: ClawOps 문의요', '4-6 agent: ClawOps 상담입니다']);
      expect(view.conversation[1].detail.spoken).toBe('클로옵스 문의요');
      expect(view.call).toMatchObject({ direction: 'inbound', status: 'completed', hangupSource: 'caller' });
    } finally {
      server.close();
    }
  });

  it('a batch with AgentId calls each recipient through the agent; the agent cannot be deleted meanwhile', async () => {
    const id = await agent({ greeting: '안내 전화입니다', rules: [], fallback: '{{var.name}}님 감사합니다' });
    await ctl('POST', '/clock/advance', { to: '2026-03-02T01:00:00Z' }); // 10:00 Korea time
    await ctl('POST', '/carrier/scripts', { prefix: '0103001', outcome: 'delivered', types: ['call'], lines: ['네'] });
    const batch = await h.call('POST', h.acme('/call-batches'), { Name: 'b', From: FROM, AgentId: id, Tasks: [{ To: '01030010001', Variables: { name: '홍길동' } }, { To: '01030010002' }] });
    expect(batch.status, batch.text).toBe(200);
    expect(batch.json.agentId).toBe(id);
    const inUse = await h.call('DELETE', h.acme(`/agents/${id}`));
    expect(inUse.status).toBe(409);
    expect(inUse.json.callBatches).toEqual([batch.json.batchId]);
    await advance(600);
    const done = (await h.call('GET', h.acme(`/call-batches/${batch.json.batchId}`))).json;
    expect(done).toMatchObject({ status: 'completed', counts: { done: 2 } });
    // The recipient's Variables are the agent's CallContext variables.
    const tasks = (await h.call('GET', h.acme(`/call-batches/${batch.json.batchId}/tasks`))).json.tasks as { to: string; callId: string }[];
    const said = async (to: string) => {
      const callId = tasks.find((t) => t.to === to)!.callId;
      const walk = await ctl<{ conversation: { speaker: string; text: string | null }[] }>('GET', `/calls/${callId}`);
      return walk.conversation.filter((t) => t.speaker === 'agent' && t.text).map((t) => t.text);
    };
    expect(await said('01030010001')).toContain('홍길동님 감사합니다');
    expect(await said('01030010002')).toContain('님 감사합니다');
    expect((await h.call('POST', h.acme('/call-batches'), { Name: 'b', From: FROM, AgentId: 'AGnope', Tasks: [{ To: '01030010001' }] })).status).toBe(404);
  });
});
