// Transcription dictionaries (public API document, guides "Phone numbers"): one default per
// account (the first dictionary becomes it; `isDefault: true` moves it; deleting the default
// passes it to the oldest remaining one), terms unique within a dictionary, numbers that name a
// deleted dictionary fall back to the default. What a dictionary does to a managed agent's
// hearing is rewrite.ts; this model hands out the rewriter that applies to a number.
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import { dictionaryErrors } from './errors.ts';
import { freshId } from '../../core/ids.ts';
import type { DictionariesModelScope } from './ports.ts';
import { rewriter } from './rewrite.ts';
import {
  DICTIONARIES_PER_ACCOUNT,
  DICTIONARY_IDS,
  TERMS_PER_DICTIONARY,
  type AddTermInput,
  type DictionaryRow,
  type TermRow,
  type UpdateDictionaryInput,
  type UpdateTermInput,
} from './schema.ts';

export { dictionaryErrors };


export class DictionariesModel {
  readonly dictionaries = new Table<DictionaryRow>(); // maps a dictionary id to the dictionary
  readonly terms = new Table<TermRow>(); // maps a term id to the term (and its dictionary)

  constructor(private readonly ports: DictionariesModelScope) {
    ports.refs.register('dictionary', (accountId, id) => this.dictionaries.get(id)?.accountId === accountId);
  }

  /** The default first, then in creation order. */
  list(accountId: string): DictionaryRow[] {
    const own = this.dictionaries.all().filter((d) => d.accountId === accountId);
    return [...own.filter((d) => d.isDefault), ...own.filter((d) => !d.isDefault)];
  }

  get(accountId: string, id: string): DictionaryRow {
    const d = this.dictionaries.get(id);
    if (!d || d.accountId !== accountId) throw dictionaryErrors.NOT_FOUND(`no dictionary ${id} in this account`);
    return d;
  }

  termsOf(dictionaryId: string): TermRow[] {
    return this.terms.all().filter((t) => t.dictionaryId === dictionaryId);
  }

  create(accountId: string, name: string): DictionaryRow {
    const own = this.list(accountId);
    if (own.length >= DICTIONARIES_PER_ACCOUNT) throw dictionaryErrors.LIMIT(`the account already has ${DICTIONARIES_PER_ACCOUNT} dictionaries`);
    const now = this.ports.clock.nowIso();
    const id = freshId(this.ports.random, DICTIONARY_IDS.dictionary, (x) => this.dictionaries.has(x));
    return this.dictionaries.insert({ id, accountId, name: name.trim() || name, isDefault: own.length === 0, createdAt: now, updatedAt: now });
  }

  update(accountId: string, id: string, input: UpdateDictionaryInput): DictionaryRow {
    const d = this.get(accountId, id);
    if (input.name === undefined && input.isDefault === undefined) throw ApiError.validation('give name or isDefault', [{ path: '', message: 'nothing to update' }]);
    if (input.isDefault === false && d.isDefault) {
      throw ApiError.validation('isDefault cannot be set to false: an account keeps one default dictionary; make another dictionary the default instead', [{ path: 'isDefault', message: 'make another dictionary the default' }]);
    }
    const now = this.ports.clock.nowIso();
    if (input.isDefault === true && !d.isDefault) {
      for (const other of this.list(accountId)) if (other.isDefault) this.dictionaries.replace({ ...other, isDefault: false, updatedAt: now });
    }
    return this.dictionaries.replace({ ...d, name: input.name ?? d.name, isDefault: input.isDefault === true ? true : d.isDefault, updatedAt: now });
  }

  /** Terms go with it; numbers naming it fall back to the default; a deleted default passes to the oldest remaining. */
  delete(accountId: string, id: string): void {
    const d = this.get(accountId, id);
    for (const t of this.termsOf(id)) this.terms.delete(t.id);
    this.dictionaries.delete(id);
    this.ports.numbers.detachDictionary(accountId, id);
    if (d.isDefault) {
      const heir = this.list(accountId)[0];
      if (heir) this.dictionaries.replace({ ...heir, isDefault: true, updatedAt: this.ports.clock.nowIso() });
    }
  }

  getTerm(accountId: string, dictionaryId: string, itemId: string): TermRow {
    this.get(accountId, dictionaryId);
    const t = this.terms.get(itemId);
    if (!t || t.dictionaryId !== dictionaryId) throw dictionaryErrors.TERM_NOT_FOUND(`no term ${itemId} in dictionary ${dictionaryId}`);
    return t;
  }

  private refuseDuplicate(dictionaryId: string, term: string, except: string | null): void {
    const same = this.termsOf(dictionaryId).find((t) => t.term === term && t.id !== except);
    if (same) throw dictionaryErrors.TERM_EXISTS(`the dictionary already has the term "${term}"`, { itemId: same.id, errors: [{ path: 'term', message: 'already in this dictionary' }] });
  }

  addTerm(accountId: string, dictionaryId: string, input: AddTermInput): TermRow {
    const d = this.get(accountId, dictionaryId);
    const term = checkTerm(input.term);
    this.refuseDuplicate(d.id, term, null);
    if (this.termsOf(d.id).length >= TERMS_PER_DICTIONARY) throw dictionaryErrors.LIMIT(`the dictionary already has ${TERMS_PER_DICTIONARY} terms`);
    const now = this.ports.clock.nowIso();
    const id = freshId(this.ports.random, DICTIONARY_IDS.dictionaryTerm, (x) => this.terms.has(x));
    const row = this.terms.insert({ id, dictionaryId: d.id, term, canonical: canonicalOf(input.canonical), enabled: true, createdAt: now });
    this.touch(d);
    return row;
  }

  updateTerm(accountId: string, dictionaryId: string, itemId: string, input: UpdateTermInput): TermRow {
    const t = this.getTerm(accountId, dictionaryId, itemId);
    if (input.term === undefined && input.canonical === undefined && input.enabled === undefined) {
      throw ApiError.validation('give term, canonical or enabled', [{ path: '', message: 'nothing to update' }]);
    }
    const term = input.term === undefined ? t.term : checkTerm(input.term);
    this.refuseDuplicate(dictionaryId, term, t.id);
    const row = this.terms.replace({ ...t, term, canonical: input.canonical === undefined ? t.canonical : canonicalOf(input.canonical), enabled: input.enabled ?? t.enabled });
    this.touch(this.get(accountId, dictionaryId));
    return row;
  }

  deleteTerm(accountId: string, dictionaryId: string, itemId: string): void {
    const t = this.getTerm(accountId, dictionaryId, itemId);
    this.terms.delete(t.id);
    this.touch(this.get(accountId, dictionaryId));
  }

  private touch(d: DictionaryRow): void {
    this.dictionaries.replace({ ...d, updatedAt: this.ports.clock.nowIso() });
  }

  /**
   * The dictionary a number applies: its own (`dictionaryId`), which replaces the account's
   * default rather than merging with it; null: the default; none at all: undefined.
   */
  applying(accountId: string, dictionaryId: string | null): DictionaryRow | undefined {
    if (dictionaryId !== null) {
      const own = this.dictionaries.get(dictionaryId);
      if (own && own.accountId === accountId) return own;
    }
    return this.list(accountId).find((d) => d.isDefault);
  }

  /** What rewrites an agent's hearing on a number; identity without a dictionary. */
  rewriterFor(accountId: string, dictionaryId: string | null): (text: string) => string {
    const d = this.applying(accountId, dictionaryId);
    if (!d) return (text) => text;
    const terms = this.termsOf(d.id).filter((t) => t.enabled && t.canonical !== null);
    if (terms.length === 0) return (text) => text;
    return rewriter(terms.map((t) => ({ term: t.term, canonical: t.canonical! })));
  }
}

function checkTerm(raw: string): string {
  const term = raw.trim();
  if (term === '') throw ApiError.validation('term is empty', [{ path: 'term', message: 'must not be blank' }]);
  return term;
}

/** null and "" both mean no replacement (reference). */
function canonicalOf(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null) return null;
  const c = raw.trim();
  return c === '' ? null : c;
}
