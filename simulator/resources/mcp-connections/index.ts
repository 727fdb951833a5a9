// External MCP connections agents use: registration with a write-only credential, and a test in
// which the call runtime connects over MCP and lists the tools. Behind its door: it needs the
// egress guard and the call runtime's MCP client (ports.ts), both live I/O the runtime offers;
// its table is its snapshot part. The fake MCP servers, the runner's switch and strict egress
// are scripted through the MCP peers' routes (peers/mcp/).
import { tablesPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { McpConnectionsModel } from './model.ts';
import { operations } from './routes.ts';
import { examples } from './examples.ts';
import { needs } from './ports.ts';
import { MCP_CONNECTION_IDS, McpConnectionsStateSchema } from './schema.ts';

export const mcpConnections = defineFamily({
  key: 'mcpConnections',
  needs,
  create: (scope) => new McpConnectionsModel(scope),
  state: tablesPart(McpConnectionsStateSchema, (m: McpConnectionsModel) => ({ connections: m.connections })),
  operations,
  examples,
  tags: {
    'MCP connections': 'External MCP servers agents use: registration with a write-only credential, and a test in which the call runtime connects over MCP and lists the tools.',
  },
  idFormats: MCP_CONNECTION_IDS,
  capabilities: ['mcp-apps'],
});
