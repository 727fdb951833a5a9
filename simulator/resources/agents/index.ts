// The managed-agents family: agents with their configuration, knowledge documents, MCP bindings
// and scripted behaviour (the control plane's stand-in for the language model). It reads the
// voice clones (whose voice an agent may use), the numbers routed to an agent and the MCP
// connections it binds; and it tells voice clones which voices its agents speak with.
import type { Family } from '../family.ts';
import { AgentsModel } from './model.ts';
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
        // Call batches do not take AgentId yet (docs/decisions.md "Call batches").
        batchesUsing: () => [],
      }),
      connections: () => ({
        find: (accountId, connectionId) => {
          const c = rt.mcpConnections.list(accountId).find((x) => x.id === connectionId);
          return c && { id: c.id, accountId: c.accountId, name: c.name, host: c.host, status: c.status, enabled: c.enabled, tools: c.tools };
        },
      }),
    });
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
