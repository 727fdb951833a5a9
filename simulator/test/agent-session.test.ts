// A managed agent's call session with a fake call host (the calls family's side of the seam):
// turn-taking on the virtual clock, times on the media position, real MCP tool calls to a fake
// server picked up deterministically, failure modes, transfers, opt-outs, dictionaries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { SeededRandom } from '../core/random.ts';
import { References } from '../core/refs.ts';
import { IoBarrier } from '../core/io.ts';
import { ClockAdvancer } from '../core/advance.ts';
import { EgressGuard } from '../peers/egress.ts';
import { FakeDns } from '../peers/dns/model.ts';
import { FakeMcpServers } from '../peers/mcp/fake-servers.ts';
import { McpToolCaller } from '../peers/mcp/tool-caller.ts';
import { INITIAL_TALK, phoneTurn, type TalkScript, type TalkState } from '../peers/phone-talk.ts';
import { AgentsModel } from '../resources/agents/model.ts';
import { clockJobs } from './model-scope.ts';
import { AgentSessions, TOOL_WAIT_MS } from '../resources/agents/session.ts';
import type { ConnectionView } from '../resources/agents/bindings.ts';
import type { CallActions, EndedBy } from '../resources/agents/session-ports.ts';
import type { Turn } from '../resources/calls/conversation.ts';
import { rewriter } from '../resources/dictionaries/rewrite.ts';

const START = Date.parse('2026-09-01T00:00:00Z');
const A = 'AC1';
const fakes = new FakeMcpServers();
let serverUrl = '';
beforeAll(async () => {
  serverUrl = (await fakes.start({ tools: [{ name: 'get_reservation' }, { name: 'echo' }] })).url;
});
afterAll(() => fakes.stopAll());

/** A world with one agent, one tested connection to the fake server and a fake call host. */
function world(phone: TalkScript, opts: { dictionary?: Record<string, string>; target?: string } = {}) {
  const clock = new VirtualClock(START);
  const io = new IoBarrier();
  const advancer = new ClockAdvancer(clock, io);
  const tools = new McpToolCaller(new EgressGuard(() => new FakeDns(), io), fakes, () => 5000, io);
  io.register(tools);
  const connection: ConnectionView = { id: 'mcp_1', accountId: A, name: 'crm', host: '127.0.0.1', status: 'tested', enabled: true, tools: [{ name: 'get_reservation' }, { name: 'echo' }] };
  const agents = new AgentsModel({
    clock,
    random: new SeededRandom(1),
    refs: new References(),
    voices: () => ({ byVoice: () => undefined, readyOf: () => [] }),
    users: () => ({ numbersRoutedTo: () => [], batchesUsing: () => [] }),
    connections: () => ({ find: (_, id) => (id === connection.id ? connection : undefined) }),
  });
  const turns: Turn[] = [];
  const log: string[] = [];
  let talk: TalkState = INITIAL_TALK;
  let ended: EndedBy | null = null;
  const transfers: string[] = [];
  const host: CallActions = {
    speak: (_, t) => void turns.push(t),
    phoneTurn: (_, heard) => {
      const r = phoneTurn(phone, talk, heard);
      talk = r.state;
      return r.turn;
    },
    hangUp: (_, by) => {
      ended = by;
      sessions.ended('CA1');
    },
    transfer: (_, { to, mode }) => (transfers.push(`${to}:${mode}`), to === 'sip:nowhere' ? { started: false, status: 'failed', reason: 'no route' } : { started: true }),
    optOut: (_, channel) => void log.push(`optOut:${channel}`),
  };
  const sessions: AgentSessions = new AgentSessions({
    kernel: { clock, jobs: clockJobs(clock) },
    agents,
    call: () => host,
    targets: () => ({ target: () => ({ url: opts.target ?? serverUrl, transport: 'streamable_http', headers: {} }) }),
    tools: () => tools,
    hearing: () => rewriter(Object.entries(opts.dictionary ?? {}).map(([term, canonical]) => ({ term, canonical }))),
  });
  const agent = agents.create(A, { name: 'bot' });
  const answer = (variables: Record<string, string> = {}) => sessions.start({ callId: 'CA1', accountId: A, agentId: agent.id, answeredAt: clock.now(), variables, instruction: null, dictionaryId: null });
  const advance = async (seconds: number) => {
    await advancer.advance((now) => now + seconds * 1000);
  };
  const said = () => turns.map((t) => `${t.startMs / 1000}-${t.endMs / 1000} ${t.speaker}: ${t.text ?? `(${[t.detail.events?.join(','), t.detail.tool?.name, t.detail.dtmf].filter(Boolean).join(' ')})`}`);
  return { clock, agents, agent, sessions, turns, log, transfers, answer, advance, said, ended: () => ended, tools, connection };
}

describe('agent call sessions', () => {
  it('takes turns: greeting, the phone\'s lines, fallback answers, the phone hangs up with nothing left', async () => {
    const w = world({ replies: [], lines: ['예약하고 싶어요', '내일이요'] });
    w.agents.setBehaviour(w.agent, { greeting: '안녕하세요', rules: [{ heard: '예약', say: '언제로 해 드릴까요?' }], fallback: '네' });
    w.answer();
    await w.advance(60);
    expect(w.said()).toEqual([
      '0-1 agent: 안녕하세요',
      '2-3 caller: 예약하고 싶어요',
      '4-6 agent: 언제로 해 드릴까요?',
      '7-8 caller: 내일이요',
      '9-10 agent: 네',
    ]);
    expect(w.ended()).toBe('phone');
    expect(w.turns[2]!.detail.rule).toBe('rule 0 (예약)');
  });

  it('calls the MCP tool for real and speaks its result after TOOL_WAIT_MS', async () => {
    const w = world({ replies: [], lines: ['예약 42번 확인해 주세요'] });
    w.agents.bindings.set(A, w.agent.id, 'mcp_1', { allowedTools: ['get_reservation'] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: '(\\d+)번', tool: { name: 'get_reservation', arguments: { id: '{{1}}', who: '{{var.name}}' } }, say: '{{tool.arguments.id}}번, {{tool.arguments.who}}님 확인했습니다' }] });
    w.answer({ name: '민수' });
    await w.advance(30);
    const reply = w.turns.find((t) => t.detail.tool)!;
    expect(reply.text).toBe('42번, 민수님 확인했습니다');
    expect(reply.detail.tool).toMatchObject({ name: 'get_reservation', arguments: { id: '42', who: '민수' }, connectionId: 'mcp_1', ok: true, latencyMs: TOOL_WAIT_MS });
    // hi (0-1), caller (2-4), tool asked at 5, answered 5.3
    expect(reply.startMs).toBe(5000 + TOOL_WAIT_MS);
  });

  it('a failing tool: continue says the fallback; fail_session ends the call as an app error', async () => {
    for (const [failureMode, expected] of [['continue', 'sorry'], ['fail_session', null]] as const) {
      const w = world({ replies: [], lines: ['check'] }, { target: 'http://127.0.0.1:1/mcp' });
      w.agents.bindings.set(A, w.agent.id, 'mcp_1', { allowedTools: ['echo'], failureMode });
      w.agents.setBehaviour(w.agent, { greeting: 'hi', fallback: 'sorry', rules: [{ heard: 'check', tool: { name: 'echo' }, say: 'never' }] });
      w.answer();
      await w.advance(20);
      const failed = w.turns.find((t) => t.detail.tool)!;
      expect(failed.detail.tool).toMatchObject({ ok: false, name: 'echo' });
      expect(failed.text).toBe(expected);
      if (expected === null) expect(w.ended()).toBe('app_error');
    }
  });

  it('an untested connection is not used: its tool fails by the failureMode', async () => {
    const w = world({ replies: [], lines: ['check'] });
    w.agents.bindings.set(A, w.agent.id, 'mcp_1', { allowedTools: ['echo'] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', fallback: 'sorry', rules: [{ heard: 'check', tool: { name: 'echo' }, say: 'never' }] });
    w.connection.status = 'untested';
    w.answer();
    await w.advance(20);
    expect(w.turns.find((t) => t.detail.tool)).toMatchObject({ text: 'sorry', detail: { tool: { ok: false, result: expect.stringContaining('untested') } } });
  });

  it('fail_session with an unusable connection fails the session at once', async () => {
    const w = world({ replies: [], lines: ['x'] });
    w.agents.bindings.set(A, w.agent.id, 'mcp_1', { allowedTools: ['echo'], failureMode: 'fail_session' });
    w.connection.enabled = false;
    w.answer();
    expect(w.ended()).toBe('app_error');
    expect(w.turns).toEqual([]);
  });

  it('opts the caller out and hangs up after saying so; transfers after the line', async () => {
    const w = world({ replies: [{ heard: '^hi$', keys: '', say: 'stop calling me' }], lines: [] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: 'stop', say: 'removed', optOut: 'call', hangup: true }] });
    w.answer();
    await w.advance(20);
    expect(w.said()).toEqual(['0-1 agent: hi', '2-4 caller: stop calling me', '5-6 agent: removed', '6-6 agent: (optOut:call)', '6-6 agent: (hangup)']);
    expect(w.log).toEqual(['optOut:call']);
    expect(w.ended()).toBe('agent');

    const t = world({ replies: [], lines: ['사람 바꿔 주세요', '여보세요?'] });
    t.agents.setBehaviour(t.agent, { greeting: 'hi', rules: [{ heard: '사람', say: '연결합니다', transfer: { to: '01012345678', mode: 'warm' } }, { heard: '.', say: 'back' }] });
    t.answer();
    await t.advance(30);
    expect(t.transfers).toEqual(['01012345678:warm']);
    const before = t.turns.length;
    await t.advance(30);
    expect(t.turns.length).toBe(before); // waiting for the leg
    t.sessions.transferProgress('CA1', { phase: 'ended', status: 'no-answer', duration: 0, connected: false });
    await t.advance(30);
    // The leg's end is reported at 60 s; the agent takes the conversation back from there.
    expect(t.said().slice(-3)).toEqual(['60-60 agent: (transferFailed)', '61-62 caller: 여보세요?', '63-64 agent: back']);
  });

  it('a transfer that connected ends the call with the leg (the party hangs up); connecting alone changes nothing', async () => {
    const w = world({ replies: [], lines: ['사람 바꿔 주세요'] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: '사람', say: '연결합니다', transfer: { to: 'sip:desk@pbx.example.com' } }] });
    w.answer();
    await w.advance(20);
    expect(w.transfers).toEqual(['sip:desk@pbx.example.com:blind']);
    w.sessions.transferProgress('CA1', { phase: 'connected' });
    expect(w.ended()).toBeNull();
    w.sessions.transferProgress('CA1', { phase: 'ended', status: 'completed', duration: 60, connected: true });
    expect(w.ended()).toBe('party');
    expect(w.said().at(-1)).toBe('5-5 agent: (transfer:sip:desk@pbx.example.com)');
  });

  it('a warm transfer holds the caller; the answering party hears the whisper, then the caller is bridged', async () => {
    const w = world({ replies: [], lines: ['사람 바꿔 주세요'] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: '사람', say: '연결합니다', transfer: { to: '01012345678', mode: 'warm' } }] });
    w.answer();
    await w.advance(20);
    expect(w.transfers).toEqual(['01012345678:warm']);
    expect(w.said().at(-1)).toBe('5-5 agent: (transfer:01012345678,hold)');
    w.sessions.transferProgress('CA1', { phase: 'connected' }); // at 20 s
    const whisper = '고객님 전화를 연결합니다. 고객님 말씀: "사람 바꿔 주세요"'; // 34 characters: 4 s
    expect(w.turns.at(-1)).toMatchObject({ speaker: 'agent', text: whisper, startMs: 20_000, endMs: 24_000, detail: { events: ['whisper'] } });
    await w.advance(10);
    expect(w.said().at(-1)).toBe('24-24 agent: (bridged)');
    expect(w.ended()).toBeNull();
    w.sessions.transferProgress('CA1', { phase: 'ended', status: 'completed', duration: 60, connected: true });
    expect(w.ended()).toBe('party');
  });

  it('a warm transfer that does not connect returns the caller to the agent, with no whisper', async () => {
    const w = world({ replies: [], lines: ['사람 바꿔 주세요', '여보세요?'] });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: '사람', transfer: { to: '01012345678', mode: 'warm', whisper: 'VIP {{var.tier}}' } }, { heard: '.', say: 'back' }] });
    w.answer({ tier: 'gold' });
    await w.advance(10);
    w.sessions.transferProgress('CA1', { phase: 'ended', status: 'busy', duration: 0, connected: false });
    w.sessions.transferProgress('CA1', { phase: 'connected' }); // a stray connect after the end says nothing
    await w.advance(10);
    expect(w.turns.some((t) => t.detail.events?.includes('whisper'))).toBe(false);
    expect(w.said().slice(-2)).toEqual(['11-12 caller: 여보세요?', '13-14 agent: back']);
  });

  it('hears through the number\'s dictionary: the transcript shows the rewritten words, the turn keeps what was said', async () => {
    const w = world({ replies: [], lines: ['클로옵스 문의요'] }, { dictionary: { 클로옵스: 'ClawOps' } });
    w.agents.setBehaviour(w.agent, { greeting: 'hi', rules: [{ heard: 'ClawOps', say: 'ClawOps입니다' }] });
    w.answer();
    await w.advance(20);
    expect(w.turns.map((t) => t.text)).toEqual(['hi', 'ClawOps 문의요', 'ClawOps입니다']);
    expect(w.turns[1]!.detail.spoken).toBe('클로옵스 문의요');
    expect(w.turns[2]!.detail.spoken).toBe('클로옵스 문의요');
  });

  it('presses keys (heard as digits) and waits through silence', async () => {
    const w = world({ replies: [{ heard: 'press', keys: '1' }, { heard: 'quiet', keys: '' }], lines: [] });
    w.agents.setBehaviour(w.agent, { greeting: 'press a key', rules: [{ heard: '^1$', say: 'be quiet' }, { heard: '^$', say: 'anyone?', hangup: true }] });
    w.answer();
    await w.advance(30);
    // "press a key" is 11 characters: 2 s. The phone stays silent at 7 s; the agent answers the silence at 12 s.
    expect(w.said()).toEqual(['0-2 agent: press a key', '3-4 caller: (1)', '5-6 agent: be quiet', '12-13 agent: anyone?', '13-13 agent: (hangup)']);
  });

  it('ignores steps after the call ended', async () => {
    const w = world({ replies: [], lines: ['one', 'two'] });
    w.answer();
    await w.advance(2);
    w.sessions.ended('CA1');
    await w.advance(60);
    expect(w.turns.map((t) => t.speaker)).toEqual(['agent']);
  });
});
