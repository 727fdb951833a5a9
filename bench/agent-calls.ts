// Managed agent calls (docs/decisions.md "Managed agents"): 10,000 agent calls of 10 turns each, every call with
// one real MCP tools/call to a local fake MCP server (built with the official SDK), placed with
// the in-process API and run to their end on the virtual clock; budget < 30 s wall. Reports wall
// and CPU time of the process (the fake server runs in it too) and the clock jobs run.
// Run alone with `node --import tsx bench/agent-calls.ts`; `npm run bench` runs it too.
import { createSimulator } from '../simulator/index.ts';
import { runtimeOf } from '../simulator/internal.ts';

export const AGENT_CALLS_BUDGET_MS = 30_000;
const CALLS = Number(process.env.BENCH_AGENT_CALLS ?? 10_000);
const ACCOUNT = 'AC1a2b3c4d';
const HEADERS = { authorization: 'Bearer sk_test_acme_4f9c2b7e1d3a5c8f', 'content-type': 'application/json' };

async function request(sim: ReturnType<typeof createSimulator>, method: string, path: string, body?: unknown) {
  const res = await sim.handle({ method, url: path, headers: HEADERS, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${res.body}`);
  return (res.body ? JSON.parse(res.body) : {}) as Record<string, any>;
}

export interface AgentCallsBench {
  calls: number;
  ms: number;
  placeMs: number;
  advanceMs: number;
  cpuMs: number;
  turns: number;
  toolCalls: number;
  jobs: number;
}

/** Places CALLS agent calls (10 phone lines, one tool call each) and runs them to their end. */
export async function benchAgentCalls(): Promise<AgentCallsBench> {
  const sim = createSimulator();
  const ctl = sim.control.request;
  const server = await ctl<{ url: string; serverId: string }>('POST', '/mcp/servers', { tools: [{ name: 'get_order', result: { status: '배송 중', id: '{{arguments.id}}' } }] });
  const conn = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/mcp-connections`, { name: 'shop', url: server.url });
  await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/mcp-connections/${conn.connectionId}/test`);
  const agent = await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/agents`, { name: 'bench' });
  await request(sim, 'PUT', `/v1/accounts/${ACCOUNT}/agents/${agent.agentId}/mcp-connections/${conn.connectionId}`, { allowedTools: ['get_order'] });
  await ctl('PUT', `/agents/${agent.agentId}/behaviour`, {
    greeting: '안녕하세요 {{var.name}}님, 무엇을 도와드릴까요?',
    rules: [
      { heard: '주문 (\\d+)', tool: { name: 'get_order', arguments: { id: '{{1}}' } }, say: '{{tool.id}}번 주문은 {{tool.status}}입니다' },
      { heard: '.', say: '네, 말씀하세요' },
    ],
    maxTurns: 10,
  });
  const lines = ['주문 123 확인해 주세요', ...Array.from({ length: 9 }, (_, i) => `질문 ${i + 1}번입니다`)];
  await ctl('POST', '/carrier/scripts', { prefix: '0104', outcome: 'delivered', types: ['call'], lines });
  const rt = runtimeOf(sim);
  const jobsBefore = rt.clock.snapshot().nextJobId;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < CALLS; i++) {
    const to = `0104${String(1000000 + i).slice(-7)}`;
    await request(sim, 'POST', `/v1/accounts/${ACCOUNT}/calls`, { To: to, From: '07012340001', AgentId: agent.agentId, CallContext: { Instruction: '짧게', Variables: { name: `c${i}` } } });
  }
  const t1 = performance.now();
  await sim.clock.advance({ seconds: 3600 });
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const rows = rt.calls.calls.all();
  const open = rows.filter((c) => c.dateUpdated === null).length;
  if (open > 0 || rows.length !== CALLS) throw new Error(`${open} of ${rows.length} calls did not end`);
  let turns = 0;
  let toolCalls = 0;
  for (const r of rows) {
    for (const t of r.conversation ?? []) {
      if (t.text !== null) turns++;
      if (t.detail.tool?.ok) toolCalls++;
    }
  }
  if (toolCalls !== CALLS) throw new Error(`${toolCalls} successful tool calls for ${CALLS} calls`);
  const jobs = rt.clock.snapshot().nextJobId - jobsBefore;
  await sim.close();
  return { calls: CALLS, ms: t2 - t0, placeMs: t1 - t0, advanceMs: t2 - t1, cpuMs: (cpu.user + cpu.system) / 1000, turns, toolCalls, jobs };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await benchAgentCalls();
  console.log(
    `${r.calls} agent calls, ${r.turns} spoken turns, ${r.toolCalls} MCP tool calls: ${r.ms.toFixed(0)} ms wall (placing ${r.placeMs.toFixed(0)}, advancing ${r.advanceMs.toFixed(0)}), ${r.cpuMs.toFixed(0)} ms CPU, ${r.jobs} clock jobs; budget ${AGENT_CALLS_BUDGET_MS} ms`,
  );
}
