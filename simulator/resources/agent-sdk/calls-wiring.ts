// Where the Agent SDK family meets the calls family (the agent seam, calls/handlers.ts): the SDK
// call handler (kind `sdk`) it registers, and the call's actions adapted to what SDK calls ask.
//   check: createCall without Url, AgentId or CallFlowId needs an agent holding `From` (409).
//   claims: an inbound call to a number whose slot is held goes to its agent, whatever the routing.
//   ringing / answered / ended: the call's hand-over and its end (call.ended with status, duration).
import { callErrors } from '../calls/errors.ts';
import type { CallActions, CallFacts, CallHandler, HandledCall } from '../calls/handlers.ts';
import type { SdkCallActions } from './call-ports.ts';
import type { SdkCalls } from './sdk-calls.ts';
import type { SdkCallInfo } from './sdk-call.ts';

/** What the family uses of the calls family: handler registration, the call's actions and facts. */
export interface SdkCallsPort {
  readonly handled: CallActions &
    CallFacts & {
      readonly handlers: { register(kind: 'sdk', handler: CallHandler): void };
    };
}

function infoOf(call: Omit<HandledCall, 'answeredAt'>): SdkCallInfo {
  return {
    callId: call.callId,
    accountId: call.accountId,
    number: call.target,
    direction: call.direction,
    from: call.from,
    to: call.to,
    callerIdRestricted: false,
  };
}

/** The SDK call handler the family registers with the calls family. */
export function sdkCallHandler(calls: SdkCalls, facts: () => CallFacts): CallHandler {
  const begun = (call: Omit<HandledCall, 'answeredAt'>) => calls.calls.get(call.callId) ?? calls.begin(infoOf(call));
  return {
    check(accountId, from) {
      if (!calls.owner(accountId, from)) throw callErrors.AGENT_NOT_CONNECTED(`no Agent SDK is connected to ${from}; give CallFlowId, AgentId or Url`);
    },
    claims: (accountId, number) => calls.owner(accountId, number) !== undefined,
    ringing(call) {
      begun(call);
      calls.ringing(call.callId);
    },
    answered(call) {
      begun(call);
      calls.answered(call.callId);
    },
    transferProgress: () => {}, // each transfer's live listener (sdk-transfers.ts) hears its progress
    ending: (callId) => calls.ending(callId),
    ended(callId) {
      const o = facts().outcome(callId);
      calls.ended(callId, o?.status ?? 'completed', o?.duration ?? 0);
    },
  };
}

/** The seam's actions as SDK calls use them (an SDK transfer carries more than the seam's fields). */
export function sdkCallActions(port: SdkCallsPort): SdkCallActions {
  const a = port.handled;
  return {
    phoneTurn: (callId, heard) => a.phoneTurn(callId, heard),
    speak: (callId, turn) => a.speak(callId, turn),
    hangUp: (callId, by, detail) => a.hangUp(callId, by, detail),
    transfer: (callId, t, progress) =>
      a.transfer(callId, { to: t.to, mode: t.mode, timeout: t.timeout, context: t.context, destinationType: t.destinationType, callerId: t.callerId }, progress),
  };
}
