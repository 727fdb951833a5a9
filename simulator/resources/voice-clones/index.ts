// The voice-clones family: voices cloned from a consented recording, cloning on the virtual
// clock, usable by this account's agents (and call flows) once ready, forbidden to others.
import type { Family } from '../family.ts';
import { VoiceClonesModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { VOICE_CLONE_IDS } from './schema.ts';

export const voiceClones: Family<'voiceClones', VoiceClonesModel> = {
  key: 'voiceClones',
  create: (rt) =>
    new VoiceClonesModel({
      clock: rt.clock,
      get random() {
        return rt.random; // a reset replaces it
      },
    }),
  operations,
  control,
  tags: {
    'Voice clones': 'Voices cloned from a recording with the speaker\'s consent, for this account\'s agents and call flows.',
  },
  idFormats: VOICE_CLONE_IDS,
  capabilities: ['voice-clones'],
};
