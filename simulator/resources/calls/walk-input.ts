// What resumes a call's walk (a flow or VoiceML document): the schema of the 'calls.resume'
// job's input, which snapshots carry, and so its type. One input per kind: the speech is over,
// the phone's keys, a recording, an HTTP answer, a dialed leg's outcome, the call dropped, a
// media stream over.
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable } from '../../core/schema.ts';

const input = <K extends string, P extends Record<string, TSchema>>(kind: K, fields: P) =>
  Type.Object({ kind: Type.Literal(kind), ...fields }, { additionalProperties: false });

export const WalkInputSchema = Type.Union([
  input('start', {}),
  // the say/play/pause/hangup speech is over
  input('elapsed', {}),
  // what the callee entered at a menu; '' = the prompt timed out
  input('keys', { keys: Type.String() }),
  input('recorded', { keys: Type.String(), seconds: Type.Number(), url: Type.String() }),
  // status null: no answer (timeout, refused)
  input('http', { status: Nullable(Type.Number()), body: Nullable(Type.String()) }),
  // talkSeconds: how long a completed leg talked (VoiceML reports it)
  input('dialed', { outcome: Type.String(), talkSeconds: Type.Optional(Type.Number()) }),
  // the call ended before the flow did
  input('dropped', {}),
  // VoiceML <Connect><Stream> (voiceml/media-stream.ts)
  input('streamed', { streamSid: Type.String(), ok: Type.Boolean(), reason: Nullable(Type.String()), sent: Type.Number() }),
]);

export type WalkInput = Static<typeof WalkInputSchema>;
