// Control plane of a call's artifacts: script how its transcript and summary turn out (fail at a
// stage, take N seconds), read their state and its recordings (the inspector plays them from
// here, so the page needs no account key), and the organisation settings (auto-transcription,
// the summary output schema). Documented in docs/control-plane.md, "Recordings, transcripts and
// summaries".
import { Type } from '@sinclair/typebox';
import { defineOperation, reply } from '../core/operation.ts';
import { DateTime, Nullable, StringEnum } from '../core/schema.ts';
import { callErrors } from '../resources/calls/model.ts';
import { simCall } from './calls.ts';
import { accountErrors } from '../resources/accounts/model.ts';
import { recordingErrors } from '../resources/recordings/model.ts';
import { wavReply } from '../resources/recordings/routes.ts';
import {
  ArtifactScriptBody,
  ArtifactScriptSchema,
  ArtifactSettingsBody,
  TRANSCRIPT_ERRORS,
  TRANSCRIPT_STAGES,
} from '../resources/recordings/schema.ts';

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

export const operations = [
  defineOperation({
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
    handler: ({ rt, params, body }) => {
      simCall(rt, params.callId);
      return reply.ok(rt.recordings.script(params.callId, body));
    },
  }),
  defineOperation({
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
    handler: ({ rt, params }) => {
      simCall(rt, params.callId);
      return reply.ok(rt.recordings.view(params.callId));
    },
  }),
  defineOperation({
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
    handler: ({ rt, params }) => {
      simCall(rt, params.callId);
      return wavReply(rt.recordings.fileOf(params.callId, null));
    },
  }),
  defineOperation({
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
    handler: ({ rt, params }) => {
      simCall(rt, params.callId);
      return wavReply(rt.recordings.fileOf(params.callId, params.recordingName));
    },
  }),
  defineOperation({
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
    handler: ({ rt, params }) => {
      rt.accounts.require(params.accountId);
      return reply.ok(settingsWire(rt.recordings.settingsOf(params.accountId)));
    },
  }),
  defineOperation({
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
    handler: ({ rt, params, body }) => reply.ok(settingsWire(rt.recordings.configure(params.accountId, body))),
  }),
];
