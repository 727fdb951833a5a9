// The calls family's wire errors, apart from its model so that other families (call batches,
// recordings) and the control plane can name them without importing the model.
import { defineError } from '../../core/errors.ts';
import { callFlowErrors } from '../call-flows/errors.ts';

export const callErrors = {
  CALL_NOT_FOUND: defineError({ code: 'call_not_found', status: 404, origin: 'simulator', description: 'No call with this id in this account.' }),
  /** Shared with the call-flows family: one declaration per wire code. */
  CALL_FLOW_NOT_FOUND: callFlowErrors.NOT_FOUND,
  CALL_FLOW_UNREADABLE: defineError({
    code: 'call_flow_unreadable', status: 409, origin: 'simulator',
    description: 'The call flow\'s stored graph cannot be read under the current schema (its graph is null); replace it with a full PUT first.',
  }),
  AGENT_NOT_FOUND: defineError({
    code: 'agent_not_found', status: 404, origin: 'reference',
    description: 'AgentId is not a managed agent of this account (reference: createCall 404, createCallBatch 404); nothing is stored.',
  }),
  AI_MODE_REMOVED: defineError({
    code: 'ai_mode_removed', status: 410, origin: 'reference',
    description: 'The body carries `AI`: the AI Completion mode was removed (reference: createCall 410; managed agents take AgentId, the Agent SDK no mode).',
  }),
  AGENT_NOT_CONNECTED: defineError({
    code: 'agent_not_connected', status: 409, origin: 'reference',
    description: 'Neither Url, AgentId nor CallFlowId was given and no Agent SDK is connected to From (reference: createCall 409).',
  }),
  HANGUP_NOT_APPLICABLE: defineError({
    code: 'hangup_not_applicable', status: 409, origin: 'reference',
    description: 'The call has already ended; the body carries its current status (reference: updateCall 409).',
  }),
};
