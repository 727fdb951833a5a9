// The call-batches family: campaigns that call a list of recipients in rounds, through the calls
// model (which hears the carrier and runs the flow), within windows, the legal calling hours, a
// concurrency limit and a pace, and text those not reached through the messages slice.
import type { Family } from '../family.ts';
import { CallBatchesModel } from './model.ts';
import { operations } from './routes.ts';
import { CALL_BATCH_IDS } from './schema.ts';
import { examples } from './examples.ts';

export const callBatches: Family<'callBatches', CallBatchesModel> = {
  key: 'callBatches',
  create: (rt) => new CallBatchesModel(rt), // rt satisfies CallBatchesPorts: clock, random, events, calls, callFlows, messages, outbound ports
  operations,
  examples,
  tags: {
    'Call batches':
      'Campaigns: recipients called in rounds on the virtual clock within windows, the legal calling hours, a concurrency limit and a pace; texts to those not reached; counts per recipient status.',
  },
  idFormats: CALL_BATCH_IDS,
  capabilities: ['call-batches'],
};
