// Transcription dictionaries (hotwords) on the wire and in the snapshot, after the public API
// document's dictionaries operations: dictionaries with one default per account, their terms
// (the heard form, and an optional canonical spelling that replaces it after transcription).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable } from '../../core/schema.ts';
import { atLeastOneField } from '../../core/schema-rules.ts';
import type { IdFormat } from '../../core/ids.ts';

export const DICTIONARY_IDS = {
  dictionary: { prefix: 'DC', hex: 12 },
  dictionaryTerm: { prefix: 'DT', hex: 12 },
} as const satisfies Record<string, IdFormat>;

export const DICTIONARY_NAME_MAX = 60;
export const TERM_MAX = 80;
export const TERMS_PER_DICTIONARY = 1000;
export const DICTIONARIES_PER_ACCOUNT = 100;

export const Dictionary = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    isDefault: Type.Boolean({ description: 'Applies to numbers that name no dictionary; one per account.' }),
    itemCount: Type.Integer({ minimum: 0 }),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { $id: 'Dictionary', additionalProperties: false },
);

export const DictionaryTerm = Type.Object(
  {
    id: Type.String(),
    term: Type.String({ description: 'The form as heard (e.g. the Korean pronunciation of a brand).' }),
    canonical: Nullable(Type.String(), { description: 'Replaces the heard form, exact match; null: no replacement.' }),
    enabled: Type.Boolean({ description: 'false: kept but not applied.' }),
    createdAt: DateTime(),
  },
  { $id: 'DictionaryTerm', additionalProperties: false },
);

export const DictionaryDetail = Type.Object(
  { ...Dictionary.properties, items: Type.Array(DictionaryTerm, { description: 'In creation order.' }) },
  { $id: 'DictionaryDetail', additionalProperties: false },
);

export const DictionaryList = Type.Object(
  { dictionaries: Type.Array(Dictionary, { description: 'The default first, then in creation order.' }) },
  { $id: 'DictionaryListResponse', additionalProperties: false },
);

export const OkResponse = Type.Object({ ok: Type.Boolean() }, { $id: 'DictionaryOkResponse', additionalProperties: false });

export const CreateDictionaryBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: DICTIONARY_NAME_MAX }) },
  { $id: 'CreateDictionaryRequest', additionalProperties: false },
);

export const UpdateDictionaryBody = atLeastOneField(
  Type.Object(
    {
      name: Type.Optional(Type.String({ minLength: 1, maxLength: DICTIONARY_NAME_MAX })),
      isDefault: Type.Optional(Type.Boolean({ description: 'true makes it the default (the former default stops being one); false is refused: make another dictionary the default.' })),
    },
    { $id: 'UpdateDictionaryRequest', additionalProperties: false },
  ),
  'VALIDATION',
);
export type UpdateDictionaryInput = Static<typeof UpdateDictionaryBody>;

const Canonical = Nullable(Type.String({ maxLength: TERM_MAX }), { description: 'null or "" means no replacement.' });

const Term = Type.String({ minLength: 1, maxLength: TERM_MAX, pattern: '\\S', description: 'The form as heard; not blank (trimmed).' });

export const AddTermBody = Type.Object(
  { term: Term, canonical: Type.Optional(Canonical) },
  { $id: 'AddDictionaryTermRequest', additionalProperties: false },
);
export type AddTermInput = Static<typeof AddTermBody>;

export const UpdateTermBody = atLeastOneField(
  Type.Object(
    { term: Type.Optional(Term), canonical: Type.Optional(Canonical), enabled: Type.Optional(Type.Boolean()) },
    { $id: 'UpdateDictionaryTermRequest', additionalProperties: false },
  ),
  'VALIDATION',
);
export type UpdateTermInput = Static<typeof UpdateTermBody>;

const DictionaryRowSchema = Type.Object(
  {
    id: Type.String(), // maps the dictionary id to the dictionary
    accountId: Type.String(),
    name: Type.String(),
    isDefault: Type.Boolean(),
    createdAt: DateTime(),
    updatedAt: DateTime(),
  },
  { additionalProperties: false },
);
export type DictionaryRow = Static<typeof DictionaryRowSchema>;

const TermRowSchema = Type.Object(
  {
    id: Type.String(), // maps the term id to the term
    dictionaryId: Type.String(),
    term: Type.String(),
    canonical: Nullable(Type.String()),
    enabled: Type.Boolean(),
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type TermRow = Static<typeof TermRowSchema>;

export const DictionariesStateSchema = Type.Object(
  { dictionaries: Type.Array(DictionaryRowSchema), terms: Type.Array(TermRowSchema) },
  { additionalProperties: false },
);
export type DictionariesState = Static<typeof DictionariesStateSchema>;
