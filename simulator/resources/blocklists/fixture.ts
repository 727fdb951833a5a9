// The block-list family's part of the fixture (docs/fixtures.md): each account's blocked callers
// and blocked recipients. Beyond the schema: every number is a valid phone number. Entries load
// oldest first, so that list order ("newest first") follows their createdAt.
import { Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { tryNormalizePhone } from '../../core/phone.ts';
import type { Fixture, FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { BlockListsModel } from './model.ts';

export const BlockedCallerFixture = Type.Object(
  {
    number: Type.String({ minLength: 1 }),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    source: Type.Optional(StringEnum(['console', 'api', 'mcp'])),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);

export const BlockedRecipientFixture = Type.Object(
  {
    number: Type.String({ minLength: 1 }),
    channel: StringEnum(['call', 'message', 'email']),
    note: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
    source: Type.Optional(StringEnum(['api', 'console', 'import', 'ars', 'sms', 'agent'])),
    sourceRef: Type.Optional(Nullable(Type.String())),
    createdAt: Type.Optional(DateTime()),
  },
  { additionalProperties: false },
);

const accountFields = {
  blockedCallers: Type.Optional(Type.Array(BlockedCallerFixture)),
  blockedRecipients: Type.Optional(Type.Array(BlockedRecipientFixture)),
};

declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

const LISTS = ['blockedCallers', 'blockedRecipients'] as const;

/** The seed entries oldest first (an entry without createdAt counts as the clock's start). */
function oldestFirst<T extends { createdAt?: string }>(f: Fixture, list: readonly T[] = []): T[] {
  return [...list].sort((x, y) => (x.createdAt ?? f.clock.start).localeCompare(y.createdAt ?? f.clock.start));
}

export const blockListsFixture: FixturePart<BlockListsModel> = {
  accountFields,
  check(f, fail) {
    f.accounts.forEach((a, i) => {
      for (const list of LISTS) {
        (a[list] ?? []).forEach((b, j) => {
          const r = tryNormalizePhone(b.number, 'number');
          if (!r.ok) fail(['accounts', i, list, j, 'number'], r.message);
        });
      }
    });
  },
  normalize(f, instant) {
    for (const a of f.accounts) for (const list of LISTS) for (const b of a[list] ?? []) if (b.createdAt) b.createdAt = instant(b.createdAt);
  },
  load(model, f) {
    for (const a of f.accounts) {
      for (const b of oldestFirst(f, a.blockedCallers)) {
        model.callers.seed(a.accountId, { number: b.number, note: b.note ?? null, source: b.source ?? 'console' }, b.createdAt);
      }
      for (const b of oldestFirst(f, a.blockedRecipients)) {
        model.recipients.seed(a.accountId, { number: b.number, channel: b.channel, note: b.note ?? null, source: b.source ?? 'console', sourceRef: b.sourceRef ?? null }, b.createdAt);
      }
    }
  },
};
