// The agents, voice-clones and dictionaries models with fake ports: every rule and refusal of
// the models (status, code, state unchanged), before they are served over HTTP.
import { beforeEach, describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { SeededRandom } from '../core/random.ts';
import { References } from '../core/refs.ts';
import { ApiError } from '../core/errors.ts';
import { AgentsModel, DEFAULT_INSTRUCTIONS } from '../resources/agents/model.ts';
import type { ConnectionView } from '../resources/agents/bindings.ts';
import { VoiceClonesModel } from '../resources/voice-clones/model.ts';
import { DictionariesModel } from '../resources/dictionaries/model.ts';
import { DEFAULT_VOICE_ID } from '../resources/agents/voices.ts';
import { modelScope } from './model-scope.ts';

const A = 'AC1';
const B = 'AC2';
const START = Date.parse('2026-03-02T00:00:00Z');
const WAV = new Uint8Array([...'RIFF'].map((c) => c.charCodeAt(0)).concat([0, 0, 0, 0], [...'WAVEfmt '].map((c) => c.charCodeAt(0))));

function refusal(f: () => unknown): { status: number; code: string; extra: Record<string, unknown> } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    const err = e as ApiError;
    return { status: err.status, code: err.code, extra: err.extra };
  }
  throw new Error('accepted');
}

function world() {
  const clock = new VirtualClock(START);
  const random = new SeededRandom(7);
  const refs = new References();
  const connections = new Map<string, ConnectionView>();
  const routed = new Map<string, string[]>();
  const batches = new Map<string, string[]>();
  const detached: string[] = [];
  const kernel = { clock, random, refs };
  const clones = new VoiceClonesModel(modelScope(clock, random, { callFlows: { addVoiceOwners: () => undefined, flowsSpeaking: () => [] } }) as never);
  const agents = new AgentsModel({
    ...kernel,
    voices: () => clones,
    users: () => ({ numbersRoutedTo: (_, id) => routed.get(id) ?? [], batchesUsing: (_, id) => batches.get(id) ?? [] }),
    connections: () => ({ find: (accountId, id) => (connections.get(id)?.accountId === accountId ? connections.get(id) : undefined) }),
  });
  clones.registerUsers({ usersOf: (accountId, voice) => agents.usingVoice(accountId, voice) });
  const dictionaries = new DictionariesModel(modelScope(clock, random, { numbers: { detachDictionary: (_: string, id: string) => void detached.push(id) } }, refs) as never);
  const connection = (id: string, over: Partial<ConnectionView> = {}) => {
    const c: ConnectionView = { id, accountId: A, name: `conn ${id}`, host: 'crm.example.com', status: 'tested', enabled: true, tools: [{ name: 'get_reservation' }, { name: 'cancel' }], ...over };
    connections.set(id, c);
    return c;
  };
  return { clock, agents, clones, dictionaries, connection, connections, routed, batches, detached };
}

let w: ReturnType<typeof world>;
beforeEach(() => {
  w = world();
});

describe('agents model', () => {
  it('creates with only a name: the guides\' defaults', () => {
    const a = w.agents.create(A, { name: '상담원' });
    expect(a.id).toMatch(/^AG[0-9a-f]{12}$/);
    expect(w.agents.wire(a)).toMatchObject({ agentId: a.id, instructions: DEFAULT_INSTRUCTIONS, greeting: true, language: 'ko', model: 'gpt-realtime-2.1-mini', voice: DEFAULT_VOICE_ID, voiceProvider: 'cartesia', voiceModel: 'sonic-3.5', phoneNumbers: [] });
    expect(w.agents.list(A).map((x) => x.id)).toEqual([a.id]);
    expect(w.agents.list(B)).toEqual([]);
    expect(refusal(() => w.agents.get(B, a.id))).toMatchObject({ status: 404, code: 'agent_not_found' });
  });

  it('lists newest first', () => {
    const first = w.agents.create(A, { name: 'one' });
    w.clock.advanceTo(START + 1000);
    const second = w.agents.create(A, { name: 'two' });
    expect(w.agents.list(A).map((x) => x.id)).toEqual([second.id, first.id]);
  });

  it('voices: another account\'s clone is 403, an unready clone 400; its own ready clone works', () => {
    const clone = w.clones.create(B, { name: 'B voice', description: null, consent: 'true', clip: WAV });
    expect(refusal(() => w.agents.create(A, { name: 'x', voice: clone.voice }))).toMatchObject({ status: 403, code: 'call_flow_voice_forbidden' });
    const mine = w.clones.create(A, { name: 'mine', description: null, consent: 'on', clip: WAV });
    expect(refusal(() => w.agents.create(A, { name: 'x', voice: mine.voice }))).toMatchObject({ status: 400, code: 'voice_not_ready' });
    w.clock.advanceTo(START + 30_000);
    expect(w.clones.get(A, mine.id).status).toBe('ready');
    const a = w.agents.create(A, { name: 'x', voice: mine.voice });
    expect(w.agents.voices(A).filter((v) => v.isCustom).map((v) => v.id)).toEqual([mine.voice]);
    expect(w.agents.voices(B).some((v) => v.id === mine.voice)).toBe(false);
    expect(refusal(() => w.clones.delete(A, mine.id))).toMatchObject({ status: 409, code: 'voice_clone_in_use' });
    w.agents.update(A, a.id, { voice: DEFAULT_VOICE_ID });
    w.clones.delete(A, mine.id);
    expect(w.clones.list(A).map((c) => c.id)).toEqual([]);
  });

  it('delete is refused while a number routes to it or a batch uses it; otherwise it takes everything with it', () => {
    const a = w.agents.create(A, { name: 'x' });
    w.connection('mcp_1');
    w.agents.bindings.set(A, a.id, 'mcp_1', { allowedTools: ['cancel'] });
    w.routed.set(a.id, ['07012340001']);
    w.batches.set(a.id, ['CB1']);
    expect(refusal(() => w.agents.delete(A, a.id))).toMatchObject({ status: 409, code: 'agent_in_use', extra: { phoneNumbers: ['07012340001'], callBatches: ['CB1'] } });
    w.routed.clear();
    w.batches.clear();
    w.agents.delete(A, a.id);
    expect(w.agents.agentsUsing(A, 'mcp_1')).toEqual([]);
    expect(refusal(() => w.agents.get(A, a.id)).status).toBe(404);
  });
});

describe('MCP bindings', () => {
  it('attach only tested, enabled connections and their own tools; missingTools after a later test', () => {
    const a = w.agents.create(A, { name: 'x' });
    w.connection('u', { status: 'untested' });
    w.connection('c', { status: 'credential_error' });
    w.connection('d', { enabled: false });
    w.connection('ok');
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'u', { allowedTools: ['cancel'] }))).toMatchObject({ status: 409, code: 'MCP_CONNECTION_UNTESTED' });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'c', { allowedTools: ['cancel'] }))).toMatchObject({ status: 409, code: 'MCP_CONNECTION_CREDENTIAL_ERROR' });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'd', { allowedTools: ['cancel'] }))).toMatchObject({ status: 409, code: 'MCP_CONNECTION_DISABLED' });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'nope', { allowedTools: ['cancel'] }))).toMatchObject({ status: 404, code: 'mcp_connection_not_found' });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'ok', { allowedTools: ['cancel', 'drop'] }))).toMatchObject({ status: 400, extra: { errors: [{ path: 'allowedTools[1]' }] } });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'ok', { allowedTools: ['cancel', 'cancel'] }))).toMatchObject({ status: 400, extra: { errors: [{ path: 'allowedTools[1]' }] } });
    expect(w.agents.bindings.of(a.id)).toEqual([]);
    const b = w.agents.bindings.set(A, a.id, 'ok', { allowedTools: ['get_reservation', 'cancel'] });
    expect(w.agents.bindings.wire(b)).toMatchObject({ connectionId: 'ok', status: 'tested', enabled: true, failureMode: 'continue', missingTools: [] });
    expect(w.agents.agentsUsing(A, 'ok')).toEqual([{ agentId: a.id, name: 'x' }]);
    // A later test no longer lists cancel: it is missing and the route says the tool is unusable.
    w.connection('ok', { tools: [{ name: 'get_reservation' }] });
    expect(w.agents.bindings.wire(b).missingTools).toEqual(['cancel']);
    expect(w.agents.bindings.route(A, a.id, 'cancel')?.unusable).toContain('no longer lists cancel');
    expect(w.agents.bindings.route(A, a.id, 'get_reservation')?.unusable).toBeNull();
    w.connection('ok', { status: 'untested' });
    expect(w.agents.bindings.route(A, a.id, 'get_reservation')?.unusable).toContain('untested');
  });

  it('at most three connections per agent; setting one again replaces it', () => {
    const a = w.agents.create(A, { name: 'x' });
    for (const id of ['c1', 'c2', 'c3', 'c4']) w.connection(id);
    for (const id of ['c1', 'c2', 'c3']) w.agents.bindings.set(A, a.id, id, { allowedTools: ['cancel'] });
    expect(refusal(() => w.agents.bindings.set(A, a.id, 'c4', { allowedTools: ['cancel'] }))).toMatchObject({ status: 409, code: 'MCP_CONNECTION_LIMIT' });
    const again = w.agents.bindings.set(A, a.id, 'c1', { allowedTools: ['get_reservation'], failureMode: 'fail_session' });
    expect(again).toMatchObject({ allowedTools: ['get_reservation'], failureMode: 'fail_session' });
    expect(w.agents.bindings.of(a.id).map((b) => b.connectionId)).toEqual(['c1', 'c2', 'c3']);
    expect(w.agents.bindings.removeConnection(A, 'c2')).toEqual([a.id]);
    expect(refusal(() => w.agents.bindings.remove(a.id, 'c2'))).toMatchObject({ status: 404, code: 'agent_mcp_connection_not_found' });
  });

  it('a behaviour may call only allowed tools', () => {
    const a = w.agents.create(A, { name: 'x' });
    expect(refusal(() => w.agents.setBehaviour(a, { rules: [{ heard: 'x', tool: { name: 'cancel' } }] })).status).toBe(400);
    w.connection('ok');
    w.agents.bindings.set(A, a.id, 'ok', { allowedTools: ['cancel'] });
    expect(w.agents.setBehaviour(a, { rules: [{ heard: 'x', tool: { name: 'cancel' } }] })).toMatchObject({ custom: true, agentId: a.id });
    const stable = w.agents.behaviourOf(a);
    expect(w.agents.behaviourOf(a)).toBe(stable);
    w.agents.resetBehaviour(a);
    expect(w.agents.behaviourView(a)).toMatchObject({ custom: false, rules: [] });
  });
});

describe('knowledge', () => {
  it('stores, lists newest first, searches ready documents; embedding failure keeps it failed until reindexed', async () => {
    const a = w.agents.create(A, { name: 'x' });
    const present = () => void w.agents.get(A, a.id);
    const refund = await w.agents.knowledge.create(A, a.id, { kind: 'json', title: '환불', text: '환불은 7일 이내에 가능합니다.' }, present);
    expect(refund).toMatchObject({ status: 'ready', chunkCount: 1, charCount: 17, sourceType: 'text' });
    w.agents.knowledge.embeddingAvailable = false;
    await expect(w.agents.knowledge.create(A, a.id, { kind: 'json', text: '배송은 2일 걸립니다.' }, present)).rejects.toMatchObject({ status: 502, code: 'knowledge_embedding_failed' });
    const [failed] = w.agents.knowledge.list(a.id);
    expect(failed).toMatchObject({ status: 'failed', chunkCount: 0 });
    expect(w.agents.knowledge.search(a.id, '배송', 5)).toEqual([]);
    w.agents.knowledge.embeddingAvailable = true;
    expect(w.agents.knowledge.reindex(a.id, failed!.id)).toMatchObject({ status: 'ready', chunkCount: 1 });
    expect(w.agents.knowledge.search(a.id, '배송 언제', 5).map((h) => h.documentId)).toEqual([failed!.id]);
    w.agents.knowledge.delete(a.id, refund.id);
    expect(w.agents.knowledge.search(a.id, '환불', 5)).toEqual([]);
  });

  it('stores nothing when the agent went away while the file was read', async () => {
    const a = w.agents.create(A, { name: 'x' });
    await expect(w.agents.knowledge.create(A, a.id, { kind: 'json', text: 'x' }, () => w.agents.get(A, 'AGgone'))).rejects.toMatchObject({ status: 404 });
    expect(w.agents.knowledge.list(a.id)).toEqual([]);
  });
});

describe('voice clones model', () => {
  it('refuses bad uploads naming the field, and stores nothing', () => {
    const up = (over: Partial<Parameters<VoiceClonesModel['create']>[1]>) => refusal(() => w.clones.create(A, { name: 'n', description: null, consent: 'true', clip: WAV, ...over }));
    expect(up({ name: ' ' }).extra).toMatchObject({ errors: [{ path: 'name' }] });
    expect(up({ consent: 'yes' }).extra).toMatchObject({ errors: [{ path: 'consent' }] });
    expect(up({ clip: null }).extra).toMatchObject({ errors: [{ path: 'clip' }] });
    expect(up({ clip: new Uint8Array(0) }).extra).toMatchObject({ errors: [{ path: 'clip', message: 'is empty' }] });
    expect(up({ clip: new Uint8Array([1, 2, 3]) }).extra).toMatchObject({ errors: [{ path: 'clip' }] });
    expect(w.clones.list(A)).toEqual([]);
  });

  it('finishes as the provider says; at most ten uploads an hour (429); provider failure 502', () => {
    w.clones.provider = { available: true, outcome: 'failed', seconds: 5 };
    const c = w.clones.create(A, { name: 'n', description: 'd', consent: 'true', clip: WAV });
    expect(c).toMatchObject({ status: 'cloning', description: 'd' });
    expect(c.voice).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    w.clock.advanceTo(START + 5000);
    expect(w.clones.get(A, c.id).status).toBe('failed');
    for (let i = 1; i < 10; i++) w.clones.create(A, { name: `n${i}`, description: null, consent: 'true', clip: WAV });
    expect(refusal(() => w.clones.create(A, { name: 'n', description: null, consent: 'true', clip: WAV }))).toMatchObject({ status: 429, code: 'voice_clone_rate_limited' });
    w.clock.advanceTo(START + 3_600_001);
    w.clones.provider = { ...w.clones.provider, available: false };
    expect(refusal(() => w.clones.create(A, { name: 'n', description: null, consent: 'true', clip: WAV }))).toMatchObject({ status: 502 });
  });
});

describe('dictionaries model', () => {
  it('keeps one default: the first, moved by isDefault true, passed on when deleted', () => {
    const d1 = w.dictionaries.create(A, 'one');
    const d2 = w.dictionaries.create(A, 'two');
    expect(w.dictionaries.list(A).map((d) => [d.id, d.isDefault])).toEqual([[d1.id, true], [d2.id, false]]);
    expect(refusal(() => w.dictionaries.update(A, d1.id, { isDefault: false })).extra).toMatchObject({ errors: [{ path: 'isDefault' }] });
    w.dictionaries.update(A, d2.id, { isDefault: true });
    expect(w.dictionaries.list(A).map((d) => [d.id, d.isDefault])).toEqual([[d2.id, true], [d1.id, false]]);
    w.dictionaries.delete(A, d2.id);
    expect(w.detached).toEqual([d2.id]);
    expect(w.dictionaries.list(A).map((d) => [d.id, d.isDefault])).toEqual([[d1.id, true]]);
    expect(refusal(() => w.dictionaries.get(B, d1.id)).status).toBe(404);
  });

  it('terms are unique per dictionary; the number\'s dictionary replaces the default', () => {
    const def = w.dictionaries.create(A, 'default');
    const own = w.dictionaries.create(A, 'own');
    w.dictionaries.addTerm(A, def.id, { term: '클로옵스', canonical: 'ClawOps' });
    const t = w.dictionaries.addTerm(A, own.id, { term: '에이아이', canonical: 'AI' });
    expect(refusal(() => w.dictionaries.addTerm(A, own.id, { term: ' 에이아이 ' }))).toMatchObject({ status: 409, code: 'dictionary_term_exists', extra: { itemId: t.id } });
    expect(w.dictionaries.rewriterFor(A, null)('클로옵스 에이아이')).toBe('ClawOps 에이아이');
    expect(w.dictionaries.rewriterFor(A, own.id)('클로옵스 에이아이')).toBe('클로옵스 AI');
    w.dictionaries.updateTerm(A, own.id, t.id, { enabled: false });
    expect(w.dictionaries.rewriterFor(A, own.id)('에이아이')).toBe('에이아이');
    w.dictionaries.updateTerm(A, own.id, t.id, { enabled: true, canonical: '' });
    expect(w.dictionaries.getTerm(A, own.id, t.id).canonical).toBeNull();
    w.dictionaries.deleteTerm(A, own.id, t.id);
    expect(w.dictionaries.termsOf(own.id)).toEqual([]);
    expect(w.dictionaries.rewriterFor(B, null)('클로옵스')).toBe('클로옵스');
  });
});
