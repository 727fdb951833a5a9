// The recordings family: what a call leaves after it ends (issue 11): its recordings (whole call
// and per record block, WAV, 90-day retention, deletion), its transcript and summary on the
// virtual clock, their webhooks and usage meters. It hears calls end through the calls model's
// `endedListeners` and gets each record block's recording from the calls model's hook (`recorded`).
import type { Family } from '../family.ts';
import { RecordingsModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from '../../control/artifacts.ts';
import { examples } from './examples.ts';

export const recordings: Family<'recordings', RecordingsModel> = {
  key: 'recordings',
  create: (rt) => new RecordingsModel(rt),
  operations,
  examples,
  control,
  capabilities: ['call-artifacts'],
};
