// The MCP connections' wire errors, apart from the model so that other families (agents) can
// name them without importing the model.
import { defineError } from '../../core/errors.ts';
import { runnerErrors } from '../../peers/mcp/errors.ts';

export const mcpConnectionErrors = {
  MCP_CONNECTION_NOT_FOUND: defineError({
    code: 'mcp_connection_not_found', status: 404, origin: 'simulator',
    description: 'No MCP connection with this id in the account.',
  }),
  MCP_RUNNER_UNAVAILABLE: runnerErrors.MCP_RUNNER_UNAVAILABLE,
};
