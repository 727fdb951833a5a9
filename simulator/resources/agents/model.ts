// Managed agents (public API document, guides "Managed agents"): created with only a name and
// the guides' defaults, listed newest first, PATCH replacing the whole configuration, deletion
// refused while a number routes to the agent or a call batch that is not over uses it. The
// agent owns its MCP bindings (bindings.ts), knowledge (knowledge/store.ts) and scripted
// behaviour (behaviour.ts, the control plane). Other families are reached through ports only.
import { Table } from '../../core/store.ts';
import { freshId } from '../../core/ids.ts';
import type { KernelParts } from '../../core/scope.ts';
import { AgentBindings, type ConnectionsPort } from './bindings.ts';
import { KnowledgeStore } from './knowledge/store.ts';
import { checkBehaviour, defaultBehaviour, type Behaviour, type BehaviourInputBody } from './behaviour.ts';
import { cartesiaVoiceOf, configurationForCreate, configurationForUpdate, summaryOf } from './configuration.ts';
import type { AgentConfiguration } from './configuration-schema.ts';
import { agentErrors } from './errors.ts';
import { STOCK_VOICES, VOICE_MODEL, VOICE_PROVIDER } from './voices.ts';
import { SessionTable } from './session-state.ts';
import { AGENT_IDS, type AgentRow, type AgentsState, type BehaviourRow, type CreateAgentInput, type UpdateAgentInput } from './schema.ts';

/** A generic Korean prompt for agents created without instructions (guides: "a generic Korean prompt"). */
export const DEFAULT_INSTRUCTIONS = '당신은 고객의 전화를 받는 친절한 한국어 음성 상담원입니다. 고객의 말을 끝까지 듣고, 짧고 정확하게 답하세요. 모르는 내용은 추측하지 말고 확인 후 안내하겠다고 말하세요.';

/** Whose clone a voice is (the voice-clones family). */
export interface VoiceOwnersPort {
  byVoice(voice: string): { accountId: string; status: string } | undefined;
  readyOf(accountId: string): readonly { voice: string; name: string; description: string | null }[];
}

/** Who keeps an agent in use: numbers routed to it, batches that are not over. */
export interface AgentUsersPort {
  numbersRoutedTo(accountId: string, agentId: string): string[];
  batchesUsing(accountId: string, agentId: string): string[];
}

export type AgentsPorts = Pick<KernelParts, 'clock' | 'random' | 'refs'> & {
  voices: () => VoiceOwnersPort;
  users: () => AgentUsersPort;
  connections: () => ConnectionsPort;
};

export class AgentsModel {
  private agents = new Table<AgentRow>(); // maps an agent id to the agent
  private behaviours = new Table<BehaviourRow>(); // maps an agent id to its scripted behaviour (absent: the default)
  readonly bindings: AgentBindings;
  readonly knowledge: KnowledgeStore;
  /** The sessions of calls its agents handle (session.ts); attached by the family's descriptor. */
  sessions: { rows: SessionTable; afterRestore(): void } | undefined;
  /** Closes the call runtime's MCP sessions (sim.close()); set by the family's descriptor. */
  closeTools: () => Promise<void> = async () => undefined;
  private readonly defaults = new Map<string, Behaviour>(); // language → the default behaviour, one object each

  constructor(private readonly ports: AgentsPorts) {
    this.bindings = new AgentBindings(ports, ports.connections);
    this.knowledge = new KnowledgeStore(ports);
    ports.refs.register('agent', (accountId, id) => this.ownsAgent(accountId, id));
  }

  /** Whether `id` is an agent of the account (the `agent` reference kind). */
  ownsAgent(accountId: string, id: string): boolean {
    return this.agents.get(id)?.accountId === accountId;
  }

  clear(): void {
    this.agents = new Table();
    this.behaviours = new Table();
    this.bindings.rows.adopt(new Table());
    this.knowledge.rows.adopt(new Table());
    this.knowledge.embeddingAvailable = true;
    this.sessions?.rows.adopt(new SessionTable());
  }

  snapshot(): AgentsState {
    return {
      agents: [...this.agents.all()],
      bindings: [...this.bindings.rows.all()],
      knowledge: [...this.knowledge.rows.all()],
      behaviours: [...this.behaviours.all()],
      embeddingAvailable: this.knowledge.embeddingAvailable,
      sessions: [...(this.sessions?.rows.all() ?? [])],
    };
  }

  /** The runtime validated the part (ownPart). */
  restore(s: AgentsState): void {
    this.agents = new Table(s.agents);
    this.behaviours = new Table(s.behaviours);
    this.bindings.rows.adopt(new Table(s.bindings));
    this.knowledge.rows.adopt(new Table(s.knowledge));
    this.knowledge.embeddingAvailable = s.embeddingAvailable;
    this.sessions?.rows.adopt(new SessionTable(s.sessions ?? []));
    this.sessions?.afterRestore();
  }

  /** The agent's answer; not cached, since phoneNumbers follow the numbers' routing. */
  wire(r: AgentRow) {
    return {
      agentId: r.id,
      name: r.name,
      instructions: r.instructions,
      greeting: r.greeting,
      ...summaryOf(r.configuration),
      configuration: r.configuration,
      phoneNumbers: this.ports.users().numbersRoutedTo(r.accountId, r.id),
      dateCreated: r.dateCreated,
      dateUpdated: r.dateUpdated,
    };
  }

  /** Newest first (guides). */
  list(accountId: string): AgentRow[] {
    return this.agents.newestFirst((a) => a.accountId === accountId);
  }

  get(accountId: string, id: string): AgentRow {
    const a = this.agents.get(id);
    if (!a || a.accountId !== accountId) throw agentErrors.NOT_FOUND(`no agent ${id} in this account`, { errors: [{ path: 'agentId', message: 'no such agent' }] });
    return a;
  }

  find(accountId: string, id: string): AgentRow | undefined {
    const a = this.agents.get(id);
    return a && a.accountId === accountId ? a : undefined;
  }

  /**
   * A Cartesia voice this account may speak with: another account's clone is 403, this
   * account's clone must be ready; stock and other ids are accepted.
   */
  private checkVoice(accountId: string, c: AgentConfiguration, field: string): void {
    const voice = cartesiaVoiceOf(c);
    if (voice === null) return;
    const clone = this.ports.voices().byVoice(voice);
    if (!clone) return;
    const errors = [{ path: field, message: 'not usable' }];
    if (clone.accountId !== accountId) throw agentErrors.VOICE_FORBIDDEN(`voice ${voice} was cloned by another organization`, { errors });
    if (clone.status !== 'ready') throw agentErrors.VOICE_NOT_READY(`voice ${voice} is this account's clone but it is ${clone.status}; wait until it is ready`, { errors });
  }

  create(accountId: string, input: CreateAgentInput): AgentRow {
    const configuration = configurationForCreate(input);
    this.checkVoice(accountId, configuration, input.configuration ? 'configuration.tts.voice' : 'voice');
    const now = this.ports.clock.nowIso();
    const id = freshId(this.ports.random, AGENT_IDS.agent, (x) => this.agents.has(x));
    return this.agents.insert({
      id,
      accountId,
      name: input.name,
      instructions: input.instructions ?? DEFAULT_INSTRUCTIONS,
      greeting: input.greeting ?? true,
      configuration,
      dateCreated: now,
      dateUpdated: now,
    });
  }

  /** A fixture's agent (agents/fixture.ts checked it): created at `at`, with its id when the fixture gives one. */
  seed(accountId: string, input: CreateAgentInput, at: string, id?: string): AgentRow {
    const agentId = id ?? freshId(this.ports.random, AGENT_IDS.agent, (x) => this.agents.has(x));
    const configuration = configurationForCreate(input);
    return this.agents.insert({ id: agentId, accountId, name: input.name, instructions: input.instructions ?? DEFAULT_INSTRUCTIONS, greeting: input.greeting ?? true, configuration, dateCreated: at, dateUpdated: at });
  }

  update(accountId: string, id: string, input: UpdateAgentInput): AgentRow {
    const a = this.get(accountId, id);
    const configuration = configurationForUpdate(a.configuration, input);
    if (configuration !== a.configuration) this.checkVoice(accountId, configuration, input.configuration ? 'configuration.tts.voice' : 'voice');
    return this.agents.replace({
      ...a,
      name: input.name ?? a.name,
      instructions: input.instructions ?? a.instructions,
      greeting: input.greeting ?? a.greeting,
      configuration,
      dateUpdated: this.ports.clock.nowIso(),
    });
  }

  /** deleteAgent: refused while in use; its bindings, knowledge and behaviour go with it. */
  delete(accountId: string, id: string): void {
    const a = this.get(accountId, id);
    const users = this.ports.users();
    const phoneNumbers = users.numbersRoutedTo(accountId, id);
    const callBatches = users.batchesUsing(accountId, id);
    if (phoneNumbers.length > 0 || callBatches.length > 0) {
      const what = [phoneNumbers.length > 0 ? `numbers ${phoneNumbers.join(', ')} route inbound calls to it` : '', callBatches.length > 0 ? `call batches ${callBatches.join(', ')} use it` : ''].filter(Boolean).join('; ');
      throw agentErrors.IN_USE(`agent ${id} is in use: ${what}`, { phoneNumbers, callBatches });
    }
    this.agents.delete(a.id);
    this.bindings.removeAgent(a.id);
    this.knowledge.removeAgent(a.id);
    this.behaviours.delete(a.id);
  }

  /** listAgentVoices: the stock catalogue, then this account's ready clones. */
  voices(accountId: string) {
    const base = { provider: VOICE_PROVIDER, model: VOICE_MODEL, language: 'ko', country: 'KR' };
    return [
      ...STOCK_VOICES.map((v) => ({ id: v.id, ...base, name: v.name, description: v.description, gender: v.gender, isFeatured: v.isFeatured, isCustom: false })),
      ...this.ports.voices().readyOf(accountId).map((c) => ({ id: c.voice, ...base, name: c.name, description: c.description ?? '', gender: null, isFeatured: false, isCustom: true })),
    ];
  }

  /** Agents that speak with this voice (a clone cannot be deleted while used). */
  usingVoice(accountId: string, voice: string): string[] {
    return this.agents.all().filter((a) => a.accountId === accountId && cartesiaVoiceOf(a.configuration) === voice).map((a) => `agent ${a.id}`);
  }

  /** Agents bound to a connection, as the connection's agentCount and affectedAgents name them. */
  agentsUsing(accountId: string, connectionId: string): { agentId: string; name: string }[] {
    return this.bindings.agentIdsUsing(accountId, connectionId).map((agentId) => ({ agentId, name: this.agents.get(agentId)?.name ?? '' }));
  }

  // --- behaviour (control plane) ---

  /** The behaviour agent calls run: the same object while it is unchanged (the brain caches its patterns on it). */
  behaviourOf(a: AgentRow): Behaviour {
    const row = this.behaviours.get(a.id);
    if (row) return row;
    const language = a.configuration.language;
    let d = this.defaults.get(language);
    if (!d) this.defaults.set(language, (d = defaultBehaviour(language)));
    return d;
  }

  /** The behaviour as GET shows it. */
  behaviourView(a: AgentRow) {
    const b = this.behaviourOf(a);
    return { agentId: a.id, custom: this.behaviours.has(a.id), greeting: b.greeting, rules: b.rules, fallback: b.fallback, maxTurns: b.maxTurns };
  }

  setBehaviour(a: AgentRow, input: BehaviourInputBody) {
    const b = checkBehaviour(input, a.configuration.language, this.bindings.allowedTools(a.id));
    const row: BehaviourRow = { id: a.id, accountId: a.accountId, ...b };
    if (this.behaviours.has(a.id)) this.behaviours.replace(row);
    else this.behaviours.insert(row);
    return this.behaviourView(a);
  }

  resetBehaviour(a: AgentRow): void {
    this.behaviours.delete(a.id);
  }

  /** A connection as the agents see it (bindings, sessions). */
  connection(accountId: string, connectionId: string) {
    return this.ports.connections().find(accountId, connectionId);
  }

  /** An agent by id whatever its account (the control plane addresses agents by id alone). */
  anyAccount(id: string): AgentRow | undefined {
    return this.agents.get(id);
  }
}
