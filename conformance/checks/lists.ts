// The list envelope and paging (spec Conventions 5 and 6), as three checks so that a failure
// names the one rule broken: the envelope's shape, `meta` echoing the page and size applied,
// and `data` holding exactly the rows of that page of `total`.
import type { Check, Exchange } from './types.ts';
import { isApiCall } from './types.ts';

interface Envelope {
  data: unknown[];
  meta: { page: number; pageSize: number; total: number };
}

function requested(ex: Exchange): { page: number; pageSize: number } {
  const rules = ex.op!.paging!;
  const num = (name: string) => {
    const v = ex.query.get(name);
    return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
  };
  const sizes = ['pageSize', ...rules.aliases].map(num).filter((v): v is number => v !== undefined);
  return { page: num('page') ?? rules.firstPage, pageSize: sizes[0] ?? rules.defaultPageSize };
}

function isList(ex: Exchange): boolean {
  return isApiCall(ex) && ex.op?.paging !== undefined && ex.response.status === 200 && ex.response.json !== undefined;
}

/** The envelope when its shape is right, else undefined. */
function envelope(ex: Exchange): Envelope | undefined {
  const b = ex.response.json as Partial<Envelope> | undefined;
  if (!b || typeof b !== 'object' || !Array.isArray(b.data) || !b.meta || typeof b.meta !== 'object') return undefined;
  const m = b.meta as Record<string, unknown>;
  if (!['page', 'pageSize', 'total'].every((k) => Number.isInteger(m[k]) && (m[k] as number) >= 0)) return undefined;
  return b as Envelope;
}

export const listEnvelope: Check = {
  id: 'list-envelope',
  level: 'spec',
  clauses: ['conventions.list-envelope'],
  description: 'A list answers { data: [...], meta: { page, pageSize, total } } with non-negative integers in meta.',
  applies: isList,
  run(ex) {
    if (envelope(ex)) return undefined;
    return `not the list envelope { data: [...], meta: { page, pageSize, total } }: ${ex.response.text.slice(0, 120)}`;
  },
};

export const pagingMetaEcho: Check = {
  id: 'paging-meta-echo',
  level: 'spec',
  clauses: ['conventions.paging.meta-echo'],
  description: 'meta.page and meta.pageSize are the page and size requested (or the defaults).',
  applies: (ex) => isList(ex) && envelope(ex) !== undefined,
  run(ex) {
    const { page, pageSize } = envelope(ex)!.meta;
    const want = requested(ex);
    if (page !== want.page) return `meta.page is ${page}, but page ${want.page} was requested`;
    if (pageSize !== want.pageSize) return `meta.pageSize is ${pageSize}, but ${want.pageSize} was requested (or is the default)`;
    return undefined;
  },
};

export const pageRowsMatchTotal: Check = {
  id: 'page-rows-match-total',
  level: 'spec',
  clauses: ['conventions.list-total-before-paging'],
  description: 'data holds exactly the rows of the requested page of total: min(pageSize, total - rows before it), none past the end.',
  applies: (ex) => isList(ex) && envelope(ex) !== undefined,
  run(ex) {
    const { data, meta } = envelope(ex)!;
    const want = requested(ex);
    const skipped = (want.page - ex.op!.paging!.firstPage) * want.pageSize;
    const expected = Math.max(0, Math.min(want.pageSize, meta.total - skipped));
    if (data.length !== expected) return `data has ${data.length} row(s); with total ${meta.total}, page ${want.page} and pageSize ${want.pageSize} it must have ${expected}`;
    return undefined;
  },
};
