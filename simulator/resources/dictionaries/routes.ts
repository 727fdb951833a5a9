// HTTP surface of transcription dictionaries after the public API document: list
// (`{ dictionaries }`, the default first), create (201; the first becomes the default), get with
// its terms, PATCH (name, isDefault), delete (200 `{ ok }`), and terms: add (201; 409 for a term
// already there), PATCH, delete (200 `{ ok }`).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { dictionaryErrors } from './errors.ts';
import type { DictionariesModel } from './model.ts';
import {
  AddTermBody,
  CreateDictionaryBody,
  Dictionary,
  DictionaryDetail,
  DictionaryList,
  DictionaryTerm,
  OkResponse,
  UpdateDictionaryBody,
  UpdateTermBody,
  type DictionaryRow,
  type TermRow,
} from './schema.ts';

const TAG = 'Dictionaries';
const BASIS = 'public API document (dictionaries operations); guides "Phone numbers" (dictionaryId)';
const accountParam = { accountId: Type.String({ description: 'Account id.' }) };
const dictionaryParams = { ...accountParam, dictionaryId: Type.String({ description: 'Dictionary id.' }) };
const termParams = { ...dictionaryParams, itemId: Type.String({ description: 'Term id.' }) };

function dictionaryWire(m: DictionariesModel, d: DictionaryRow) {
  return { id: d.id, name: d.name, isDefault: d.isDefault, itemCount: m.termsOf(d.id).length, createdAt: d.createdAt, updatedAt: d.updatedAt };
}

function termWire(t: TermRow) {
  return { id: t.id, term: t.term, canonical: t.canonical, enabled: t.enabled, createdAt: t.createdAt };
}

const common = { tag: TAG, origin: 'reference' as const, basis: BASIS, auth: 'account' as const };

export const operations = [
  operation({
    ...common,
    operationId: 'listDictionaries',
    method: 'GET',
    path: '/v1/accounts/{accountId}/dictionaries',
    summary: 'List the account\'s transcription dictionaries',
    description: 'The default first, then in creation order, under `dictionaries`.',
    params: accountParam,
    responses: { 200: { description: 'The dictionaries.', schema: DictionaryList } },
    handler: (ctx) => {
      const m = ctx.scope.dictionaries;
      return reply.ok({ dictionaries: m.list(ctx.accountId).map((d) => dictionaryWire(m, d)) });
    },
  }),
  operation({
    ...common,
    operationId: 'createDictionary',
    method: 'POST',
    path: '/v1/accounts/{accountId}/dictionaries',
    summary: 'Create a dictionary',
    description: 'The account\'s first dictionary becomes its default. At most 100 per account (409 `dictionary_limit`).',
    params: accountParam,
    body: CreateDictionaryBody,
    bodyRequired: true,
    responses: { 201: { description: 'The dictionary.', schema: Dictionary } },
    errors: [dictionaryErrors.LIMIT],
    handler: (ctx) => {
      const m = ctx.scope.dictionaries;
      return reply.created(dictionaryWire(m, m.create(ctx.accountId, ctx.body.name)));
    },
  }),
  operation({
    ...common,
    operationId: 'getDictionary',
    method: 'GET',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}',
    summary: 'Get a dictionary with its terms',
    params: dictionaryParams,
    responses: { 200: { description: 'The dictionary and its terms in creation order.', schema: DictionaryDetail } },
    errors: [dictionaryErrors.NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.dictionaries;
      const d = m.get(ctx.accountId, ctx.params.dictionaryId);
      return reply.ok({ ...dictionaryWire(m, d), items: m.termsOf(d.id).map(termWire) });
    },
  }),
  operation({
    ...common,
    operationId: 'updateDictionary',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}',
    summary: 'Rename a dictionary or make it the default',
    description: '`isDefault: true` makes it the default (the former default stops being one). `isDefault: false` on the default is refused (400): make another dictionary the default instead. At least one field.',
    params: dictionaryParams,
    body: UpdateDictionaryBody,
    bodyRequired: true,
    responses: { 200: { description: 'The dictionary.', schema: Dictionary } },
    errors: [dictionaryErrors.NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.dictionaries;
      return reply.ok(dictionaryWire(m, m.update(ctx.accountId, ctx.params.dictionaryId, ctx.body)));
    },
  }),
  operation({
    ...common,
    operationId: 'deleteDictionary',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}',
    summary: 'Delete a dictionary and its terms',
    description: 'Numbers that named it fall back to the account\'s default (their dictionaryId becomes null). A deleted default passes to the oldest remaining dictionary.',
    params: dictionaryParams,
    responses: { 200: { description: 'Deleted.', schema: OkResponse } },
    errors: [dictionaryErrors.NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.dictionaries.delete(ctx.accountId, ctx.params.dictionaryId);
      return reply.ok({ ok: true });
    },
  }),
  operation({
    ...common,
    operationId: 'addDictionaryTerm',
    method: 'POST',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}/terms',
    summary: 'Add a term',
    description: '`term` is the heard form; `canonical` (optional; null or "" for none) replaces it, exact match. A term already in the dictionary is 409 `dictionary_term_exists` with its `itemId`. At most 1000 terms (409 `dictionary_limit`).',
    params: dictionaryParams,
    body: AddTermBody,
    bodyRequired: true,
    responses: { 201: { description: 'The term.', schema: DictionaryTerm } },
    errors: [dictionaryErrors.NOT_FOUND, dictionaryErrors.TERM_EXISTS, dictionaryErrors.LIMIT],
    handler: (ctx) => reply.created(termWire(ctx.scope.dictionaries.addTerm(ctx.accountId, ctx.params.dictionaryId, ctx.body))),
  }),
  operation({
    ...common,
    operationId: 'updateDictionaryTerm',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}/terms/{itemId}',
    summary: 'Change a term',
    description: 'Only the fields sent change; `enabled: false` keeps the term but stops applying it.',
    params: termParams,
    body: UpdateTermBody,
    bodyRequired: true,
    responses: { 200: { description: 'The term.', schema: DictionaryTerm } },
    errors: [dictionaryErrors.NOT_FOUND, dictionaryErrors.TERM_NOT_FOUND, dictionaryErrors.TERM_EXISTS],
    handler: (ctx) => reply.ok(termWire(ctx.scope.dictionaries.updateTerm(ctx.accountId, ctx.params.dictionaryId, ctx.params.itemId, ctx.body))),
  }),
  operation({
    ...common,
    operationId: 'deleteDictionaryTerm',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/dictionaries/{dictionaryId}/terms/{itemId}',
    summary: 'Delete a term',
    params: termParams,
    responses: { 200: { description: 'Deleted.', schema: OkResponse } },
    errors: [dictionaryErrors.NOT_FOUND, dictionaryErrors.TERM_NOT_FOUND],
    handler: (ctx) => {
      ctx.scope.dictionaries.deleteTerm(ctx.accountId, ctx.params.dictionaryId, ctx.params.itemId);
      return reply.ok({ ok: true });
    },
  }),
];
