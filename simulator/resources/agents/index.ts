// The managed-agents family: agents with their configuration, knowledge documents, MCP bindings
// and scripted behaviour (the control plane's stand-in for the language model), and the calls
// they handle: it registers its call handler with the calls family (docs/agents.md), calls MCP
// tools over the connections' transports, and hears through the numbers' dictionaries. It reads
// the voice clones, the numbers routed to an agent and the MCP connections it binds; it tells
// the MCP connections which agents use them and the voice clones which voices its agents use.
import type { Family } from '../family.ts';
import { McpToolCaller } from '../../peers/mcp/tool-caller.ts';
import { AgentsModel } from './model.ts';
import { AgentSessions } from './session.ts';
import { agentCallHandler } from './handler.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { AGENT_IDS } from './schema.ts';

export const agents: Family<'agents', AgentsModel, 'agent'> = {
  key: 'agents',
  create: (rt) => {
    const model = new AgentsModel({
      clock: rt.clock,
      get random() {
        return rt.random; // a reset replaces it
      },
      refs: rt.refs,
      voices: () => rt.voiceClones,
      users: () => ({
        numbersRoutedTo: (accountId, agentId) =>
          rt.numbers.numbers.all().filter((n) => n.accountId === accountId && n.routingType === 'agent' && n.agentId === agentId).map((n) => n.id),
        batchesUsing: (accountId, agentId) => rt.callBatches.usingAgent(accountId, agentId),
      }),
      connections: () => ({
        find: (accountId, connectionId) => {
          const c = rt.mcpConnections.list(accountId).find((x) => x.id === connectionId);
          return c && { id: c.id, accountId: c.accountId, name: c.name, host: c.host, status: c.status, enabled: c.enabled, tools: c.tools };
        },
      }),
    });
    const tools = new McpToolCaller(rt.egress, rt.mcpServers, () => rt.mcpRunner.timeoutMs);
    rt.io.register(tools);
    model.closeTools = () => tools.closeAll();
    const sessions = new AgentSessions({
      kernel: { clock: rt.clock },
      agents: model,
      call: () => rt.calls.handled,
      targets: () => ({ target: (accountId, connectionId) => rt.mcpConnections.toolTarget(accountId, connectionId) }),
      tools: () => tools,
      hearing: (accountId, dictionaryId) => rt.dictionaries.rewriterFor(accountId, dictionaryId),
    });
    model.sessions = sessions;
    rt.calls.handled.handlers.register('agent', agentCallHandler(model, () => sessions));
    rt.mcpConnections.useAgents({ agentsUsing: (accountId, id) => model.agentsUsing(accountId, id), unbind: (accountId, id) => void model.bindings.removeConnection(accountId, id) });
    rt.voiceClones.registerUsers({ usersOf: (accountId, voice) => model.usingVoice(accountId, voice) });
    return model;
  },
  operations,
  control,
  tags: {
    Agents: 'Managed AI call agents: configuration, voices, knowledge documents and the MCP tools they may call; their calls are scripted through the control plane (docs/agents.md).',
  },
  idFormats: AGENT_IDS,
  refKinds: ['agent'],
  capabilities: ['agents'],
};
