// External MCP connections, with the control plane of the peers they talk to: fake MCP servers,
// the call runtime's switch, strict egress and DNS rebinding (the runner and the fake servers
// live on the runtime, like the webhook receiver policy: they are live I/O, not state).
import type { Family } from '../family.ts';
import { McpConnectionsModel } from './model.ts';
import { operations } from './routes.ts';
import { MCP_CONNECTION_IDS } from './schema.ts';
import { operations as control } from '../../control/mcp.ts';
import { examples } from './examples.ts';

export const mcpConnections: Family<'mcpConnections', McpConnectionsModel> = {
  key: 'mcpConnections',
  create: (rt) => new McpConnectionsModel(rt, rt.mcpRunner),
  operations,
  examples,
  control,
  tags: {
    'MCP connections': 'External MCP servers agents use: registration with a write-only credential, and a test in which the call runtime connects over MCP and lists the tools.',
  },
  idFormats: MCP_CONNECTION_IDS,
  capabilities: ['mcp-servers', 'egress', 'mcp-apps'],
};
