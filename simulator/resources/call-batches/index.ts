// The call-batches family: campaigns that call a list of recipients in rounds, through the calls
// family (which hears the carrier and runs the flow), within windows, the legal calling hours, a
// concurrency limit and a pace, and text those not reached through the messages family. Behind
// its door: its ports, the events it follows and its tick job are declared in ports.ts; the
// runtime validates its snapshot part (state.ts), and the model rebuilds its dialer's queues from
// it. Its /_sim route and its view of the inspector draw each batch over virtual time (series.ts).
import { defineFamily } from '../family.ts';
import { CallBatchesModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { BATCH_VIEW_SCRIPT } from './inspector-view.ts';
import { jobs, needs } from './ports.ts';
import { CALL_BATCH_IDS } from './schema.ts';
import { examples } from './examples.ts';
import { callBatchesState } from './state.ts';

export const callBatches = defineFamily({
  key: 'callBatches',
  needs,
  jobs,
  create: (scope) => new CallBatchesModel(scope),
  state: callBatchesState,
  operations,
  control,
  examples,
  tags: {
    'Call batches':
      'Campaigns: recipients called in rounds on the virtual clock within windows, the legal calling hours, a concurrency limit and a pace; texts to those not reached; counts per recipient status.',
  },
  idFormats: CALL_BATCH_IDS,
  capabilities: ['call-batches'],
  inspectorSections: [BATCH_VIEW_SCRIPT],
});
