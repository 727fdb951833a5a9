// Wire shapes of calls (spec "Call", "Calls"; the public API document's CallResponse, createCall,
// updateCall) and the stored row with the walk of its call flow.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, PhoneNumber, StringEnum, wordListPattern } from '../../core/schema.ts';
import { ListMetaSchema } from '../../core/paging.ts';
import { CalleeSchema } from '../../peers/carrier/schema.ts';
import type { IdFormat } from '../../core/ids.ts';
import { WalkTraceSchema } from './walk-trace.ts';
import { TransferLegRowSchema, TransferLegWire } from './transfers.ts';
import { VoiceMlStateSchema } from './voiceml/walker.ts';
import { RESERVED_VARIABLES, StartVariables } from '../../rules/start-variables.ts';
import { TurnSchema } from './conversation.ts';
import { HANDLER_KINDS } from './handlers.ts';
import { PackedTableSchema } from '../../core/packed-transfer.ts';

export const CALL_IDS = {
  call: { prefix: 'CA', hex: 32 },
} as const satisfies Record<string, IdFormat>;

export const CALL_STATUSES = ['queued', 'ringing', 'in-progress', 'completed', 'failed', 'busy', 'no-answer', 'canceled', 'rejected'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const IN_PROGRESS: readonly CallStatus[] = ['queued', 'ringing', 'in-progress'];
export const HANGUP_SOURCES = ['carrier', 'callee', 'caller', 'app', 'system'] as const;
export type HangupSource = (typeof HANGUP_SOURCES)[number];
export const STATUS_CALLBACK_EVENTS = ['initiated', 'ringing', 'answered', 'completed', 'transfer'] as const;
export type StatusCallbackEvent = (typeof STATUS_CALLBACK_EVENTS)[number];
export const DEFAULT_STATUS_CALLBACK_EVENTS: StatusCallbackEvent[] = ['initiated', 'ringing', 'answered', 'completed'];
/** Names the platform fills during a call; `Variables` may not set them (createCall). */
export { RESERVED_VARIABLES };

export const PLAY_TARGETS = ['both', 'caller', 'callee'] as const;

/** A stored playback (call row `playbacks`). */
export const PlaybackRowSchema = Type.Object(
  {
    id: Type.String(), // the playbackId answered
    at: DateTime(), // when it was accepted and started
    until: DateTime(), // when it is over
    target: StringEnum(PLAY_TARGETS),
    text: Nullable(Type.String()),
    url: Nullable(Type.String()),
    language: StringEnum(['ko', 'en', 'ja']),
    voice: Nullable(Type.String()),
  },
  { additionalProperties: false },
);
export type PlaybackRow = Static<typeof PlaybackRowSchema>;

const TRANSFER_STATUSES = ['completed', 'failed', 'no-answer', 'busy', 'canceled'] as const;

const callFields = {
  callId: Type.String(),
  status: StringEnum(CALL_STATUSES),
  to: Type.String(),
  from: Type.String(),
  direction: StringEnum(['outbound', 'inbound']),
  duration: Nullable(Type.Integer({ description: 'Seconds from answer to end; 0 for calls never answered; null while in progress.' })),
  accountId: Type.String(),
  answeredBy: Nullable(StringEnum(['human', 'machine', 'unknown'], { description: 'Only for outbound calls with machine detection on.' })),
  recordingUrl: Nullable(Type.String()),
  hangupCause: Nullable(Type.String()),
  hangupCauseQ850: Nullable(Type.Integer()),
  sipResponseCode: Nullable(Type.Integer()),
  hangupSource: Nullable(StringEnum(HANGUP_SOURCES)),
  transferTo: Nullable(Type.String()),
  transferStatus: Nullable(StringEnum(TRANSFER_STATUSES)),
  transferDuration: Nullable(Type.Integer()),
  transferHangupCauseQ850: Nullable(Type.Integer()),
  transferSipResponseCode: Nullable(Type.Integer()),
  transferReasonText: Nullable(Type.String()),
  dateCreated: DateTime(),
  dateUpdated: Nullable(DateTime({ description: 'End time of the call; null while in progress.' })),
};

/** A call in a list: `transfers` is omitted (spec "Calls"). */
export const CallSummary = Type.Object(callFields, { $id: 'CallSummary', additionalProperties: false });
/** A single call: with the full chain of transfer legs, ordered by sequence. */
export const Call = Type.Object({ ...callFields, transfers: Type.Array(TransferLegWire) }, { $id: 'Call', additionalProperties: false });
export const CallList = Type.Object({ data: Type.Array(CallSummary), meta: ListMetaSchema }, { $id: 'CallList', additionalProperties: false });
export const CallControlResponse = Type.Object({ callId: Type.String(), status: StringEnum(CALL_STATUSES) }, { $id: 'CallControlResponse', additionalProperties: false });

const VariableValue = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

export const CreateCallBody = Type.Object(
  {
    To: PhoneNumber({ description: 'The callee; hyphens and +82 accepted, stored in domestic notation.' }),
    From: PhoneNumber({ description: 'A number the account owns.' }),
    Url: Type.Optional(HttpUrl({ description: 'The URL that returns VoiceML: requested (POST, form-encoded, signed with X-Signature) when the call is answered, then verb by verb; see the README voice section. Exclusive with AgentId and CallFlowId.' })),
    AgentId: Type.Optional(Type.String({ maxLength: 200, description: 'A managed agent of the account handles the call (404 agent_not_found otherwise). Exclusive with Url and CallFlowId.' })),
    CallContext: Type.Optional(
      Type.Object(
        {
          Instruction: Type.String({ maxLength: 4000, description: 'Instructions for this call only.' }),
          Variables: Type.Optional(Type.Record(Type.String(), VariableValue, { maxProperties: 50, description: 'At most 50; values become strings; the agent\'s behaviour reads them as {{var.name}}.' })),
        },
        { additionalProperties: false, description: 'Only with AgentId; PascalCase keys only (snake_case ones are refused).' },
      ),
    ),
    CallFlowId: Type.Optional(Type.String({ maxLength: 200, description: 'The call flow that runs the call. Exclusive with Url and AgentId.' })),
    Variables: Type.Optional(
      StartVariables('Start variables of the flow (only with CallFlowId): at most 50, 8 KB in all, names [A-Za-z_][A-Za-z0-9_]*, not a reserved name; values become strings.'),
    ),
    Timeout: Type.Optional(Type.Integer({ description: 'Seconds the call rings before it ends no-answer: 30 when omitted or below 1, at most 600.' })),
    StatusCallback: Type.Optional(HttpUrl({ description: 'Receives the call status events.' })),
    StatusCallbackEvent: Type.Optional(Type.String({ maxLength: 200, pattern: wordListPattern(STATUS_CALLBACK_EVENTS), description: 'Space-separated: initiated ringing answered completed transfer; default "initiated ringing answered completed".' })),
    MachineDetection: Type.Optional(StringEnum(['Enable', 'Hangup'], { description: 'Enable: report answeredBy and continue; Hangup: end the call when a machine answers.' })),
    AI: Type.Optional(Type.Unknown({ description: 'Removed: the AI Completion mode is discontinued; a body carrying it is refused with 410 ai_mode_removed (use AgentId, or no mode for the Agent SDK).', deprecated: true })),
  },
  { $id: 'CreateCallRequest', additionalProperties: false },
);
export type CreateCallInput = Static<typeof CreateCallBody>;

export const UpdateCallBody = Type.Object(
  { Status: StringEnum(['completed'], { description: 'Only completed: hang up (or cancel a call not yet answered).' }) },
  { $id: 'UpdateCallRequest', additionalProperties: false },
);

/** The flow walk (interpreter.ts WalkState). */
const WalkStateSchema = Type.Object(
  {
    at: Nullable(Type.String()),
    waiting: Nullable(StringEnum(['timer', 'hangup', 'keys', 'recording', 'http', 'dial'])),
    vars: Type.Record(Type.String(), Type.String()),
    ended: Nullable(StringEnum(['completed', 'abandoned'])),
    visited: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);

export const CallRowSchema = Type.Object(
  {
    id: Type.String(), // maps the callId to the call
    accountId: Type.String(),
    direction: StringEnum(['outbound', 'inbound']),
    from: Type.String(), // the caller, domestic notation
    to: Type.String(), // the callee, domestic notation
    status: StringEnum(CALL_STATUSES),
    dateCreated: DateTime(),
    answeredAt: Nullable(DateTime()), // when the call connected; duration counts from here
    dateUpdated: Nullable(DateTime()), // end time (spec: null until the call ends)
    duration: Nullable(Type.Integer()),
    answeredBy: Nullable(StringEnum(['human', 'machine', 'unknown'])),
    recordingUrl: Nullable(Type.String()),
    hangupCause: Nullable(Type.String()),
    hangupCauseQ850: Nullable(Type.Integer()),
    sipResponseCode: Nullable(Type.Integer()),
    hangupSource: Nullable(StringEnum(HANGUP_SOURCES)),
    callFlowId: Nullable(Type.String()), // the flow that handles the call, if any
    flowStatus: Nullable(StringEnum(['completed', 'abandoned'])), // the callflow.ended Status once sent
    machineDetection: Nullable(StringEnum(['Enable', 'Hangup'])),
    ringSeconds: Type.Integer(), // Timeout after clamping
    statusCallback: Nullable(Type.String()),
    statusCallbackEvents: Type.Array(StringEnum(STATUS_CALLBACK_EVENTS)),
    callee: CalleeSchema, // how the phone on the line behaves (carrier script or inbound body)
    keyIndex: Type.Integer({ minimum: 0 }), // entries of callee.keys used so far
    walk: Nullable(WalkStateSchema), // the flow walk; null for calls without a flow or before answer
    seq: Type.Integer({ minimum: 0 }), // bumped at every walk step: clock jobs of an older step are stale
    heard: Type.Array(Type.String()), // what the phone on the line heard (rendered texts)
    entered: Type.Array(Type.String()), // what it entered at each prompt
    sinceInput: Type.Array(Type.String()), // texts heard since its last input (what replies match)
    prompts: Type.Array(Type.Object({ heard: Type.String(), entered: Type.String(), answer: Type.String() }, { additionalProperties: false })), // per prompt: heard, entry, and what chose it
    deliveryId: Nullable(Type.String()), // the carrier delivery of an outbound call
    timeline: Type.Array(Type.Object({ status: StringEnum(CALL_STATUSES), at: DateTime() }, { additionalProperties: false })), // every status the call took, when
    trace: Nullable(WalkTraceSchema), // the blocks the flow walked (walk-trace.ts); null for calls without a flow
    transfers: Type.Optional(Type.Array(TransferLegRowSchema)), // transfer legs by sequence (transfer-legs.ts); absent in older snapshots
    playbacks: Type.Optional(Type.Array(PlaybackRowSchema)), // announcements played into the call (live-control.ts)
    voiceml: Type.Optional(VoiceMlStateSchema), // the VoiceML walk (voiceml/walker.ts) of a Url call or a webhook-routed number
    handler: Type.Optional(Type.Object({ kind: StringEnum(HANDLER_KINDS), target: Type.String() }, { additionalProperties: false })), // who handles the call when no flow or VoiceML does (handlers.ts): an agent id, an SDK-held number
    context: Type.Optional(Nullable(Type.Object({ instruction: Nullable(Type.String()), variables: Type.Record(Type.String(), Type.String()) }, { additionalProperties: false }))), // CallContext (createCall, or the number's callContextUrl)
    contextUrl: Type.Optional(Nullable(Type.String())), // an inbound agent call: the number's callContextUrl, fetched just before the answer
    dictionaryId: Type.Optional(Nullable(Type.String())), // the platform side's number's dictionary (null: the account's default)
    conversation: Type.Optional(Type.Array(TurnSchema)), // calls handled by a handler: the turns, in order (conversation.ts)
    talk: Type.Optional(Type.Object({ linesUsed: Type.Integer({ minimum: 0 }) }, { additionalProperties: false })), // the phone's talking state (peers/phone-talk.ts)
  },
  { additionalProperties: false },
);
export type CallRow = Static<typeof CallRowSchema>;

// Version 2 snapshots keep ended calls packed (core/packed-transfer.ts); `calls` then holds the rest.
export const CallsStateSchema = Type.Object({ calls: Type.Array(CallRowSchema), packed: Type.Optional(PackedTableSchema) }, { additionalProperties: false });
export type CallsState = Static<typeof CallsStateSchema>;
