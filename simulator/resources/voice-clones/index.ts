// The voice-clones family: voices cloned from a consented recording, cloning on the virtual
// clock, usable by this account's agents and call flows once ready, forbidden to others. Behind
// its door: it needs nothing, declares its finishing job, and snapshots its clones, the recent
// uploads (the hourly limit) and the fake provider's script.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { VoiceClonesModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { jobs, needs } from './ports.ts';
import { VOICE_CLONE_IDS, VoiceClonesStateSchema, type VoiceClonesState } from './schema.ts';
import { examples } from './examples.ts';

export const voiceClones = defineFamily({
  key: 'voiceClones',
  needs,
  jobs,
  create: (scope) => new VoiceClonesModel(scope),
  state: ownPart<VoiceClonesState, VoiceClonesModel>(VoiceClonesStateSchema),
  operations,
  examples,
  control,
  tags: {
    'Voice clones': 'Voices cloned from a recording with the speaker\'s consent, for this account\'s agents and call flows.',
  },
  idFormats: VOICE_CLONE_IDS,
  capabilities: ['voice-clones'],
});
