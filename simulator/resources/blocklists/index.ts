// The block-list family: blocked callers (inbound) and blocked recipients (opt-outs).
import type { Family } from '../family.ts';
import { BlockListsModel } from './model.ts';
import { operations } from './routes.ts';
import { BLOCKLIST_IDS } from './schema.ts';
import { operations as control } from '../../control/blocklists.ts';
import { examples } from './examples.ts';

export const blockLists: Family<'blockLists', BlockListsModel> = {
  key: 'blockLists',
  create: (rt) => new BlockListsModel(rt),
  operations,
  examples,
  control,
  tags: {
    'Blocked callers': 'Inbound call blocks: calls from these numbers are rejected without answering.',
    'Blocked recipients': 'Opt-outs per channel: outbound calls or messages to these numbers are refused.',
  },
  idFormats: BLOCKLIST_IDS,
  capabilities: ['blocklist-intake'],
};
