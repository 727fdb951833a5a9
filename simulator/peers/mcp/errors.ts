// The call runtime's wire error: its MCP client scripted unreachable. The MCP connections name it
// in their errors (tests and rotations answer it), and so do the peers' routes that script it.
import { defineError } from '../../core/errors.ts';

export const runnerErrors = {
  MCP_RUNNER_UNAVAILABLE: defineError({
    code: 'MCP_RUNNER_UNAVAILABLE', status: 503, origin: 'reference',
    description: 'The call runtime that connects to MCP servers cannot be reached (scripted through PUT /_sim/mcp/runner); nothing changed. Retry later, or rotate with force=true.',
  }),
};
