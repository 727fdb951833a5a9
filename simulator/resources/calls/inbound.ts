// Where an inbound call goes (docs/decisions.md "Calls"): callflow runs the flow; forward follows
// forwardTo (another number of the account) to its routing, at most MAX_FORWARD_HOPS times; a
// webhook number without a URL rejects the call, one with a URL runs its VoiceML; a managed agent
// answers an agent number (an agent that no longer exists is an application error); SIP devices
// are not simulated yet and end the call as described there. A connected Agent SDK that claims the
// number wins over its routing (handled.ts).
import { ApiError } from '../../core/errors.ts';
import type { Ending } from './endings.ts';
import type { HandledCalls } from './handled.ts';
import type { CallFlows, CallNumbers } from './ports.ts';
import type { CallRow, HangupSource } from './schema.ts';

const MAX_FORWARD_HOPS = 5;

export type InboundRoute =
  | { kind: 'callflow'; flowId: string }
  | { kind: 'voiceml'; url: string; method: 'POST' | 'GET'; headers: Record<string, string> }
  | { kind: 'handler'; handler: NonNullable<CallRow['handler']>; contextUrl: string | null; dictionaryId: string | null }
  | { kind: 'end'; ending: Ending; source: HangupSource; cause?: string };

/** What the routing reads: the numbers, the flows and the handlers registered with the calls. */
export interface RoutingParts {
  numbers: CallNumbers;
  flows: CallFlows;
  handled: HandledCalls;
}

/** The route of a call to `to` (a number of `accountId`). */
export function inboundRoute(parts: RoutingParts, accountId: string, to: string): InboundRoute {
  const claimed = parts.handled.claimant(accountId, to);
  if (claimed) return { kind: 'handler', handler: claimed, contextUrl: null, dictionaryId: parts.numbers.find(to)!.dictionaryId ?? null };
  let n = parts.numbers.find(to)!;
  for (let hop = 0; n.routingType === 'forward' && hop < MAX_FORWARD_HOPS; hop++) {
    const next = n.forwardTo ? parts.numbers.find(n.forwardTo) : undefined;
    if (!next || next.accountId !== n.accountId) return { kind: 'end', ending: 'rejected', source: 'callee' };
    n = next;
  }
  switch (n.routingType) {
    case 'callflow': {
      const flow = n.callFlowId ? parts.flows.find(n.accountId, n.callFlowId) : undefined;
      if (!flow?.graph) return { kind: 'end', ending: 'failed', source: 'app', cause: 'app_error' };
      return { kind: 'callflow', flowId: n.callFlowId! };
    }
    case 'webhook':
      if (!n.webhookUrl) return { kind: 'end', ending: 'rejected', source: 'callee' };
      return { kind: 'voiceml', url: n.webhookUrl, method: n.webhookMethod, headers: { ...(n.webhookHeaders ?? {}) } };
    case 'agent': {
      const agents = parts.handled.handlers.get('agent');
      if (!agents || !n.agentId || !accepts(() => agents.check(n.accountId, n.agentId!))) return { kind: 'end', ending: 'failed', source: 'app', cause: 'app_error' };
      // The dictionary is the dialed number's (a forward keeps the number the caller dialed).
      const dialed = parts.numbers.find(to)!;
      return { kind: 'handler', handler: { kind: 'agent', target: n.agentId }, contextUrl: n.callContextUrl ?? null, dictionaryId: dialed.dictionaryId ?? null };
    }
    case 'sip':
    case 'softphone':
      return { kind: 'end', ending: 'no-answer', source: 'carrier' };
    default:
      return { kind: 'end', ending: 'failed', source: 'app', cause: 'app_error' };
  }
}

/** Whether a handler's check lets a call through (its refusal is an API error). */
function accepts(check: () => void): boolean {
  try {
    check();
    return true;
  } catch (err) {
    if (err instanceof ApiError) return false;
    throw err;
  }
}
