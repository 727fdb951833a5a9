// The dictionaries family: transcription dictionaries (hotwords) and their terms, one default
// per account; a number's dictionaryId is checked against them (reference kind `dictionary`) and
// falls back to the default when its dictionary is deleted. Behind its door: it needs the
// numbers (ports.ts) and snapshots its two tables.
import { tablesPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { DictionariesModel } from './model.ts';
import { operations } from './routes.ts';
import { needs } from './ports.ts';
import { DICTIONARY_IDS, DictionariesStateSchema } from './schema.ts';
import { dictionariesFixture } from './fixture.ts';
import { examples } from './examples.ts';

export const dictionaries = defineFamily({
  key: 'dictionaries',
  needs,
  create: (scope) => new DictionariesModel(scope),
  state: tablesPart(DictionariesStateSchema, (m: DictionariesModel) => ({ dictionaries: m.dictionaries, terms: m.terms })),
  fixture: dictionariesFixture,
  operations,
  examples,
  tags: {
    Dictionaries: 'Transcription dictionaries (hotwords): terms as heard and their canonical spelling; one default per account, a number may name its own.',
  },
  idFormats: DICTIONARY_IDS,
  refKinds: ['dictionary'],
});
