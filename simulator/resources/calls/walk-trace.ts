// The walk trace of a call (docs/decisions.md "Inspector"): every block the flow entered,
// when, what the phone heard there or what the block did, the input it got (keys pressed, an
// http status, a dial outcome) and the variables it set. Stored on the call, so it is in the
// snapshot and the same on every run; the variables after each step are derived when read
// (start variables plus each step's changes), which keeps the stored trace small.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from '../../core/schema.ts';
import type { Effect, StepTrace, WalkInput } from './interpreter.ts';

/** Steps kept per call; a longer walk (a loop through a menu) counts the rest in `omitted`. */
export const MAX_TRACE_STEPS = 200;

export const TraceStepSchema = Type.Object(
  {
    blockId: Type.String(),
    type: Type.String(),
    at: Type.String({ description: 'When the walk entered the block (virtual time).' }),
    heard: Nullable(Type.String({ description: 'What the phone heard at this block: a say text, a prompt, a hang-up message.' })),
    action: Nullable(Type.String({ description: 'What else the block did, rendered: a text sent, a request made, a number dialed, audio played, a pause.' })),
    keys: Nullable(Type.String({ description: 'What the phone entered at a menu or record prompt; "" is no input.' })),
    result: Nullable(Type.String({ description: 'How the input was taken: menu branch, invalid or timeout; http status and ok or error; dial outcome; recorded seconds.' })),
    inputAt: Nullable(Type.String({ description: 'When the input arrived.' })),
    set: Type.Record(Type.String(), Type.String(), { description: 'The variables this block set.' }),
  },
  { additionalProperties: false },
);
export type TraceStep = Static<typeof TraceStepSchema>;

export const WalkTraceSchema = Type.Object(
  {
    start: Type.Record(Type.String(), Type.String(), { description: 'The variables before the first block.' }),
    steps: Type.Array(TraceStepSchema),
    omitted: Type.Integer({ minimum: 0, description: `Blocks entered after the first ${MAX_TRACE_STEPS}, not kept.` }),
  },
  { additionalProperties: false },
);
export type WalkTrace = Static<typeof WalkTraceSchema>;

/** A trace with no step, holding `start` itself (not a copy): a trace's start is never changed. */
export function emptyTrace(start: Readonly<Record<string, string>>): WalkTrace {
  return { start, steps: [], omitted: 0 };
}

/** What the block's own effect rendered: what the phone heard, or what the block did. */
function rendered(blockId: string, type: string, effects: readonly Effect[]): { heard: string | null; action: string | null } {
  if (type === 'pause') {
    const wait = effects.find((e) => e.type === 'wait');
    return { heard: null, action: wait && wait.type === 'wait' ? `pause ${wait.seconds} s` : null };
  }
  const e = effects.find((x) => 'blockId' in x && x.blockId === blockId);
  if (!e) return { heard: null, action: null };
  switch (e.type) {
    case 'say':
      return { heard: e.text, action: null };
    case 'listen':
      return { heard: e.prompt, action: `wait ${e.timeoutSec} s for ${e.maxDigits === 1 ? 'a key' : `up to ${e.maxDigits} keys`}` };
    case 'record':
      return { heard: e.prompt, action: `record "${e.name}", at most ${e.maxLengthSec} s` };
    case 'play':
      return { heard: null, action: `play ${e.url}` };
    case 'message':
      return { heard: null, action: `text to ${e.to ?? 'the phone on the line'}: ${e.body}` };
    case 'optout':
      return { heard: null, action: `opt ${e.number} out of ${e.channel}` };
    case 'http':
      return { heard: null, action: `${e.method} ${e.url}` };
    case 'dial':
      return { heard: null, action: `dial ${e.kind} ${e.value}` };
    case 'stream':
      return { heard: null, action: `media stream to ${e.url}` };
    default:
      return { heard: null, action: null };
  }
}

/** The input the waiting block got, as the trace shows it. */
function received(input: WalkInput, outcome: string | null): { keys: string | null; result: string | null } {
  switch (input.kind) {
    case 'keys':
      return { keys: input.keys, result: outcome };
    case 'recorded':
      return { keys: input.keys, result: `${input.seconds} s recorded` };
    case 'http':
      return { keys: null, result: `${input.status === null ? 'no answer' : input.status} (${outcome})` };
    case 'dialed':
      return { keys: null, result: input.outcome };
    default:
      return { keys: null, result: outcome };
  }
}

/** The trace after one interpreter step at `at`; the input belongs to the block that waited for it. */
export function recordStep(trace: WalkTrace, step: readonly StepTrace[], effects: readonly Effect[], input: WalkInput, at: string): WalkTrace {
  if (step.length === 0) return trace;
  const steps = [...trace.steps];
  let omitted = trace.omitted;
  for (const s of step) {
    if (s.resumed) {
      const last = steps.at(-1);
      // Past the cap the waiting block may not be stored; its input then goes untraced too.
      if (omitted > 0 || !last || last.blockId !== s.blockId) continue;
      steps[steps.length - 1] = { ...last, ...received(input, s.outcome), inputAt: at, set: { ...last.set, ...s.set } };
      continue;
    }
    if (steps.length >= MAX_TRACE_STEPS) {
      omitted++;
      continue;
    }
    // The rendered parts as members, not spread: a spread inside a literal copies through a generic path (every step of every call).
    const { heard, action } = rendered(s.blockId, s.type, effects);
    steps.push({ blockId: s.blockId, type: s.type, at, heard, action, keys: null, result: null, inputAt: null, set: { ...s.set } });
  }
  return { start: trace.start, steps, omitted };
}

/** The trace as read: each step with every variable after it. */
export function walkView(trace: WalkTrace) {
  let vars: Record<string, string> = { ...trace.start };
  const steps = trace.steps.map((s) => {
    vars = { ...vars, ...s.set };
    return { ...s, variables: vars };
  });
  return { startVariables: trace.start, steps, omitted: trace.omitted };
}
