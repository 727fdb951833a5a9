// The recordings family's /_sim routes: script how its transcript and summary turn out (fail at a
// stage, take N seconds), read their state and its recordings (the inspector plays them from
// here, so the page needs no account key), and the organisation settings (auto-transcription,
// the summary output schema). Documented in docs/control-plane.md, "Recordings, transcripts and
// summaries".
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { callErrors } from '../calls/errors.ts';
import { accountErrors } from '../accounts/errors.ts';
import { recordingErrors } from './errors.ts';
import { wavReply } from './routes.ts';
import type { RecordingsModel } from './model.ts';
import { recordingPath, totalSeconds } from './pieces.ts';
import { operation } from './scope.ts';
import {
  ArtifactScriptBody,
  ArtifactScriptSchema,
  ArtifactSettingsBody,
  TRANSCRIPT_ERRORS,
  TRANSCRIPT_STAGES,
} from './schema.ts';

const TAG = 'Control plane';
const callParams = { callId: Type.String() };

const Settings = Type.Object(
  {
    accountId: Type.String(),
    autoTranscribe: Type.Boolean(),
    summarySchema: Nullable(Type.Record(Type.String(), Type.Unknown())),
    schemaVersion: Type.String({ description: 'promptVersion and schemaVersion of summaries started from now on: default:v1 or org:{accountId}:{hash}.' }),
  },
  { $id: 'SimArtifactSettings', additionalProperties: false },
);

const ArtifactsView = Type.Object(
  {
    recording: Nullable(
      Type.Object(
        {
          state: StringEnum(['recording', 'available', 'deleted', 'expired']),
          seconds: Type.Integer({ minimum: 0 }),
          url: Type.String(),
          endedAt: Nullable(DateTime()),
          expiresAt: Nullable(DateTime()),
          deletedAt: Nullable(DateTime()),
          pieces: Type.Array(Type.Object({ name: Type.String(), seconds: Type.Integer({ minimum: 0 }), at: DateTime(), url: Type.String() }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    transcript: Type.Object(
      {
        status: StringEnum(['not_requested', 'pending', 'completed', 'failed']),
        attempts: Type.Optional(Type.Integer()),
        startedAt: Type.Optional(DateTime()),
        finishedAt: Type.Optional(Nullable(DateTime())),
        stage: Type.Optional(Nullable(StringEnum(TRANSCRIPT_STAGES))),
        error: Type.Optional(Nullable(StringEnum(TRANSCRIPT_ERRORS))),
        audioSeconds: Type.Optional(Type.Integer()),
      },
      { additionalProperties: false },
    ),
    summary: Type.Object(
      {
        status: StringEnum(['not_requested', 'pending', 'completed', 'failed']),
        startedAt: Type.Optional(DateTime()),
        updatedAt: Type.Optional(Nullable(DateTime())),
        failedReason: Type.Optional(Nullable(Type.String())),
        schemaVersion: Type.Optional(Type.String()),
      },
      { additionalProperties: false },
    ),
    script: ArtifactScriptSchema,
  },
  { $id: 'SimCallArtifacts', additionalProperties: false },
);

function settingsWire(s: { id: string; autoTranscribe: boolean; summarySchema: unknown; version: string }) {
  return { accountId: s.id, autoTranscribe: s.autoTranscribe, summarySchema: s.summarySchema, schemaVersion: s.version };
}

/** What the inspector shows of a call: its recordings with their download paths, transcript and summary states. */
function artifactsView(m: RecordingsModel, callId: string) {
  const row = m.recordings.get(callId);
  const t = m.transcripts.get(callId);
  const s = m.summaries.get(callId);
  return {
    recording: row
      ? {
          state: m.stateOf(row),
          seconds: totalSeconds(row),
          url: recordingPath(row.accountId, row.id),
          endedAt: row.endedAt,
          expiresAt: row.expiresAt,
          deletedAt: row.deletedAt,
          pieces: row.pieces.map((p) => ({ name: p.name, seconds: p.seconds, at: p.at, url: `${recordingPath(row.accountId, row.id)}/verb/${encodeURIComponent(p.name)}` })),
        }
      : null,
    transcript: t ? { status: t.status, attempts: t.attempts, startedAt: t.startedAt, finishedAt: t.finishedAt, stage: t.stage, error: t.error, audioSeconds: t.audioSeconds } : { status: 'not_requested' as const },
    summary: s ? { status: s.status, startedAt: s.startedAt, updatedAt: s.updatedAt, failedReason: s.failedReason, schemaVersion: s.version } : { status: 'not_requested' as const },
    script: m.scriptOf(callId),
  };
}

export const operations = [
  operation({
    operationId: 'simScriptCallArtifacts',
    method: 'POST',
    path: '/_sim/calls/{callId}/artifacts',
    tag: TAG,
    summary: 'Script how a call\'s transcript and summary turn out: fail at a stage, take N seconds',
    description:
      'Fields left out keep their value (defaults: succeed, 10 s each). `transcript.failAt` makes attempts fail at that stage with error transcription_failed, `failTimes` of them (null: all); `summary.failedReason` makes the summary fail. no_recording and no_audio are not scripted: they follow from the recording. May be set before or after the call ends; it applies to attempts started after it.',
    origin: 'simulator',
    auth: 'control',
    params: callParams,
    body: ArtifactScriptBody,
    bodyRequired: true,
    responses: { 200: { description: 'The call\'s script now.', schema: ArtifactScriptSchema } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.calls.getAny(params.callId);
      return reply.ok(scope.recordings.script(params.callId, body));
    },
  }),
  operation({
    operationId: 'simGetCallArtifacts',
    method: 'GET',
    path: '/_sim/calls/{callId}/artifacts',
    tag: TAG,
    summary: 'A call\'s recordings (state, lengths, retention), transcript and summary states, and its script',
    origin: 'simulator',
    auth: 'control',
    params: callParams,
    responses: { 200: { description: 'The artifacts.', schema: ArtifactsView } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: ({ scope, params }) => {
      scope.calls.getAny(params.callId);
      return reply.ok(artifactsView(scope.recordings, params.callId));
    },
  }),
  operation({
    operationId: 'simGetCallRecording',
    method: 'GET',
    path: '/_sim/calls/{callId}/recording',
    tag: TAG,
    summary: 'The call\'s whole recording as WAV, without an account key (the inspector plays it)',
    origin: 'simulator',
    auth: 'control',
    params: callParams,
    responses: { 200: { description: 'The WAV file.', contentType: 'audio/wav' } },
    errors: [callErrors.CALL_NOT_FOUND, recordingErrors.RECORDING_NOT_FOUND],
    handler: async ({ scope, params }) => {
      scope.calls.getAny(params.callId);
      return wavReply(await scope.recordings.fileOf(params.callId, null));
    },
  }),
  operation({
    operationId: 'simGetCallVerbRecording',
    method: 'GET',
    path: '/_sim/calls/{callId}/recording/{recordingName}',
    tag: TAG,
    summary: 'One record block\'s recording as WAV, without an account key (the inspector plays it)',
    origin: 'simulator',
    auth: 'control',
    params: { ...callParams, recordingName: Type.String() },
    responses: { 200: { description: 'The WAV file.', contentType: 'audio/wav' } },
    errors: [callErrors.CALL_NOT_FOUND, recordingErrors.RECORDING_NOT_FOUND],
    handler: async ({ scope, params }) => {
      scope.calls.getAny(params.callId);
      return wavReply(await scope.recordings.fileOf(params.callId, params.recordingName));
    },
  }),
  operation({
    operationId: 'simGetArtifactSettings',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/artifact-settings',
    tag: TAG,
    summary: 'An account\'s (organisation\'s) transcript and summary settings',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    responses: { 200: { description: 'The settings.', schema: Settings } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params }) => {
      scope.accounts.require(params.accountId);
      return reply.ok(settingsWire(scope.recordings.settingsOf(params.accountId)));
    },
  }),
  operation({
    operationId: 'simSetArtifactSettings',
    method: 'PUT',
    path: '/_sim/accounts/{accountId}/artifact-settings',
    tag: TAG,
    summary: 'Set auto-transcription and the summary output schema of an account (organisation)',
    description:
      'Fields left out keep their value. `autoTranscribe` (default false): every answered call is transcribed when it ends, as the organisation setting does. `summarySchema` (a JSON Schema object, or null for the default): summaries started from now on conform to it and carry promptVersion and schemaVersion org:{accountId}:{hash} (hash: the first 12 hex digits of SHA-256 over the schema with sorted keys).',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    body: ArtifactSettingsBody,
    bodyRequired: true,
    responses: { 200: { description: 'The settings now.', schema: Settings } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params, body }) => reply.ok(settingsWire(scope.recordings.configure(params.accountId, body))),
  }),
];
