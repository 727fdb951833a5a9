// The usage family: what the account used in its billing cycle, derived from the other families.
import type { Family } from '../family.ts';
import { UsageModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from '../../control/usage.ts';
import { examples } from './examples.ts';

export const usage: Family<'usage', UsageModel> = {
  key: 'usage',
  create: (rt) => new UsageModel(rt),
  operations,
  examples,
  control,
  tags: {
    Usage: 'What the account used in a billing cycle, per meter (messages by type, call and transcription seconds...), with the plan\'s included amounts.',
  },
  capabilities: ['usage'],
};
