// The usage family: what the account used in its billing cycle, aggregated from the sources other
// families register with it. Behind its door: it needs the account (ports.ts), offers its model
// (its `register` to the families that leave usage, `aggregate` to those that read it), and hands
// the runtime the entries recorded through its control routes as its snapshot part.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { UsageModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';
import { UsageStateSchema, type UsageState } from './schema.ts';
import { examples } from './examples.ts';

export const usage = defineFamily({
  key: 'usage',
  needs,
  create: (scope) => new UsageModel(scope),
  state: ownPart<UsageState, UsageModel>(UsageStateSchema),
  operations,
  examples,
  control,
  tags: {
    Usage: 'What the account used in a billing cycle, per meter (messages by type, call and transcription seconds...), with the plan\'s included amounts.',
  },
  capabilities: ['usage'],
});
