// The list envelope and paging (spec Conventions 5 and 6): { data, meta { page, pageSize,
// total } }, meta echoing the page and size applied, and `data` holding exactly the rows of
// that page of `total`.
import type { Check, Exchange } from './types.ts';
import { isApiCall } from './types.ts';

function requested(ex: Exchange): { page: number; pageSize: number } | undefined {
  const rules = ex.op!.paging!;
  const num = (name: string) => {
    const v = ex.query.get(name);
    return v !== null && /^\d+$/.test(v) ? Number(v) : undefined;
  };
  const page = num('page') ?? rules.firstPage;
  const sizes = ['pageSize', ...rules.aliases].map(num).filter((v): v is number => v !== undefined);
  return { page, pageSize: sizes[0] ?? rules.defaultPageSize };
}

export const listEnvelope: Check = {
  id: 'list-envelope',
  level: 'spec',
  clauses: ['conventions.list-envelope', 'conventions.list-total-before-paging', 'conventions.paging.meta-echo'],
  description: 'A list answers { data: [...], meta: { page, pageSize, total } }; meta echoes the page and size; data holds exactly that page of total.',
  applies: (ex) => isApiCall(ex) && ex.op?.paging !== undefined && ex.response.status === 200 && ex.response.json !== undefined,
  run(ex) {
    const b = ex.response.json as { data?: unknown; meta?: Record<string, unknown> };
    if (!b || typeof b !== 'object' || !Array.isArray(b.data)) return 'list answer without a "data" array';
    const m = b.meta;
    if (!m || typeof m !== 'object') return 'list answer without "meta"';
    for (const k of ['page', 'pageSize', 'total']) {
      if (!Number.isInteger(m[k]) || (m[k] as number) < 0) return `meta.${k} must be a non-negative integer, got ${JSON.stringify(m[k])}`;
    }
    const { page, pageSize, total } = m as { page: number; pageSize: number; total: number };
    const want = requested(ex)!;
    if (page !== want.page) return `meta.page is ${page}, but page ${want.page} was requested`;
    if (pageSize !== want.pageSize) return `meta.pageSize is ${pageSize}, but ${want.pageSize} was requested (or is the default)`;
    const skipped = (page - ex.op!.paging!.firstPage) * pageSize;
    const expected = Math.max(0, Math.min(pageSize, total - skipped));
    if (b.data.length !== expected) {
      return `data has ${b.data.length} row(s); with total ${total}, page ${page} and pageSize ${pageSize} it must have ${expected}`;
    }
    return undefined;
  },
};
