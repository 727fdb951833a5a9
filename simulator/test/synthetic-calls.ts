// Ended call rows as the calls model leaves them (the fields, the timeline, a transfer leg), made
// directly rather than run on the clock: tests and benches that need thousands to a million
// ended calls (usage over 92 days and 10,000 numbers) insert them into the calls table.
import type { CallRow } from '../resources/calls/schema.ts';
import type { TransferLegRow } from '../resources/calls/transfers.ts';

export interface EndedCallSpec {
  id: string;
  accountId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  /** When the call was placed (epoch ms). */
  createdAt: number;
  /** Seconds from placing to the answer (null: never answered). */
  answerAfter: number | null;
  /** Connected seconds (answered calls). */
  talk: number;
  machineDetection?: 'Enable' | 'Hangup' | null;
  /** A connected transfer leg of this many seconds, ending with the call. */
  transferSeconds?: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const EVENTS: CallRow['statusCallbackEvents'] = ['initiated', 'ringing', 'answered', 'completed'];

export function endedCall(s: EndedCallSpec): CallRow {
  const answered = s.answerAfter === null ? null : s.createdAt + s.answerAfter * 1000;
  const end = answered === null ? s.createdAt + 31_000 : answered + s.talk * 1000;
  const status = answered === null ? 'no-answer' : 'completed';
  const timeline: CallRow['timeline'] = [
    { status: 'queued', at: iso(s.createdAt) },
    { status: 'ringing', at: iso(s.createdAt + 1000) },
    ...(answered === null ? [] : [{ status: 'in-progress' as const, at: iso(answered) }]),
    { status, at: iso(end) },
  ];
  const transfers: TransferLegRow[] = [];
  if (s.transferSeconds !== undefined && answered !== null) {
    const connected = end - s.transferSeconds * 1000;
    transfers.push({
      sequence: 1, to: '01099990000', mode: 'blind', destinationType: 'pstn', status: 'completed', hangupCauseQ850: 16, sipResponseCode: 200, reasonText: null,
      startedAt: iso(connected - 2000), connectedAt: iso(connected), endedAt: iso(end), origin: 'dial', context: null,
    });
  }
  return {
    id: s.id,
    accountId: s.accountId,
    direction: s.direction,
    from: s.from,
    to: s.to,
    status,
    dateCreated: iso(s.createdAt),
    answeredAt: answered === null ? null : iso(answered),
    dateUpdated: iso(end),
    duration: answered === null ? 0 : s.talk,
    answeredBy: s.machineDetection && answered !== null ? 'human' : null,
    recordingUrl: null,
    hangupCause: answered === null ? 'no_answer' : 'normal_clearing',
    hangupCauseQ850: answered === null ? 19 : 16,
    sipResponseCode: answered === null ? 480 : 200,
    hangupSource: answered === null ? 'carrier' : 'caller',
    callFlowId: null,
    flowStatus: null,
    machineDetection: s.machineDetection ?? null,
    ringSeconds: 30,
    statusCallback: null,
    statusCallbackEvents: EVENTS,
    callee: { answeredBy: 'human', keys: [], hangupAfterSeconds: null, speakSeconds: 3, replies: [] },
    keyIndex: 0,
    walk: null,
    seq: timeline.length,
    heard: [],
    entered: [],
    sinceInput: [],
    prompts: [],
    deliveryId: null,
    timeline,
    trace: null,
    ...(transfers.length ? { transfers } : {}),
  };
}
