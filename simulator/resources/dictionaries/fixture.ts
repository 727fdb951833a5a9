// The dictionaries' part of the fixture (docs/fixtures.md): each account's transcription
// dictionaries with their terms, loaded in order through the model (ids from the seed; the first,
// or the one marked isDefault, is the account's default). Beyond the schema: terms are not blank
// and not repeated within a dictionary, and an account marks at most one default.
import { Type } from '@sinclair/typebox';
import { Nullable } from '../../core/schema.ts';
import type { FixtureSection } from '../../fixture/schema.ts';
import type { FixturePart } from '../family.ts';
import type { DictionariesModel } from './model.ts';
import { DICTIONARIES_PER_ACCOUNT, DICTIONARY_NAME_MAX, TERMS_PER_DICTIONARY, TERM_MAX } from './schema.ts';

const TermFixture = Type.Object(
  {
    term: Type.String({ minLength: 1, maxLength: TERM_MAX }),
    canonical: Type.Optional(Nullable(Type.String({ maxLength: TERM_MAX }))),
    enabled: Type.Optional(Type.Boolean({ description: 'Default true.' })),
  },
  { additionalProperties: false },
);

const DictionaryFixture = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: DICTIONARY_NAME_MAX }),
    isDefault: Type.Optional(Type.Boolean({ description: 'Default: the account\'s first dictionary is its default.' })),
    terms: Type.Optional(Type.Array(TermFixture, { maxItems: TERMS_PER_DICTIONARY })),
  },
  { additionalProperties: false },
);

const accountFields = { dictionaries: Type.Optional(Type.Array(DictionaryFixture, { maxItems: DICTIONARIES_PER_ACCOUNT })) };

declare module '../../fixture/schema.ts' {
  interface AccountFixtureFields extends FixtureSection<typeof accountFields> {}
}

export const dictionariesFixture: FixturePart<DictionariesModel> = {
  accountFields,
  check(f, fail) {
    f.accounts.forEach((acc, i) => {
      const list = acc.dictionaries ?? [];
      const defaults = list.map((d, j) => (d.isDefault ? j : -1)).filter((j) => j >= 0);
      if (defaults.length > 1) fail(['accounts', i, 'dictionaries', defaults[1]!, 'isDefault'], 'an account has one default dictionary; another one is already marked');
      list.forEach((d, j) => {
        const seen = new Set<string>();
        (d.terms ?? []).forEach((t, k) => {
          const term = t.term.trim();
          const at = ['accounts', i, 'dictionaries', j, 'terms', k, 'term'];
          if (term === '') fail(at, 'is blank');
          if (seen.has(term)) fail(at, `"${term}" is already in this dictionary`);
          seen.add(term);
        });
      });
    });
  },
  load(model, f) {
    for (const acc of f.accounts) {
      for (const d of acc.dictionaries ?? []) {
        const row = model.create(acc.accountId, d.name);
        for (const t of d.terms ?? []) {
          const term = model.addTerm(acc.accountId, row.id, { term: t.term, canonical: t.canonical ?? null });
          if (t.enabled === false) model.updateTerm(acc.accountId, row.id, term.id, { enabled: false });
        }
        if (d.isDefault && !row.isDefault) model.update(acc.accountId, row.id, { isDefault: true });
      }
    }
  },
};
