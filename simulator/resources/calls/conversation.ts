// A call's conversation (calls handled by an agent, docs/agents.md "The conversation"): ordered
// turns with their speaker, text and times on the call's media position, and the detail the
// inspector shows. The calls family keeps it on the call; handlers append turns through the
// `speak` action; recordings derive transcripts and summaries from it. Text speech takes one
// second per ten characters, at least one (the flow say rule).
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, StringEnum } from '../../core/schema.ts';
import { speechSeconds } from './interpreter.ts';

export const SPEAKERS = ['agent', 'caller', 'party'] as const;
export type SpeakerRole = (typeof SPEAKERS)[number];

/** One tool call as the inspector shows it. */
export const ToolCallDetailSchema = Type.Object(
  {
    name: Type.String(),
    arguments: Type.Record(Type.String(), Type.Unknown()),
    connectionId: Nullable(Type.String()), // the binding's connection; null when no binding allowed the tool
    ok: Type.Boolean(),
    result: Type.String(), // the result's text (ok) or the failure (not ok)
    latencyMs: Type.Number(), // virtual milliseconds the call waited for it
  },
  { additionalProperties: false },
);
export type ToolCallDetail = Static<typeof ToolCallDetailSchema>;

export const TurnDetailSchema = Type.Object(
  {
    rule: Type.Optional(Type.String()), // why the agent said or did this: greeting, rule i (its pattern), fallback, goodbye...
    tool: Type.Optional(ToolCallDetailSchema),
    dtmf: Type.Optional(Type.String()), // keys the phone pressed with this turn
    answer: Type.Optional(Type.String()), // what chose the phone's turn (reply:i, line:i)
    spoken: Type.Optional(Type.String()), // what the phone said before the number's dictionary rewrote it
    events: Type.Optional(Type.Array(Type.String())), // what else happened here (opt-out, transfer, hang-up), in order
  },
  { additionalProperties: false },
);
export type TurnDetail = Static<typeof TurnDetailSchema>;

export const TurnSchema = Type.Object(
  {
    speaker: StringEnum(SPEAKERS),
    party: Type.Integer({ minimum: 0 }), // 1 for the first transfer party, 2 for the next...; 0 for the agent and the caller
    text: Nullable(Type.String()), // null for audio the simulator cannot read, and for turns that only record an event
    startMs: Type.Number(), // milliseconds on the call's media position (0 = answered)
    endMs: Type.Number(),
    detail: TurnDetailSchema,
  },
  { additionalProperties: false },
);
export type Turn = Static<typeof TurnSchema>;

/** How long text speech takes: one second per ten characters, at least one second. */
export function speechMs(text: string): number {
  return speechSeconds(text) * 1000;
}

