// The numbers family: the account's phone numbers, the pools they come from, inbound routing.
// It lists each account's numbers for the accounts' control-plane view (`useNumbers`).
import type { Family } from '../family.ts';
import { NumbersModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { numbersFixture } from './fixture.ts';
import { examples } from './examples.ts';

export const numbers: Family<'numbers', NumbersModel, 'agent' | 'dictionary'> = {
  key: 'numbers',
  create: (rt) => {
    const model = new NumbersModel(rt);
    rt.accounts.useNumbers(model);
    return model;
  },
  operations,
  control,
  examples,
  tags: { Numbers: 'Phone numbers the account owns and how inbound calls and messages route.' },
  // Routing names agents and dictionaries; until their families exist nobody answers (call flows: their family).
  refKinds: ['agent', 'dictionary'],
  fixture: numbersFixture,
};
