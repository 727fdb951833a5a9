// The wire error codes of managed agents, one declaration each. Codes other families declared
// first (agent_not_found by calls, the MCP connection's not-found) or that several families raise
// (call_flow_voice_forbidden, rules/errors.ts) are shared, not declared again: a code means one thing everywhere.
import { defineError } from '../../core/errors.ts';
import { callErrors } from '../calls/errors.ts';
import { sharedErrors } from '../../rules/errors.ts';
import { mcpConnectionErrors } from '../mcp-connections/errors.ts';
import { MAX_BINDINGS } from './schema.ts';

export const agentErrors = {
  NOT_FOUND: callErrors.AGENT_NOT_FOUND,
  VOICE_FORBIDDEN: sharedErrors.VOICE_FORBIDDEN,
  CONNECTION_NOT_FOUND: mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND,
  IN_USE: defineError({
    code: 'agent_in_use', status: 409, origin: 'reference',
    description: 'The agent cannot be deleted while a number routes inbound calls to it (`phoneNumbers`) or a call batch that is not over uses it (`callBatches`); route them elsewhere or end the batches first.',
  }),
  VOICE_NOT_READY: defineError({
    code: 'voice_not_ready', status: 400, origin: 'simulator',
    description: 'The voice is this account\'s clone that is still cloning or failed; only ready clones can speak.',
  }),
  KNOWLEDGE_NOT_FOUND: defineError({ code: 'knowledge_document_not_found', status: 404, origin: 'simulator', description: 'No knowledge document with this id for the agent.' }),
  EMBEDDING_FAILED: defineError({
    code: 'knowledge_embedding_failed', status: 502, origin: 'reference',
    description: 'Indexing failed (scripted through the control plane): the document is kept with status failed; reindex it later.',
  }),
  BINDING_NOT_FOUND: defineError({ code: 'agent_mcp_connection_not_found', status: 404, origin: 'reference', description: 'The MCP connection is not attached to this agent.' }),
  CONNECTION_DISABLED: defineError({ code: 'MCP_CONNECTION_DISABLED', status: 409, origin: 'reference', description: 'The MCP connection is disabled (enabled false); enable it before attaching it.' }),
  CONNECTION_UNTESTED: defineError({ code: 'MCP_CONNECTION_UNTESTED', status: 409, origin: 'reference', description: 'The MCP connection has not passed a test (status untested); test it before attaching it.' }),
  CONNECTION_CREDENTIAL_ERROR: defineError({
    code: 'MCP_CONNECTION_CREDENTIAL_ERROR', status: 409, origin: 'simulator',
    description: 'The MCP connection\'s last test failed authentication (status credential_error); rotate the credential and test it before attaching it.',
  }),
  TOO_MANY_CONNECTIONS: defineError({ code: 'MCP_CONNECTION_LIMIT', status: 409, origin: 'reference', description: `An agent uses at most ${MAX_BINDINGS} MCP connections.` }),
};
