// Request examples of recordings, transcripts and summaries (shown in /openapi.json; sent in
// document order against the default fixture by openapi-examples.test.ts). They read the calls
// examples' calls once these have ended.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const VOICEMAIL = ref('createCall.flow.callId');
const DELETED = ref('createCall.other.callId');

export const examples: Record<string, OperationExample[]> = {
  getRecording: [{ name: 'call', summary: 'The whole call as WAV', params: { ...acme, callId: VOICEMAIL } }],
  deleteRecording: [{ name: 'other', summary: 'Delete a call\'s recordings (204 whether it had any or not)', params: { ...acme, callId: DELETED } }],
  getVerbRecording: [{ name: 'memo', summary: 'What the record block named memo recorded', params: { ...acme, callId: VOICEMAIL, recordingName: 'memo' } }],
  getTranscript: [{ name: 'call', summary: 'The transcript and its status', params: { ...acme, callId: VOICEMAIL } }],
  requestTranscript: [{ name: 'call', summary: 'Transcribe the recording', params: { ...acme, callId: VOICEMAIL } }],
  getSummary: [{ name: 'call', summary: 'The summary of the transcript', params: { ...acme, callId: VOICEMAIL } }],
};
