// The block-list family: blocked callers (inbound) and blocked recipients (opt-outs). Behind its
// door: it needs only an account check (ports.ts), offers its model (calls and texts ask it who
// is blocked), and hands the runtime its two tables as its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { BlockListsModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { blockListsFixture } from './fixture.ts';
import { needs } from './ports.ts';
import { BLOCKLIST_IDS, BlockListsStateSchema } from './schema.ts';
import { examples } from './examples.ts';

export const blockLists = defineFamily({
  key: 'blockLists',
  needs,
  create: (scope) => new BlockListsModel(scope),
  state: tablesPart(
    BlockListsStateSchema,
    (m: BlockListsModel) => ({ callers: m.callers.rows, recipients: m.recipients.rows }),
    (m) => {
      m.callers.reindex();
      m.recipients.reindex();
    },
  ),
  fixture: blockListsFixture,
  operations,
  examples,
  control,
  tags: {
    'Blocked callers': 'Inbound call blocks: calls from these numbers are rejected without answering.',
    'Blocked recipients': 'Opt-outs per channel: outbound calls or messages to these numbers are refused.',
  },
  idFormats: BLOCKLIST_IDS,
  capabilities: ['blocklist-intake'],
});
