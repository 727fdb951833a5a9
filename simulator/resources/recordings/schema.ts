// Wire shapes and stored rows of a call's artifacts: recordings (spec "Calls", Limits "recording
// retention"; reference getRecording, deleteRecording, getVerbRecording), transcripts and
// summaries (spec "Transcript", "Summary": four shapes each, selected by `status`; reference
// requestTranscript) and what the control plane scripts about them.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';

/** Spec Limits: recordings are kept 90 days (from the call's end here, docs/decisions.md). */
export const RETENTION_DAYS = 90;
export const RETENTION_MS = RETENTION_DAYS * 86_400_000;
/** Transcription attempts per call; past them requestTranscript answers 409 (reference "재시도 한도"). */
export const MAX_TRANSCRIPT_ATTEMPTS = 3;
/** Virtual seconds a transcript and a summary take when no script says otherwise. */
export const DEFAULT_TRANSCRIPT_SECONDS = 10;
export const DEFAULT_SUMMARY_SECONDS = 10;
/** Transcripts from this instant on use speaker_N; older calls keep AGENT and CUSTOMER (Versioning 6). */
export const NUMBERED_SPEAKERS_FROM = '2026-08-01T00:00:00Z';
export const DEFAULT_SCHEMA_VERSION = 'default:v1';
export const SUMMARY_PROVIDER = 'simulator';
export const SUMMARY_MODEL = 'simulated-summary-1';

export const TRANSCRIPT_STAGES = ['download', 'runtime', 'transcription', 'trigger', 'recover', 'audio'] as const;
export type TranscriptStage = (typeof TRANSCRIPT_STAGES)[number];
export const TRANSCRIPT_ERRORS = ['transcription_failed', 'no_recording', 'no_audio'] as const;
export type TranscriptError = (typeof TRANSCRIPT_ERRORS)[number];
/** Summary failure reasons: codes, never a vendor's text (docs/decisions.md). */
export const SUMMARY_FAILED_REASONS = ['summary_failed', 'schema_mismatch', 'transcript_too_short'] as const;

// --- stored rows ---

const Piece = Type.Object(
  {
    name: Type.String({ description: 'The record block\'s name: its saveAs, else its block id.' }),
    seconds: Type.Integer({ minimum: 0 }),
    at: DateTime({ description: 'When the block\'s recording ended.' }),
  },
  { additionalProperties: false },
);

export const RecordingRowSchema = Type.Object(
  {
    id: Type.String(), // the callId: one whole-call recording per call
    accountId: Type.String(),
    phoneNumber: Type.String(), // the account's number on the call (usage's number axis)
    seed: Type.Integer({ minimum: 0 }), // the audio and text come from it, generated when read
    callCreatedAt: DateTime(),
    pieces: Type.Array(Piece), // the record blocks' recordings in order; the whole-call file is them joined
    endedAt: Nullable(DateTime()), // the call's end; the whole-call file exists from then on
    expiresAt: Nullable(DateTime()), // endedAt + 90 days
    deletedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type RecordingRow = Static<typeof RecordingRowSchema>;

export const TranscriptRowSchema = Type.Object(
  {
    id: Type.String(), // the callId
    accountId: Type.String(),
    status: StringEnum(['pending', 'completed', 'failed']),
    attempts: Type.Integer({ minimum: 1 }),
    startedAt: DateTime(),
    finishedAt: Nullable(DateTime()),
    stage: Nullable(StringEnum(TRANSCRIPT_STAGES)),
    error: Nullable(StringEnum(TRANSCRIPT_ERRORS)),
    audioSeconds: Type.Integer({ minimum: 0 }), // the recording's length when transcribed (usage)
  },
  { additionalProperties: false },
);
export type TranscriptRow = Static<typeof TranscriptRowSchema>;

export const SummaryRowSchema = Type.Object(
  {
    id: Type.String(), // the callId
    accountId: Type.String(),
    status: StringEnum(['pending', 'completed', 'failed']),
    startedAt: DateTime(),
    updatedAt: Nullable(DateTime()),
    failedReason: Nullable(Type.String()),
    version: Type.String(), // promptVersion and schemaVersion: default:v1 or org:{accountId}:{hash}
    schema: Nullable(Type.Unknown()), // the organisation's output schema when the summary started
    audioSeconds: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type SummaryRow = Static<typeof SummaryRowSchema>;

const TranscriptScript = Type.Object(
  {
    failAt: Nullable(StringEnum(TRANSCRIPT_STAGES, { description: 'Attempts fail at this stage with error transcription_failed; null: they succeed.' })),
    failTimes: Nullable(Type.Integer({ minimum: 1, description: 'How many attempts fail (then they succeed); null: every attempt.' })),
    seconds: Type.Integer({ minimum: 0, maximum: 86_400, description: `Virtual seconds an attempt takes (default ${DEFAULT_TRANSCRIPT_SECONDS}).` }),
  },
  { additionalProperties: false },
);
const SummaryScript = Type.Object(
  {
    failedReason: Nullable(StringEnum(SUMMARY_FAILED_REASONS, { description: 'The summary fails with this reason; null: it succeeds.' })),
    seconds: Type.Integer({ minimum: 0, maximum: 86_400, description: `Virtual seconds the summary takes (default ${DEFAULT_SUMMARY_SECONDS}).` }),
  },
  { additionalProperties: false },
);
export const ArtifactScriptSchema = Type.Object(
  {
    id: Type.String(), // the callId
    transcript: TranscriptScript,
    summary: SummaryScript,
  },
  { additionalProperties: false },
);
export type ArtifactScript = Static<typeof ArtifactScriptSchema>;

export const ArtifactSettingsSchema = Type.Object(
  {
    id: Type.String(), // the accountId
    autoTranscribe: Type.Boolean(),
    summarySchema: Nullable(Type.Unknown()),
    version: Type.String(),
  },
  { additionalProperties: false },
);
export type ArtifactSettings = Static<typeof ArtifactSettingsSchema>;

export const RecordingsStateSchema = Type.Object(
  {
    recordings: Type.Array(RecordingRowSchema),
    transcripts: Type.Array(TranscriptRowSchema),
    summaries: Type.Array(SummaryRowSchema),
    scripts: Type.Array(ArtifactScriptSchema),
    settings: Type.Array(ArtifactSettingsSchema),
  },
  { additionalProperties: false },
);

// --- wire shapes (spec tables, exactly) ---

const Segment = Type.Object(
  {
    speaker: Type.String({ description: 'speaker_0, speaker_1, ... (one more per transfer party); AGENT and CUSTOMER for calls before 2026-08.' }),
    start: Type.Number({ description: 'Seconds into the recording.' }),
    end: Type.Number(),
    text: Type.String(),
  },
  { additionalProperties: false },
);
export const Transcript = Type.Union(
  [
    Type.Object({ status: Type.Literal('completed'), callId: Type.String(), segmentCount: Type.Integer({ minimum: 0 }), segments: Type.Array(Segment) }, { additionalProperties: false }),
    Type.Object({ status: Type.Literal('pending'), startedAt: DateTime() }, { additionalProperties: false }),
    Type.Object({ status: Type.Literal('failed'), stage: Nullable(StringEnum(TRANSCRIPT_STAGES)), error: Nullable(StringEnum(TRANSCRIPT_ERRORS)) }, { additionalProperties: false }),
    Type.Object({ status: Type.Literal('not_requested') }, { additionalProperties: false }),
  ],
  { $id: 'Transcript', description: 'One of four shapes selected by status (spec "Transcript").' },
);
export const TranscriptRequested = Type.Object({ status: Type.Literal('pending'), callId: Type.String() }, { $id: 'TranscriptRequested', additionalProperties: false });
export const Summary = Type.Union(
  [
    Type.Object(
      {
        status: Type.Literal('completed'),
        callId: Type.String(),
        resultJson: Type.Record(Type.String(), Type.Unknown(), { description: 'Conforms to the organisation\'s output schema, else the default schema (coreSummary, decisions, followUps, sentiment).' }),
        provider: Type.String(),
        model: Type.String(),
        promptVersion: Type.String(),
        schemaVersion: Type.String(),
        updatedAt: DateTime(),
      },
      { additionalProperties: false },
    ),
    Type.Object({ status: Type.Literal('pending') }, { additionalProperties: false }),
    Type.Object({ status: Type.Literal('failed'), failedReason: Nullable(Type.String()) }, { additionalProperties: false }),
    Type.Object({ status: Type.Literal('not_requested') }, { additionalProperties: false }),
  ],
  { $id: 'Summary', description: 'One of four shapes selected by status (spec "Summary").' },
);

// --- control plane ---

export const ArtifactScriptBody = Type.Object(
  {
    transcript: Type.Optional(Type.Partial(TranscriptScript)),
    summary: Type.Optional(Type.Partial(SummaryScript)),
  },
  { additionalProperties: false },
);
export type ArtifactScriptInput = Static<typeof ArtifactScriptBody>;

export const ArtifactSettingsBody = Type.Object(
  {
    autoTranscribe: Type.Optional(Type.Boolean({ description: 'Transcribe every answered call when it ends (the organisation setting); default false.' })),
    summarySchema: Type.Optional(
      Nullable(Type.Record(Type.String(), Type.Unknown(), { description: 'The organisation\'s output schema (a JSON Schema object); null: the default schema.' })),
    ),
  },
  { additionalProperties: false },
);
export type ArtifactSettingsInput = Static<typeof ArtifactSettingsBody>;
