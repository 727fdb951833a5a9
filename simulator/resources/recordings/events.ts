// The account webhooks the recordings family emits (names from the public API document; fields
// docs/decisions.md "Recordings, transcripts and summaries"): a call's recording is complete,
// its transcript and summary completed or failed. `recording.failed` is a name accounts may
// subscribe to, never sent (recordings do not fail here).
import { Type } from '@sinclair/typebox';
import { event, type EventPayloads } from '../../core/events.ts';

/** The form fields: the call, the event, when, and the fields of each event. */
export const ArtifactWebhookFields = Type.Object(
  {
    CallId: Type.String(),
    AccountId: Type.String(),
    Event: Type.String(),
    Timestamp: Type.String(),
    RecordingUrl: Type.Optional(Type.String()),
    RecordingDuration: Type.Optional(Type.String()),
    Status: Type.Optional(Type.String()),
    SegmentCount: Type.Optional(Type.String()),
    Stage: Type.Optional(Type.String()),
    Error: Type.Optional(Type.String()),
    FailedReason: Type.Optional(Type.String()),
    SchemaVersion: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const artifact = event(ArtifactWebhookFields, { subscribable: true });

export const recordingEvents = {
  'transcript.completed': artifact,
  'transcript.failed': artifact,
  'summary.completed': artifact,
  'summary.failed': artifact,
  'recording.completed': artifact,
  'recording.failed': artifact,
};

declare module '../../core/events.ts' {
  interface EventCatalogue extends EventPayloads<typeof recordingEvents> {}
}
