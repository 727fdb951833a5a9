// The accounts family: accounts, their API keys, plans and add-ons. No public operations (the
// platform's account API is out of scope); tests create accounts through the control plane.
import { Type } from '@sinclair/typebox';
import type { Family } from '../family.ts';
import { AccountFixture, PlanFixture, type FixtureSection } from '../../fixture/schema.ts';
import { AccountsModel } from './model.ts';
import { ACCOUNT_IDS } from './schema.ts';
import { operations as control } from '../../control/accounts.ts';

/** Its fixture sections: the plans, and the accounts with what each holds. */
const fixture = {
  plans: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), PlanFixture),
  accounts: Type.Array(AccountFixture),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof fixture> {}
}

export const accounts: Family<'accounts', AccountsModel> = {
  key: 'accounts',
  create: (rt) => new AccountsModel(rt),
  control,
  idFormats: ACCOUNT_IDS,
  capabilities: ['accounts'],
  fixture,
};
