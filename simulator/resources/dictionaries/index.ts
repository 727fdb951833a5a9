// The dictionaries family: transcription dictionaries (hotwords) and their terms, one default
// per account; a number's dictionaryId is checked against them (reference kind `dictionary`) and
// falls back to the default when its dictionary is deleted.
import type { Family } from '../family.ts';
import { DictionariesModel } from './model.ts';
import { operations } from './routes.ts';
import { DICTIONARY_IDS } from './schema.ts';

export const dictionaries: Family<'dictionaries', DictionariesModel, 'dictionary'> = {
  key: 'dictionaries',
  create: (rt) =>
    new DictionariesModel({
      clock: rt.clock,
      get random() {
        return rt.random; // a reset replaces it
      },
      refs: rt.refs,
      numbers: {
        // Numbers that named the dictionary fall back to the default (reference: SetNull).
        detachDictionary: (accountId, dictionaryId) => {
          for (const n of rt.numbers.numbers.all()) {
            if (n.accountId === accountId && n.dictionaryId === dictionaryId) rt.numbers.numbers.replace({ ...n, dictionaryId: null });
          }
        },
      },
    }),
  operations,
  tags: {
    Dictionaries: 'Transcription dictionaries (hotwords): terms as heard and their canonical spelling; one default per account, a number may name its own.',
  },
  idFormats: DICTIONARY_IDS,
  refKinds: ['dictionary'],
};
