// Request examples of voice clones (shown in /openapi.json; sent in document order against the
// default fixture by openapi-examples.test.ts). The clip part is shown base64-encoded: a tiny
// WAV file (8 kHz mono, silence), which the fake provider clones like any other.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
/** A 60-byte WAV file, base64: the bytes of the `clip` part. */
const WAV_BASE64 = 'UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YRAAAAAAAAAAAAAAAAAAAAAAAAAA';

export const examples: Record<string, OperationExample[]> = {
  listVoiceClones: [{ name: 'acme', summary: 'The account\'s clones, newest first', params: acme }],
  createVoiceClone: [
    {
      name: 'ceo',
      summary: 'Clone the CEO\'s voice for announcements (ready on the virtual clock 30 s later)',
      params: acme,
      contentType: 'multipart/form-data',
      body: { name: 'CEO announcements', description: 'Recorded in the studio', consent: 'true', clip: WAV_BASE64 },
    },
    { name: 'spare', summary: 'A second clone', params: acme, contentType: 'multipart/form-data', body: { name: 'Spare voice', consent: 'on', clip: WAV_BASE64 } },
  ],
  deleteVoiceClone: [{ name: 'spare', summary: 'Delete the second clone', params: { ...acme, voiceCloneId: ref('createVoiceClone.spare.id') } }],
};
