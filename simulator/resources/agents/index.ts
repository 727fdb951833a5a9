// The managed-agents family: agents with their configuration, knowledge documents, MCP bindings
// and scripted behaviour (the control plane's stand-in for the language model), and the calls
// they handle. Behind its door (ports.ts): it registers its call handler with the calls family
// (docs/agents.md), calls MCP tools over the connections' transports through the runtime's
// egress guard, hears through the numbers' dictionaries, and tells the MCP connections which
// agents use them and the voice clones which voices its agents speak with.
import { ownPart } from '../../core/table-state.ts';
import { McpToolCaller } from '../../peers/mcp/tool-caller.ts';
import { defineFamily } from '../family.ts';
import { AgentsModel } from './model.ts';
import { AgentSessions } from './session.ts';
import { agentCallHandler } from './handler.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { jobs, needs, type AgentsModelScope } from './ports.ts';
import { AGENT_IDS, AgentsStateSchema, type AgentsState } from './schema.ts';
import { agentsFixture } from './fixture.ts';
import { examples } from './examples.ts';
import { onFirstCall } from '../../core/first-use.ts';
import type { CallHandler } from '../calls/handlers.ts';

function build(scope: AgentsModelScope): AgentsModel {
  const model = new AgentsModel({
    clock: scope.clock,
    get random() {
      return scope.random; // a reset replaces it
    },
    refs: scope.refs,
    voices: () => scope.voiceClones,
    users: () => ({
      numbersRoutedTo: (accountId, agentId) => scope.numbers.routedToAgent(accountId, agentId),
      batchesUsing: (accountId, agentId) => scope.callBatches.usingAgent(accountId, agentId),
    }),
    connections: () => ({ find: (accountId, connectionId) => scope.mcpConnections.list(accountId).find((c) => c.id === connectionId) }),
  });
  const tools = new McpToolCaller(scope.egress, scope.mcpServers, () => scope.mcpRunner.timeoutMs, scope.io);
  scope.io.register(tools);
  model.closeTools = () => tools.closeAll();
  const sessions = new AgentSessions({
    kernel: { clock: scope.clock, jobs: scope.jobs },
    agents: model,
    call: () => scope.calls.handled,
    targets: () => ({ target: (accountId, connectionId) => scope.mcpConnections.toolTarget(accountId, connectionId) }),
    tools: () => tools,
    hearing: (accountId, dictionaryId) => scope.dictionaries.rewriterFor(accountId, dictionaryId),
  });
  model.sessions = sessions;
  handlers.set(model, agentCallHandler(model, () => sessions));
  return model;
}

/** Each built model's call handler (the one `wire` registered calls through to it). */
const handlers = new WeakMap<AgentsModel, CallHandler>();

/**
 * What the family registers with others before its model is built (decisions.md "Models built
 * on first use"): each reaches the model through `model()`, which builds it on first use.
 */
function wire(scope: AgentsModelScope, model: () => AgentsModel): void {
  scope.refs.register('agent', (accountId, id) => model().ownsAgent(accountId, id)); // the model registers its own when built
  scope.calls.handled.handlers.register('agent', onFirstCall(() => handlers.get(model())!, ['check', 'answered', 'transferProgress', 'ended']));
  scope.mcpConnections.useAgents({ agentsUsing: (accountId, id) => model().agentsUsing(accountId, id), unbind: (accountId, id) => void model().bindings.removeConnection(accountId, id) });
  scope.voiceClones.registerUsers({ usersOf: (accountId, voice) => model().usingVoice(accountId, voice) });
}

export const agents = defineFamily({
  key: 'agents',
  needs,
  jobs,
  create: build,
  wire,
  state: ownPart<AgentsState, AgentsModel>(AgentsStateSchema),
  fixture: agentsFixture,
  operations,
  examples,
  control,
  tags: {
    Agents: 'Managed AI call agents: configuration, voices, knowledge documents and the MCP tools they may call; their calls are scripted through the control plane (docs/agents.md).',
  },
  idFormats: AGENT_IDS,
  refKinds: ['agent'],
  capabilities: ['agents'],
});
