// A call's row before anything happened to it: queued, every end field null, the flow's walk
// started with its variables when a flow runs it. createCall, inbound calls and calls a handler
// places (a SIP client's INVITE) fill in the rest.
import { DEFAULT_CALLEE } from '../../peers/carrier/schema.ts';
import { initialState } from './interpreter.ts';
import { emptyTrace } from './walk-trace.ts';
import type { CallRow } from './schema.ts';

/** Ring seconds when createCall gives no Timeout (reference: createCall). */
export const DEFAULT_RING_SECONDS = 30;

/** `vars` is taken, not copied: the walk starts with it and the trace shows it as the start (neither changes it). */
export function blankCall(nowIso: string, accountId: string, id: string, direction: 'outbound' | 'inbound', from: string, to: string, flowId: string | null, vars: Record<string, string>): CallRow {
  return {
    id,
    accountId,
    direction,
    from,
    to,
    status: 'queued',
    dateCreated: nowIso,
    answeredAt: null,
    dateUpdated: null,
    duration: null,
    answeredBy: null,
    recordingUrl: null,
    hangupCause: null,
    hangupCauseQ850: null,
    sipResponseCode: null,
    hangupSource: null,
    callFlowId: flowId,
    flowStatus: null,
    machineDetection: null,
    ringSeconds: DEFAULT_RING_SECONDS,
    statusCallback: null,
    statusCallbackEvents: [],
    callee: { ...DEFAULT_CALLEE },
    keyIndex: 0,
    walk: flowId === null ? null : initialState(vars),
    seq: 0,
    heard: [],
    entered: [],
    sinceInput: [],
    prompts: [],
    deliveryId: null,
    timeline: [{ status: 'queued', at: nowIso }],
    trace: flowId === null ? null : emptyTrace(vars),
  };
}
