// The accounts family: accounts, their API keys, plans and add-ons. No public operations (the
// platform's account API is out of scope); tests create accounts through the control plane.
import type { Family } from '../family.ts';
import { AccountsModel } from './model.ts';
import { ACCOUNT_IDS } from './schema.ts';
import { accountsFixture } from './fixture.ts';
import { operations as control } from '../../control/accounts.ts';

export const accounts: Family<'accounts', AccountsModel> = {
  key: 'accounts',
  create: (rt) => new AccountsModel(rt),
  control,
  idFormats: ACCOUNT_IDS,
  capabilities: ['accounts'],
  fixture: accountsFixture,
};
