// The numbers family's part of the fixture (docs/fixtures.md): the pools numbers are issued from,
// and each account's numbers. Beyond the schema: every number is a valid phone number held by one
// account only, and no account holds more numbers than its plan's lineLimit. Loading puts the
// pools in place and each account's numbers, account by account in fixture order.
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { normalizePhone, tryNormalizePhone } from '../../core/phone.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { NumbersModel } from './model.ts';

const sections = {
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

export const NumberFixture = Type.Object(
  {
    number: Type.String({ minLength: 1 }),
    webhookUrl: Type.Optional(Nullable(Type.String({ format: 'uri' }))),
    webhookMethod: Type.Optional(StringEnum(['POST', 'GET'])),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);

const accountFields = {
  numbers: Type.Optional(Type.Array(Type.Union([Type.String({ minLength: 1 }), NumberFixture]))),
};

declare module '../../fixture/schema.ts' {
  interface Fixture extends FixtureSection<typeof sections> {}
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

export const numbersFixture: FixturePart<NumbersModel> = {
  sections,
  accountFields,
  check(f, fail) {
    const numberOwners = new Map<string, string>();
    f.accounts.forEach((a, i) => {
      (a.numbers ?? []).forEach((n, j) => {
        const raw = typeof n === 'string' ? n : n.number;
        const r = tryNormalizePhone(raw, 'number');
        const path = typeof n === 'string' ? ['accounts', i, 'numbers', j] : ['accounts', i, 'numbers', j, 'number'];
        if (!r.ok) return fail(path, r.message);
        const other = numberOwners.get(r.number);
        if (other) fail(path, `number ${r.number} is already owned by ${other}`);
        numberOwners.set(r.number, a.accountId);
      });
      const limit = f.plans[a.plan]!.lineLimit;
      if ((a.numbers?.length ?? 0) > limit) fail(['accounts', i, 'numbers'], `${a.numbers!.length} numbers exceed the plan's lineLimit of ${limit}`);
    });
  },
  normalize(f, instant) {
    for (const a of f.accounts) for (const n of a.numbers ?? []) if (typeof n !== 'string' && n.createdAt) n.createdAt = instant(n.createdAt);
  },
  load(model, f) {
    model.loadPools(f.numberPool, f.representativeNumberPool);
    for (const a of f.accounts) {
      for (const n of a.numbers ?? []) {
        const spec = typeof n === 'string' ? { number: n } : n;
        model.loadNumber(a.accountId, normalizePhone(spec.number), spec.createdAt ?? a.subscription.startedAt, { url: spec.webhookUrl, method: spec.webhookMethod });
      }
    }
  },
};
