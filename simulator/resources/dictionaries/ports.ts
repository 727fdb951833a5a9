// What the dictionaries family needs from others: the numbers, whose dictionaryId falls back to
// the default when their dictionary is deleted (reference: SetNull).
import { port, type ModelScope } from '../../core/scope.ts';

/** Numbers that named a deleted dictionary fall back to the account's default. */
export interface DictionaryNumbers {
  detachDictionary(accountId: string, dictionaryId: string): void;
}

export const needs = { numbers: port<DictionaryNumbers>() };

export type DictionariesModelScope = ModelScope<typeof needs>;
