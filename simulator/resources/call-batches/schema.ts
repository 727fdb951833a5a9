// Wire shapes of call batches (spec "Call batch", "Call batch get"; the public API document's
// createCallBatch, listCallBatches, getCallBatch, listCallBatchTasks, addCallBatchTasks,
// controlCallBatch and its CallBatch / CallBatchTask schemas) and the stored rows.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, HttpUrl, Nullable, PhoneNumber, StringEnum, StringEnumRefusedBy } from '../../core/schema.ts';
import type { IdFormat } from '../../core/ids.ts';
import { StartVariables } from '../../rules/start-variables.ts';
import { withRules } from '../../core/schema-rules.ts';

export const CALL_BATCH_IDS = {
  callBatch: { prefix: 'CB', hex: 24 },
  callBatchTask: { prefix: 'CT', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const BATCH_STATUSES = ['draft', 'scheduled', 'running', 'paused', 'completed', 'canceled', 'expired'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];
/** States from which nothing moves again (reference: actions and added tasks answer 409). */
export const ENDED_BATCH: readonly BatchStatus[] = ['completed', 'canceled', 'expired'];

export const TASK_STATUSES = ['pending', 'dialing', 'done', 'failed', 'canceled', 'suppressed', 'expired'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Outcomes a later round may wait for (reference: Rounds[].On). */
export const ROUND_OUTCOMES = ['no-answer', 'busy', 'rejected', 'failed', 'machine'] as const;
export type RoundOutcome = (typeof ROUND_OUTCOMES)[number];

export const BATCH_ACTIONS = ['pause', 'resume', 'cancel'] as const;
export type BatchAction = (typeof BATCH_ACTIONS)[number];

export const MESSAGE_KINDS = ['first', 'final'] as const;
export const MESSAGE_STATUSES = ['pending', 'queued', 'failed', 'skipped'] as const;
export const MESSAGE_DELIVERY_STATUSES = ['queued', 'sent', 'failed'] as const;

/** The reference's body limit for operations that carry `Tasks` (413 above). */
export const TASKS_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
export const MAX_ROUNDS = 5;
export const DEFAULT_MAX_CONCURRENCY = 1;
export const DEFAULT_PACING_PER_MINUTE = 10;
export const MAX_CONCURRENCY_LIMIT = 500;
export const MAX_PACING_PER_MINUTE = 600;
export const DEFAULT_TIMEZONE = 'Asia/Seoul';

// --- request bodies (PascalCase, as the reference) ---


const TaskInput = Type.Object(
  {
    To: PhoneNumber({ description: 'The recipient; hyphens and +82 accepted.' }),
    Variables: Type.Optional(StartVariables('Start variables of the flow for this recipient only (same rules as createCall Variables).')),
  },
  { additionalProperties: false },
);

const WindowInput = withRules(
  Type.Object(
    {
      Days: Type.Array(Type.Integer(), { description: '1 (Monday) to 7 (Sunday), in the batch time zone.' }),
      Start: Type.String({ maxLength: 5, description: 'HH:MM (24-hour), inclusive.' }),
      End: Type.String({ maxLength: 5, description: 'HH:MM (24-hour, up to 24:00), exclusive; after Start.' }),
    },
    { additionalProperties: false },
  ),
  [
    {
      description: 'Days 1 to 7; Start HH:MM (00:00-23:59), End HH:MM (up to 24:00).',
      code: 'invalid_window',
      schema: { properties: { Days: { items: { minimum: 1, maximum: 7 } }, Start: { pattern: '^(?:[01]\\d|2[0-3]):[0-5]\\d$' }, End: { pattern: '^(?:(?:[01]\\d|2[0-3]):[0-5]\\d|24:00)$' } } },
    },
  ],
);

const RoundInput = Type.Object(
  {
    After: Type.Optional(Type.Integer({ description: 'Minutes after the previous round\'s call ended: 1 to 1440. Not in round 1; required from round 2.' })),
    On: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { description: `Previous outcomes that lead to this round: ${ROUND_OUTCOMES.join(', ')}. Not in round 1; required from round 2.` })),
    Windows: Type.Optional(Type.Array(WindowInput, { maxItems: 50, description: 'When this round may dial; absent: the whole legal calling time (08:00-21:00).' })),
  },
  { additionalProperties: false },
);

const MessageInput = Type.Object({ Body: Type.String({ minLength: 1, maxLength: 2000 }) }, { additionalProperties: false });

export const CreateCallBatchBody = Type.Object(
  {
    Name: Type.String({ minLength: 1, maxLength: 200 }),
    From: PhoneNumber({ description: 'A number the account owns.' }),
    CallFlowId: Type.Optional(Type.String({ maxLength: 200, description: 'Exactly one of CallFlowId, AgentId, Url.' })),
    AgentId: Type.Optional(Type.String({ maxLength: 200, description: 'A managed agent of the account handles each call (404 agent_not_found otherwise); exactly one of CallFlowId, AgentId, Url.' })),
    Url: Type.Optional(HttpUrl({ description: 'The URL that returns VoiceML for each call (exclusive with CallFlowId and AgentId); checked as createCall checks `Url`.' })),
    Tasks: Type.Array(TaskInput, { description: 'Recipients. No count limit; the body may be up to 10 MB (413 above). Empty only with Status draft.' }),
    Status: Type.Optional(StringEnum(['running', 'paused', 'draft'], { description: 'Status right after creation: running (default; scheduled while StartAt is ahead), paused, or draft (assembling the list; resume starts it).' })),
    MachineDetection: Type.Optional(StringEnum(['None', 'Enable', 'Hangup'])),
    Rounds: Type.Optional(Type.Array(RoundInput, { maxItems: MAX_ROUNDS, description: 'Index = round; absent: one attempt in the whole legal time.' })),
    MessagePolicy: Type.Optional(
      Type.Object(
        { OnFirstFail: Type.Optional(MessageInput), OnFinalFail: Type.Optional(MessageInput) },
        { additionalProperties: false, description: 'Texts to recipients not reached; {{name}} takes the recipient\'s Variables.' },
      ),
    ),
    MaxConcurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CONCURRENCY_LIMIT, description: `Calls of this batch at once; default ${DEFAULT_MAX_CONCURRENCY}.` })),
    PacingPerMinute: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PACING_PER_MINUTE, description: `Dials per minute at most; default ${DEFAULT_PACING_PER_MINUTE}.` })),
    Timezone: Type.Optional(Type.String({ maxLength: 64, description: `IANA zone the windows are read in; default ${DEFAULT_TIMEZONE}.` })),
    StartAt: Type.Optional(DateTime()),
    EndAt: Type.Optional(DateTime()),
    Priority: Type.Optional(Type.Integer({ description: 'Accepted and kept; the simulator has no account-wide line limit for it to order.' })),
  },
  { $id: 'CreateCallBatchRequest', additionalProperties: false },
);
export type CreateCallBatchInput = Static<typeof CreateCallBatchBody>;
export type TaskInput = Static<typeof TaskInput>;

export const AddCallBatchTasksBody = Type.Object({ Tasks: Type.Array(TaskInput, { minItems: 1 }) }, { $id: 'AddCallBatchTasksRequest', additionalProperties: false });
export const ControlCallBatchBody = Type.Object({ Action: StringEnumRefusedBy('invalid_batch_action', BATCH_ACTIONS, { maxLength: 40, description: 'pause, resume or cancel.' }) }, { $id: 'ControlCallBatchRequest', additionalProperties: false });

// --- responses (camelCase, as the reference) ---

const WindowWire = Type.Object({ days: Type.Array(Type.Integer()), start: Type.String(), end: Type.String() }, { additionalProperties: false });
const RoundWire = Type.Object(
  { after: Type.Optional(Type.Integer()), on: Type.Optional(Type.Array(StringEnum(ROUND_OUTCOMES))), windows: Type.Optional(Type.Array(WindowWire)) },
  { additionalProperties: false },
);
const MessagePolicyWire = Type.Object(
  { onFirstFail: Type.Optional(Type.Object({ body: Type.String() }, { additionalProperties: false })), onFinalFail: Type.Optional(Type.Object({ body: Type.String() }, { additionalProperties: false })) },
  { additionalProperties: false },
);

const batchFields = {
  batchId: Type.String(),
  name: Type.String(),
  status: StringEnum(BATCH_STATUSES),
  from: Type.String(),
  callFlowId: Nullable(Type.String()),
  agentId: Nullable(Type.String()),
  url: Nullable(Type.String()),
  maxConcurrency: Type.Integer(),
  pacingPerMinute: Type.Integer(),
  timezone: Type.String(),
  startAt: Nullable(DateTime()),
  endAt: Nullable(DateTime()),
  machineDetection: Nullable(StringEnum(['Enable', 'Hangup'])),
  rounds: Type.Array(RoundWire),
  messagePolicy: Nullable(MessagePolicyWire),
  dateCreated: DateTime(),
  dateUpdated: DateTime(),
  counts: Type.Record(Type.String(), Type.Integer(), { description: `Recipients per task status (${TASK_STATUSES.join(', ')}); always sums to the number of tasks.` }),
};
export const CallBatch = Type.Object(batchFields, { $id: 'CallBatch', additionalProperties: false });
/** The creation answer: the batch plus `warnings`, which only this answer carries. */
export const CreatedCallBatch = Type.Object({ ...batchFields, warnings: Type.Array(Type.String()) }, { $id: 'CreatedCallBatch', additionalProperties: false });
export const CallBatchList = Type.Object({ callBatches: Type.Array(CallBatch) }, { $id: 'CallBatchList', additionalProperties: false });

export const CallBatchTask = Type.Object(
  {
    taskId: Type.String(),
    to: Type.String(),
    status: StringEnum(TASK_STATUSES),
    attempt: Type.Integer(),
    dialRound: Type.Integer(),
    nextAttemptAt: Nullable(DateTime()),
    expectedDialAt: Nullable(DateTime()),
    callId: Nullable(Type.String()),
    disposition: Nullable(Type.String()),
    answeredBy: Nullable(Type.String()),
    result: Nullable(Type.Record(Type.String(), Type.String())),
    lastError: Nullable(Type.String()),
    messageKind: Nullable(StringEnum(MESSAGE_KINDS)),
    messageStatus: Nullable(StringEnum(MESSAGE_STATUSES)),
    messageDeliveryStatus: Nullable(StringEnum(MESSAGE_DELIVERY_STATUSES)),
    messageError: Nullable(Type.String()),
  },
  { $id: 'CallBatchTask', additionalProperties: false },
);
export const CallBatchTaskList = Type.Object(
  {
    tasks: Type.Array(CallBatchTask),
    meta: Type.Object({ page: Type.Integer({ description: 'Counted from 1.' }), pageSize: Type.Integer(), total: Type.Integer() }, { additionalProperties: false }),
  },
  { $id: 'CallBatchTaskList', additionalProperties: false },
);
export const AddedTasks = Type.Object({ added: Type.Integer() }, { $id: 'AddedCallBatchTasks', additionalProperties: false });

// --- stored state ---

export const WindowRowSchema = Type.Object(
  {
    days: Type.Array(Type.Integer({ minimum: 1, maximum: 7 })), // ISO days, 1 = Monday
    start: Type.Integer({ minimum: 0, maximum: 1439 }), // minute of the local day, inclusive
    end: Type.Integer({ minimum: 1, maximum: 1440 }), // minute of the local day, exclusive
  },
  { additionalProperties: false },
);
export type WindowRow = Static<typeof WindowRowSchema>;

export const RoundRowSchema = Type.Object(
  {
    after: Nullable(Type.Integer()), // minutes after the previous call ended; null in round 1
    on: Nullable(Type.Array(StringEnum(ROUND_OUTCOMES))), // previous outcomes leading here; null in round 1
    windows: Nullable(Type.Array(WindowRowSchema)), // null: the whole legal time
  },
  { additionalProperties: false },
);
export type RoundRow = Static<typeof RoundRowSchema>;

export const BatchRowSchema = Type.Object(
  {
    id: Type.String(), // maps the batchId to the batch
    accountId: Type.String(),
    name: Type.String(),
    status: StringEnum(BATCH_STATUSES),
    from: Type.String(), // the caller, domestic notation
    callFlowId: Nullable(Type.String()),
    agentId: Nullable(Type.String()),
    url: Nullable(Type.String()),
    maxConcurrency: Type.Integer(),
    pacingPerMinute: Type.Integer(),
    timezone: Type.String(),
    startAt: Nullable(Type.Number()), // epoch ms; dials wait for it
    endAt: Nullable(Type.Number()), // epoch ms; the batch expires then
    machineDetection: Nullable(StringEnum(['Enable', 'Hangup'])),
    rounds: Type.Array(RoundRowSchema),
    onFirstFail: Nullable(Type.String()), // text template after a first failed call that has a retry
    onFinalFail: Nullable(Type.String()), // text template after the last failed call
    priority: Type.Integer(),
    dateCreated: Type.Number(),
    dateUpdated: Type.Number(),
    lastDialAt: Nullable(Type.Number()), // the latest dial: pacing spaces the next one from it
  },
  { additionalProperties: false },
);
export type BatchRow = Static<typeof BatchRowSchema>;

export const TaskRowSchema = Type.Object(
  {
    id: Type.String(), // maps the taskId to the recipient
    seq: Type.Integer(), // position in the batch (creation order), the tie-breaker of equal due times
    to: Type.String(),
    vars: Type.Record(Type.String(), Type.String()), // start variables of its calls
    status: StringEnum(TASK_STATUSES),
    attempt: Type.Integer(), // calls placed
    dialRound: Type.Integer(), // index of the next round to dial (= rounds dialed so far)
    nextAttemptAt: Nullable(Type.Number()), // policy time of the next dial (epoch ms); the expected dial time is derived when shown
    callId: Nullable(Type.String()),
    disposition: Nullable(Type.String()),
    answeredBy: Nullable(Type.String()),
    result: Nullable(Type.Record(Type.String(), Type.String())),
    lastError: Nullable(Type.String()),
    messageKind: Nullable(StringEnum(MESSAGE_KINDS)),
    messageStatus: Nullable(StringEnum(MESSAGE_STATUSES)),
    messageDeliveryStatus: Nullable(StringEnum(MESSAGE_DELIVERY_STATUSES)),
    messageError: Nullable(Type.String()),
    messageId: Nullable(Type.String()), // the text sent for it, whose delivery it follows
    messageDueAt: Nullable(Type.Number()), // when a pending text was due (24 h later it is skipped)
  },
  { additionalProperties: false },
);
export type TaskRow = Static<typeof TaskRowSchema>;

export const CallBatchesStateSchema = Type.Object(
  { batches: Type.Array(Type.Object({ batch: BatchRowSchema, tasks: Type.Array(TaskRowSchema) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type CallBatchesState = Static<typeof CallBatchesStateSchema>;
