// The accounts family's part of the fixture (docs/fixtures.md): the plans, and each account's own
// fields (the other families add theirs to each account). Beyond the schema: account ids and API
// keys are unique across the fixture and every account names a plan that exists.
import { Type } from '@sinclair/typebox';
import { AccountFixture, PlanFixture, type FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { AccountsModel } from './model.ts';

const sections = {
  plans: Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), PlanFixture),
  accounts: Type.Array(AccountFixture),
};
declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<Omit<typeof sections, 'accounts'>> {
    accounts: AccountFixtureT[];
  }
}

export const accountsFixture: FixturePart<AccountsModel> = {
  sections,
  check(f, fail) {
    const accountIds = new Set<string>();
    const keyOwners = new Map<string, string>();
    f.accounts.forEach((a, i) => {
      if (accountIds.has(a.accountId)) fail(['accounts', i, 'accountId'], `account ${a.accountId} is defined twice`);
      accountIds.add(a.accountId);
      if (!f.plans[a.plan]) fail(['accounts', i, 'plan'], `no plan named "${a.plan}" (plans: ${Object.keys(f.plans).join(', ') || 'none'})`);
      a.apiKeys.forEach((k, j) => {
        const other = keyOwners.get(k);
        if (other) fail(['accounts', i, 'apiKeys', j], `API key already belongs to ${other}`);
        keyOwners.set(k, a.accountId);
      });
    });
  },
  normalize(f, instant) {
    for (const a of f.accounts) a.subscription.startedAt = instant(a.subscription.startedAt);
  },
};
