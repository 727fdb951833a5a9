// The accounts family: accounts, their API keys, plans and add-ons. No public operations (the
// platform's account API is out of scope); tests create accounts through the fixed control
// plane and change them through the family's own /_sim routes (control.ts). Behind its door: it
// needs nobody (ports.ts), offers its model (every family asks it who a key belongs to and what
// the account may do), and hands the runtime its two tables as its snapshot part.
import { defineFamily } from '../family.ts';
import { tablesPart } from '../../core/table-state.ts';
import { AccountsModel } from './model.ts';
import { operations as control } from './control.ts';
import { operations as plansControl } from './plans-control.ts';
import { accountsFixture } from './fixture.ts';
import { needs } from './ports.ts';
import { ACCOUNT_IDS, AccountsStateSchema } from './schema.ts';

export const accounts = defineFamily({
  key: 'accounts',
  needs,
  create: (scope) => new AccountsModel(scope),
  state: tablesPart(AccountsStateSchema, (m: AccountsModel) => ({ plans: m.plans, accounts: m.accounts }), (m) => m.reindex()),
  fixture: accountsFixture,
  control: [...control, ...plansControl],
  idFormats: ACCOUNT_IDS,
  capabilities: ['accounts'],
});
