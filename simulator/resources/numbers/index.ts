// The numbers family: the account's phone numbers, the pools they come from, inbound routing.
import type { Family } from '../family.ts';
import { NumbersModel } from './model.ts';
import { operations } from './routes.ts';
import { numbersFixture } from './fixture.ts';

export const numbers: Family<'numbers', NumbersModel, 'agent' | 'dictionary'> = {
  key: 'numbers',
  create: (rt) => new NumbersModel(rt),
  operations,
  tags: { Numbers: 'Phone numbers the account owns and how inbound calls and messages route.' },
  // Routing names agents and dictionaries; until their families exist nobody answers (call flows: their family).
  refKinds: ['agent', 'dictionary'],
  fixture: numbersFixture,
};
