// The wire error codes of transcription dictionaries, one declaration each, apart from the model.
import { defineError } from '../../core/errors.ts';
import { DICTIONARIES_PER_ACCOUNT, TERMS_PER_DICTIONARY } from './schema.ts';

export const dictionaryErrors = {
  NOT_FOUND: defineError({ code: 'dictionary_not_found', status: 404, origin: 'simulator', description: 'No dictionary with this id in the account.' }),
  TERM_NOT_FOUND: defineError({ code: 'dictionary_term_not_found', status: 404, origin: 'simulator', description: 'No term with this id in the dictionary.' }),
  TERM_EXISTS: defineError({
    code: 'dictionary_term_exists', status: 409, origin: 'reference',
    description: 'The dictionary already has this term (exact match); the body names the existing term\'s id as `itemId`.',
  }),
  LIMIT: defineError({
    code: 'dictionary_limit', status: 409, origin: 'simulator',
    description: `An account holds at most ${DICTIONARIES_PER_ACCOUNT} dictionaries, a dictionary at most ${TERMS_PER_DICTIONARY} terms.`,
  }),
};
