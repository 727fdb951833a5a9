// The calls' /_sim route: one call as the inspector shows it, found by its id alone (no account
// key): the call, its status timeline, the blocks its flow walked with the keys pressed and the
// variables after each, what the phone heard, and the `callflow.ended` payload it announced.
// Documented in docs/control-plane.md, "Calls (the walk)".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { callErrors } from './errors.ts';
import { callWire } from './wire.ts';
import { Call, CALL_STATUSES, type CallRow } from './schema.ts';
import { flowEndedPayload } from './announce.ts';
import { transfersWire } from './transfers.ts';
import { TraceStepSchema, walkView } from './walk-trace.ts';
import { TurnSchema } from './conversation.ts';
import { operation } from './scope.ts';

const TAG = 'Control plane';
const Vars = Type.Record(Type.String(), Type.String());

const CallWalkView = Type.Object(
  {
    call: Call,
    callFlowId: Nullable(Type.String()),
    timeline: Type.Array(Type.Object({ status: StringEnum(CALL_STATUSES), at: DateTime() }, { additionalProperties: false }), { description: 'Every status the call took, in order, with its virtual time.' }),
    walk: Nullable(
      Type.Object(
        {
          status: StringEnum(['running', 'completed', 'abandoned'], { description: 'running until the flow ends; then the Status callflow.ended carried. A VoiceML call: running until the call ends, then completed, or abandoned after an app_error or a hang-up mid-walk.' }),
          startVariables: Vars,
          steps: Type.Array(Type.Object({ ...TraceStepSchema.properties, variables: Type.Record(Type.String(), Type.String(), { description: 'Every variable after this block.' }) }, { additionalProperties: false })),
          omitted: Type.Integer({ minimum: 0, description: 'Blocks entered after the first 200, not kept.' }),
        },
        { additionalProperties: false, description: 'The blocks the flow walked, or for a VoiceML call each request (fetch-<n>) and verb (<document>.<verb>); null for a call with neither.' },
      ),
    ),
    phone: Type.Object(
      {
        heard: Type.Array(Type.String()),
        entered: Type.Array(Type.String()),
        prompts: Type.Array(Type.Object({ heard: Type.String(), entered: Type.String(), answer: Type.String() }, { additionalProperties: false })),
      },
      { additionalProperties: false, description: 'The phone on the line: each text it heard, its entry at each prompt and what chose it (as on /_sim/carrier/phones).' },
    ),
    flowEnded: Nullable(Type.Record(Type.String(), Type.String(), { description: 'The callflow.ended form fields the call announced (whether or not a webhook received them); null before the flow ends or without a flow.' })),
    handler: Type.Optional(
      Type.Object(
        { kind: Type.String({ description: 'agent (a managed agent) or sdk (the customer\'s runtime).' }), target: Type.String({ description: 'The agent id, or the number whose runtime holds the call.' }), context: Nullable(Type.Object({ instruction: Nullable(Type.String()), variables: Vars }, { additionalProperties: false })) },
        { additionalProperties: false, description: 'Calls handled by an agent: who handles it and the CallContext it got.' },
      ),
    ),
    conversation: Type.Optional(Type.Array(TurnSchema, { description: 'Calls handled by an agent: the conversation turn by turn (docs/agents.md), times in ms from the answer, with the rule that fired, tool calls, keys and events.' })),
  },
  { $id: 'SimCallWalk', additionalProperties: false },
);

function callWalk(row: CallRow) {
  // A VoiceML walk (no flow state) is running until the call ends, then completed unless it was cut short or ended in app_error.
  const voiceStatus = row.dateUpdated === null ? 'running' : row.voiceml?.ended && row.hangupCause !== 'app_error' ? 'completed' : 'abandoned';
  const walk = row.trace === null ? null : { status: row.walk?.ended ?? (row.voiceml ? voiceStatus : 'running'), ...walkView(row.trace) };
  return {
    call: { ...callWire(row), transfers: transfersWire(row.transfers ?? []) },
    callFlowId: row.callFlowId,
    timeline: row.timeline,
    walk,
    phone: { heard: row.heard, entered: row.entered, prompts: row.prompts },
    // end() announces exactly this, at dateUpdated, and the row does not change after it.
    flowEnded: row.flowStatus === null || row.dateUpdated === null ? null : flowEndedPayload(row, row.dateUpdated),
    ...(row.handler ? { handler: { ...row.handler, context: row.context ?? null } } : {}),
    ...(row.conversation ? { conversation: row.conversation } : {}),
  };
}

export const operations = [
  operation({
    operationId: 'simGetCallWalk',
    method: 'GET',
    path: '/_sim/calls/{callId}',
    tag: TAG,
    summary: 'One call of any account: status timeline, the blocks its flow walked, what the phone heard and entered, the callflow.ended payload',
    description:
      'For the inspector and for tests: the walk lists each block entered with its id, type, virtual time, what the phone heard or what the block did, the keys entered and how they were taken, the variables it set and every variable after it.',
    origin: 'simulator',
    auth: 'control',
    params: { callId: Type.String() },
    responses: { 200: { description: 'The call and its walk.', schema: CallWalkView } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: ({ scope, params }) => reply.ok(callWalk(scope.calls.getAny(params.callId))),
  }),
];
