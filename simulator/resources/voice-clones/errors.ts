// The wire error codes of voice clones, one declaration each, apart from the model so that
// other families can name them in their errors lists.
import { defineError } from '../../core/errors.ts';
import { CLIP_MAX_BYTES, CLONES_PER_HOUR } from './schema.ts';

export const voiceCloneErrors = {
  NOT_FOUND: defineError({ code: 'voice_clone_not_found', status: 404, origin: 'simulator', description: 'No voice clone with this id in the account.' }),
  CLIP_TOO_LARGE: defineError({ code: 'voice_clip_too_large', status: 413, origin: 'reference', description: `The clip is over ${CLIP_MAX_BYTES} bytes (reference: 413).` }),
  RATE_LIMITED: defineError({ code: 'voice_clone_rate_limited', status: 429, origin: 'reference', description: `More than ${CLONES_PER_HOUR} clones uploaded by the account within an hour (reference: about 10 per hour).` }),
  PROVIDER_FAILED: defineError({ code: 'voice_provider_failed', status: 502, origin: 'reference', description: 'The voice provider failed (scripted through the control plane); nothing changed.' }),
  IN_USE: defineError({ code: 'voice_clone_in_use', status: 409, origin: 'reference', description: 'An agent or a call flow of the account speaks with this voice; `usedBy` names them. Change their voice first.' }),
};
