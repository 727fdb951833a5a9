// The numbers family: the account's phone numbers, the pools they come from, inbound routing.
// Behind its door: it needs the accounts and the receiver policy (ports.ts), offers its model
// (calls, call flows, SIP, agents and the webhook engine read numbers through their own ports),
// and registers itself with the accounts, whose control-plane view lists an account's numbers
// (`useNumbers`: numbers need accounts, so accounts cannot need numbers).
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { NumbersModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { numbersFixture } from './fixture.ts';
import { examples } from './examples.ts';
import { needs } from './ports.ts';
import { NumbersStateSchema, type NumbersState } from './schema.ts';

export const numbers = defineFamily({
  key: 'numbers',
  needs,
  create: (scope) => {
    const model = new NumbersModel(scope);
    scope.accounts.useNumbers(model);
    return model;
  },
  state: ownPart<NumbersState, NumbersModel>(NumbersStateSchema),
  operations,
  control,
  examples,
  tags: { Numbers: 'Phone numbers the account owns and how inbound calls and messages route.' },
  fixture: numbersFixture,
});
