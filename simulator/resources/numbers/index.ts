// The numbers family: the account's phone numbers, the pools they come from, inbound routing.
import { Type } from '@sinclair/typebox';
import type { Family } from '../family.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import { NumbersModel } from './model.ts';
import { operations } from './routes.ts';
import { examples } from './examples.ts';

/** Its fixture sections: the pools numbers are issued from. */
const fixture = {
  numberPool: Type.Object(
    {
      first: Type.String({ pattern: '^070\\d{8}$', description: 'First number of the pool (070 numbers).' }),
      size: Type.Integer({ minimum: 1, maximum: 100000000 }),
    },
    { additionalProperties: false },
  ),
  representativeNumberPool: Type.Optional(
    Type.Object(
      {
        first: Type.String({ pattern: '^1[5-9]\\d{6}$', description: 'First representative number of the pool (15xx to 19xx, 8 digits).' }),
        size: Type.Integer({ minimum: 1, maximum: 10000000 }),
      },
      { additionalProperties: false, description: 'Where createRepresentativeNumber issues from; without it the pool is empty (409).' },
    ),
  ),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof fixture> {}
}

export const numbers: Family<'numbers', NumbersModel, 'agent' | 'dictionary'> = {
  key: 'numbers',
  create: (rt) => new NumbersModel(rt),
  operations,
  examples,
  tags: { Numbers: 'Phone numbers the account owns and how inbound calls and messages route.' },
  // Routing names agents and dictionaries; until their families exist nobody answers (call flows: their family).
  refKinds: ['agent', 'dictionary'],
  fixture,
};
