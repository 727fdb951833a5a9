// HTTP surface of a call's artifacts: paths, operationIds and statuses of the public API document
// (getRecording, deleteRecording 204, getVerbRecording, getTranscript, requestTranscript 202,
// getSummary). Recordings are WAV bytes with the document's Content-Disposition.
import { Type } from '@sinclair/typebox';
import { reply, type Reply } from '../../core/operation.ts';
import { linkErrors } from '../../rules/recording-links.ts';
import { callErrors } from '../calls/errors.ts';
import { recordingErrors } from './errors.ts';
import { operation, type RecordingsScope } from './scope.ts';
import { Summary, Transcript, TranscriptRequested } from './schema.ts';

const TAG = 'Calls';
const params = { accountId: Type.String({ description: 'Account id.' }), callId: Type.String() };
/** A link issued before 2026-07-28 carries these and downloads without the bearer header for 24 hours (rules/recording-links.ts). */
const signedQuery = {
  expires: Type.Optional(Type.String({ description: 'Signed links (issued before 2026-07-28): Unix seconds after which the link no longer downloads without the bearer header.' })),
  signature: Type.Optional(Type.String({ description: 'Signed links: the signature of the path and expires. Ignored when the bearer header is sent.' })),
};
const signedLink = (scope: RecordingsScope, url: string) => scope.recordings.signedAccess(url);
const SIGNED_NOTE = ' Links issued before 2026-07-28 (recordingUrl, record-block variables, RecordingUrl) are signed: the path plus expires and signature, downloadable without the bearer header for 24 hours (401 recording_link_expired after, 401 recording_link_invalid when altered); with the bearer header the path downloads as always.';

/** A WAV answer; the file name keeps to characters a header can carry. */
export function wavReply(file: { bytes: Buffer; filename: string }): Reply {
  const name = file.filename.replace(/[^A-Za-z0-9._-]/g, '_');
  return {
    status: 200,
    headers: { 'content-type': 'audio/wav', 'content-disposition': `inline; filename="${name}"`, 'cache-control': 'no-store' },
    bytes: file.bytes,
  };
}

export const operations = [
  operation({
    operationId: 'getRecording',
    method: 'GET',
    path: '/v1/accounts/{accountId}/recordings/{callId}',
    tag: TAG,
    summary: 'Download the call\'s recording (WAV)',
    description:
      'The whole-call recording once the call has ended: 8 kHz mono 16-bit PCM, as long as the record blocks\' recordings together (the simulator records only while a record block runs); a managed agent\'s call is recorded whole, answer to end, its conversation spoken by the simulator\'s speech synthesis. 404 when the call recorded nothing, was deleted, or its 90 days of retention are over.' + SIGNED_NOTE,
    origin: 'reference',
    auth: 'account',
    signedLink,
    params,
    query: signedQuery,
    responses: { 200: { description: 'The WAV file.', contentType: 'audio/wav' } },
    errors: [callErrors.CALL_NOT_FOUND, recordingErrors.RECORDING_NOT_FOUND, linkErrors.RECORDING_LINK_INVALID, linkErrors.RECORDING_LINK_EXPIRED],
    handler: async (ctx) => wavReply(await ctx.scope.recordings.wholeFile(ctx.accountId, ctx.params.callId)),
  }),
  operation({
    operationId: 'deleteRecording',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/recordings/{callId}',
    tag: TAG,
    summary: 'Delete the call\'s recordings',
    description:
      'Idempotent: 204 even when there is no recording. The whole-call recording and every record block\'s recording of the call go; the call\'s recordingUrl becomes null; a transcript or summary already made stays. 404 only for an unknown call.',
    origin: 'reference',
    auth: 'account',
    params,
    responses: { 204: { description: 'Deleted (or there was nothing to delete).' } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.recordings.delete(ctx.accountId, ctx.params.callId);
      return reply.noContent();
    },
  }),
  operation({
    operationId: 'getVerbRecording',
    method: 'GET',
    path: '/v1/accounts/{accountId}/recordings/{callId}/verb/{recordingName}',
    tag: TAG,
    summary: 'Download one record block\'s recording (WAV)',
    description:
      'The recording named by the last path segment of the URL a record block saved (its saveAs, else its block id; the last take when the block ran twice), as long as the callee talked (speakSeconds, capped by maxLengthSec). Kept 90 days after the call ends.' + SIGNED_NOTE,
    origin: 'spec',
    auth: 'account',
    signedLink,
    params: { ...params, recordingName: Type.String() },
    query: signedQuery,
    responses: { 200: { description: 'The WAV file.', contentType: 'audio/wav' } },
    errors: [callErrors.CALL_NOT_FOUND, recordingErrors.RECORDING_NOT_FOUND, linkErrors.RECORDING_LINK_INVALID, linkErrors.RECORDING_LINK_EXPIRED],
    handler: async (ctx) => wavReply(await ctx.scope.recordings.verbFile(ctx.accountId, ctx.params.callId, ctx.params.recordingName)),
  }),
  operation({
    operationId: 'getTranscript',
    method: 'GET',
    path: '/v1/accounts/{accountId}/calls/{callId}/transcript',
    tag: TAG,
    summary: 'Get the call\'s transcript',
    description:
      'One of four shapes by status: not_requested, pending (startedAt), completed (segments of Korean text, speaker_0.. or AGENT/CUSTOMER for calls before 2026-08), failed (stage and error codes, never a vendor\'s text).',
    origin: 'spec',
    auth: 'account',
    params,
    responses: { 200: { description: 'The transcript.', schema: Transcript } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: (ctx) => reply.ok(ctx.scope.recordings.transcriptWire(ctx.accountId, ctx.params.callId)),
  }),
  operation({
    operationId: 'requestTranscript',
    method: 'POST',
    path: '/v1/accounts/{accountId}/calls/{callId}/transcript',
    tag: TAG,
    summary: 'Request the call\'s transcript',
    description:
      'No body (an empty JSON body is accepted). 202 and pending; it completes or fails on the virtual clock (scripted per call: POST /_sim/calls/{callId}/artifacts). A failed transcript may be requested again, up to 3 attempts in all; no_recording and no_audio fail the same way every time. 400 without a recording; 409 while pending or once completed (nothing is made or billed again), and after the third failure.',
    origin: 'reference',
    auth: 'account',
    params,
    responses: { 202: { description: 'Queued.', schema: TranscriptRequested } },
    errors: [callErrors.CALL_NOT_FOUND, recordingErrors.NO_RECORDING, recordingErrors.TRANSCRIPT_ALREADY_REQUESTED, recordingErrors.TRANSCRIPT_RETRY_LIMIT],
    handler: (ctx) => ({ status: 202, body: ctx.scope.recordings.requestTranscript(ctx.accountId, ctx.params.callId) }),
  }),
  operation({
    operationId: 'getSummary',
    method: 'GET',
    path: '/v1/accounts/{accountId}/calls/{callId}/summary',
    tag: TAG,
    summary: 'Get the call\'s summary',
    description:
      'Made after the transcript completes, never otherwise (not_requested until then). One of four shapes by status; completed carries resultJson in the default schema (coreSummary, decisions, followUps, sentiment; promptVersion and schemaVersion default:v1) or in the organisation\'s schema set through the control plane (org:{accountId}:{hash}).',
    origin: 'spec',
    auth: 'account',
    params,
    responses: { 200: { description: 'The summary.', schema: Summary } },
    errors: [callErrors.CALL_NOT_FOUND],
    handler: (ctx) => reply.ok(ctx.scope.recordings.summaryWire(ctx.accountId, ctx.params.callId)),
  }),
];
