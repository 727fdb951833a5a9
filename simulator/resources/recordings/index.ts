// The recordings family: what a call leaves after it ends (docs/decisions.md "Recordings,
// transcripts and summaries"): its recordings (whole call and per record block, WAV, 90-day
// retention, deletion), its transcript and summary on the virtual clock, their webhooks and usage
// meters. Behind its door: it needs the calls (ports.ts) and follows them through their internal
// events (`call.recorded`: a record block's audio; `call.ended`: the whole-call recording), so
// calls need nothing from it; both sign recording links with the shared rule
// (rules/recording-links.ts). Its five tables are its snapshot part.
import { tablesPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { RecordingsModel } from './model.ts';
import { operations } from './routes.ts';
import { examples } from './examples.ts';
import { operations as control } from './control.ts';
import { jobs, needs } from './ports.ts';
import { recordingEvents } from './events.ts';
import { RecordingsStateSchema } from './schema.ts';

export const recordings = defineFamily({
  key: 'recordings',
  needs,
  events: recordingEvents,
  jobs,
  create: (scope) => new RecordingsModel(scope),
  state: tablesPart(RecordingsStateSchema, (m: RecordingsModel) => ({
    recordings: m.recordings,
    transcripts: m.transcripts,
    summaries: m.summaries,
    scripts: m.scripts,
    settings: m.settings,
  })),
  operations,
  examples,
  control,
  capabilities: ['call-artifacts'],
});
