// The managed agent as a call handler (calls/handlers.ts, kind `agent`): createCall with AgentId,
// numbers routed `agent` and batches with AgentId reach it. It refuses an unknown agent before
// anything is stored, starts the agent's session when the call is answered, and hands the
// session the progress of its transfers and the end of the call.
import type { CallHandler } from '../calls/handlers.ts';
import { agentErrors } from './errors.ts';
import type { AgentsModel } from './model.ts';
import type { AgentSessions } from './session.ts';

export function agentCallHandler(model: AgentsModel, sessions: () => AgentSessions): CallHandler {
  return {
    check(accountId, agentId) {
      if (!model.find(accountId, agentId)) throw agentErrors.NOT_FOUND(`no agent ${agentId} in this account`, { errors: [{ path: 'AgentId', message: 'no such agent' }] });
    },
    answered(call) {
      sessions().start({
        callId: call.callId,
        accountId: call.accountId,
        agentId: call.target,
        answeredAt: call.answeredAt,
        variables: call.context?.variables ?? {},
        instruction: call.context?.instruction ?? null,
        dictionaryId: call.dictionaryId,
      });
    },
    transferProgress: (callId, progress) => sessions().transferProgress(callId, progress),
    ended: (callId) => sessions().ended(callId),
  };
}
