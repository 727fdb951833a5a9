// The accounts family's part of the fixture (docs/fixtures.md): the plans, and each account's own
// fields (the other families add theirs to each account). Beyond the schema: account ids and API
// keys are unique across the fixture and every account names a plan that exists. Loading puts
// the plans and accounts in their tables in fixture order.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { iso, parseInstant } from '../../core/clock.ts';
import type { AccountFixtureFields, FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { AccountsModel } from './model.ts';
import { ADDONS, PlanFixture } from './schema.ts';

/** Each account's own fields (accounts family); the other families add theirs (their `accountFields`). */
export const AccountFixture = Type.Object(
  {
    accountId: Type.String({ pattern: '^AC[A-Za-z0-9]{1,64}$', description: 'Account id, "AC" followed by letters or digits.' }),
    name: Type.String({ minLength: 1 }),
    plan: Type.String({ minLength: 1, description: 'A key of `plans`.' }),
    addons: Type.Optional(Type.Array(StringEnum(ADDONS))),
    subscription: Type.Object(
      {
        status: StringEnum(['active', 'inactive']),
        startedAt: DateTime({ description: 'The billing cycle starts at this instant (usage rule 1).' }),
      },
      { additionalProperties: false },
    ),
    apiKeys: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_\\-]{8,128}$' }), { minItems: 1 }),
    ipExceptions: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'Addresses exempt from the overseas block.' })),
    messagingOps: Type.Optional(
      Type.Object(
        {
          blocked: Type.Optional(Type.Boolean({ description: 'Barred from texting by operations (403 messaging_blocked). Default false.' })),
          monthlyCap: Type.Optional(Nullable(Type.Integer({ minimum: 0 }), { description: 'Operations cap on outbound messages of all types per UTC month (422 override_quota_exceeded). Default null.' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

/** One entry of `accounts`: its own fields and those the other families add. */
export type AccountFixtureT = Static<typeof AccountFixture> & AccountFixtureFields;

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
  load(model, f) {
    for (const [id, p] of Object.entries(f.plans)) model.plans.insert({ id, ...p });
    const start = parseInstant(f.clock.start)!;
    for (const a of f.accounts) {
      model.accounts.insert({
        id: a.accountId,
        name: a.name,
        plan: a.plan,
        addons: [...(a.addons ?? [])],
        subscription: { status: a.subscription.status, startedAt: a.subscription.startedAt },
        apiKeys: [...a.apiKeys],
        ipExceptions: [...(a.ipExceptions ?? [])],
        messagingOps: { blocked: a.messagingOps?.blocked ?? false, monthlyCap: a.messagingOps?.monthlyCap ?? null },
        createdAt: iso(Math.min(start, parseInstant(a.subscription.startedAt)!)),
      });
    }
    model.reindex();
  },
};
