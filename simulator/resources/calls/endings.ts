// How each way a call can end shows on the call: status, hangupCause, Q.850 cause, SIP code and
// who hung up, always consistent with each other (spec "Call": the Q.850 table; SDK facts: the
// cause names). docs/decisions.md "Calls" lists the table.
import type { CallStatus, HangupSource } from './schema.ts';

export type Ending =
  | 'normal' // answered, ended normally (flow end, hang-up, the phone hanging up)
  | 'no-answer'
  | 'busy'
  | 'rejected'
  | 'failed'
  | 'canceled' // hung up through the API before the call was answered
  | 'blocked-caller'; // an inbound caller on the block list, rejected without answering

export interface EndFields {
  status: CallStatus;
  hangupCause: string;
  hangupCauseQ850: number;
  sipResponseCode: number;
}

export const ENDINGS: Record<Ending, EndFields> = {
  normal: { status: 'completed', hangupCause: 'normal_clearing', hangupCauseQ850: 16, sipResponseCode: 200 },
  'no-answer': { status: 'no-answer', hangupCause: 'no_answer', hangupCauseQ850: 19, sipResponseCode: 480 },
  busy: { status: 'busy', hangupCause: 'user_busy', hangupCauseQ850: 17, sipResponseCode: 486 },
  rejected: { status: 'rejected', hangupCause: 'call_rejected', hangupCauseQ850: 21, sipResponseCode: 603 },
  failed: { status: 'failed', hangupCause: 'network_out_of_order', hangupCauseQ850: 38, sipResponseCode: 503 },
  canceled: { status: 'canceled', hangupCause: 'caller_canceled', hangupCauseQ850: 16, sipResponseCode: 487 },
  'blocked-caller': { status: 'rejected', hangupCause: 'call_rejected', hangupCauseQ850: 21, sipResponseCode: 603 },
};

/** Who ended it when the carrier reports an outcome: the network for no-answer and failures, the callee for busy and rejected. */
export function carrierSource(ending: Ending): HangupSource {
  return ending === 'busy' || ending === 'rejected' ? 'callee' : 'carrier';
}

/**
 * The platform's side of a call (where the flow runs) is the caller of an outbound call and
 * the callee of an inbound one; the phone is the other side.
 */
export function platformSide(direction: 'outbound' | 'inbound'): HangupSource {
  return direction === 'outbound' ? 'caller' : 'callee';
}

export function phoneSide(direction: 'outbound' | 'inbound'): HangupSource {
  return direction === 'outbound' ? 'callee' : 'caller';
}
