// The platform's own MCP server (/mcp) and the apps connected to it (registered through the
// control plane's POST /_sim/accounts/{accountId}/mcp-apps, which lives in control/mcp.ts).
import type { Family } from '../family.ts';
import { McpAppsModel } from './model.ts';
import { operations } from './routes.ts';
import { MCP_APP_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const mcpApps: Family<'mcpApps', McpAppsModel> = {
  key: 'mcpApps',
  create: (rt) => new McpAppsModel(rt),
  operations,
  examples,
  tags: {
    'MCP server': 'The platform\'s own MCP server (streamable HTTP at /mcp): tools for connected apps, per the permissions fixed when they connected.',
  },
  idFormats: MCP_APP_IDS,
};
