// The platform's own MCP server (/mcp) and the apps connected to it (registered through its
// /_sim route, control.ts). Behind its door: it needs an account check and the usage
// aggregation get_usage answers with (ports.ts), and hands the runtime its table as its
// snapshot part.
import { nothingToWire } from '../../core/first-use.ts';
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { McpAppsModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';
import { MCP_APP_IDS, McpAppsStateSchema } from './schema.ts';
import { examples } from './examples.ts';

export const mcpApps = defineFamily({
  key: 'mcpApps',
  needs,
  create: (scope) => new McpAppsModel(scope),
  wire: nothingToWire, // built on first use (decisions.md "Models built on first use")
  state: tablesPart(McpAppsStateSchema, (m: McpAppsModel) => ({ apps: m.apps })),
  operations,
  control,
  examples,
  tags: {
    'MCP server': 'The platform\'s own MCP server (streamable HTTP at /mcp): tools for connected apps, per the permissions fixed when they connected.',
  },
  idFormats: MCP_APP_IDS,
});
