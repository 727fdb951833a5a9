// The recordings family's wire errors, apart from the model so that routes and control routes
// (and others' error lists) name them without the model.
import { defineError } from '../../core/errors.ts';
import { MAX_TRANSCRIPT_ATTEMPTS } from './schema.ts';

export const recordingErrors = {
  RECORDING_NOT_FOUND: defineError({
    code: 'recording_not_found', status: 404, origin: 'reference',
    description: 'The call has no such recording: none was made, the call has not ended, it was deleted, or its 90 days of retention are over (reference getRecording/getVerbRecording 404).',
  }),
  NO_RECORDING: defineError({
    code: 'no_recording', status: 400, origin: 'reference',
    description: 'requestTranscript on a call without a recording (none made, not ended yet, deleted or past retention): nothing to transcribe (reference requestTranscript 400).',
  }),
  TRANSCRIPT_ALREADY_REQUESTED: defineError({
    code: 'transcript_already_requested', status: 409, origin: 'reference',
    description: 'The transcript is pending or completed; the body carries `status` (and `startedAt` while pending). A completed transcript is not made or billed again.',
  }),
  TRANSCRIPT_RETRY_LIMIT: defineError({
    code: 'transcript_retry_limit', status: 409, origin: 'reference',
    description: `The transcript failed ${MAX_TRANSCRIPT_ATTEMPTS} times; the body carries \`status\` failed, \`stage\`, and the failure code as \`error\` (reference requestTranscript 409).`,
  }),
};
