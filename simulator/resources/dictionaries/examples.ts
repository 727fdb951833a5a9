// Request examples of transcription dictionaries (shown in /openapi.json; sent in document
// order against the default fixture by openapi-examples.test.ts). The account has none at
// first, so the first one created becomes its default.
import type { OperationExample } from '../../core/operation.ts';
import { ref } from '../example-refs.ts';

const acme = { accountId: 'AC1a2b3c4d' };
const BRANDS = { ...acme, dictionaryId: ref('createDictionary.brands.id') };

export const examples: Record<string, OperationExample[]> = {
  listDictionaries: [{ name: 'acme', summary: 'The account\'s dictionaries, the default first', params: acme }],
  createDictionary: [
    { name: 'brands', summary: 'Brand names (the account\'s first: its default)', params: acme, body: { name: 'Brand names' } },
    { name: 'spare', summary: 'A second dictionary', params: acme, body: { name: 'Spare' } },
  ],
  getDictionary: [{ name: 'brands', summary: 'One dictionary with its terms', params: BRANDS }],
  updateDictionary: [{ name: 'rename', summary: 'Rename it and keep it the default', params: BRANDS, body: { name: 'Brands and products', isDefault: true } }],
  deleteDictionary: [{ name: 'spare', summary: 'Delete the second dictionary', params: { ...acme, dictionaryId: ref('createDictionary.spare.id') } }],
  addDictionaryTerm: [
    { name: 'acme', summary: 'Write the heard form as the brand', params: BRANDS, body: { term: '애크미', canonical: 'Acme' } },
    { name: 'spare', summary: 'A hotword without a replacement', params: BRANDS, body: { term: '물류센터' } },
  ],
  updateDictionaryTerm: [{ name: 'disable', summary: 'Keep the term but stop applying it', params: { ...BRANDS, itemId: ref('addDictionaryTerm.acme.id') }, body: { enabled: false } }],
  deleteDictionaryTerm: [{ name: 'spare', summary: 'Delete the hotword', params: { ...BRANDS, itemId: ref('addDictionaryTerm.spare.id') } }],
};
