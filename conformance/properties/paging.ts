// Paging (spec Conventions 5 and 6): walking the pages of a list gives disjoint pages that
// together hold exactly `total` rows, every page's `meta` echoes the request, the page after the
// last (page * pageSize >= total) is empty, and the deprecated aliases give the same answer.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import { idFieldOf, makeRow, PAGED_LISTS, rowAccount, type PagedList } from './lists.ts';
import type { PropertyDef } from './types.ts';

interface PagingCase {
  rows: number;
  pageSize: number;
  alias: 'page_size' | 'limit';
}

async function drive(list: PagedList, v: PagingCase, c: CaseContext): Promise<string | undefined> {
  const expect = expectKey(list.level);
  // In a fresh account the kit knows every row; otherwise it pages through what is there.
  const { as, fresh } = await rowAccount(c, list, 'pg');
  const created: string[] = [];
  // Read-only (no writes): no rows are made; the case pages through the data that is there.
  const rows = c.can('writes') ? v.rows : 0;
  for (let i = 0; i < rows; i++) {
    await makeRow(c, list, c.number(i), as, `row${i}`, i % (list.variants ?? 2), { name: `row ${i + 1}` });
    created.push(`row${i}`);
    if (list.remove) c.afterCase(list.remove(`row${i}`, as));
  }
  const every = list.everyRow ?? {};
  const first = await c.exec({
    name: 'first page',
    request: { operationId: list.list, as, query: { pageSize: v.pageSize, ...every } },
    [expect]: { status: 200, body: { meta: { page: 0, pageSize: v.pageSize } } },
    save: { total: 'body.meta.total', page0: 'body' },
    clauses: ['conventions.paging.meta-echo', 'conventions.paging.page-zero-based'],
  });
  if (first.status !== 'passed') return undefined;
  if (fresh) {
    await c.exec({
      name: 'total counts every row',
      request: { operationId: list.list, as, query: { pageSize: v.pageSize, ...every } },
      [expect]: { status: 200, body: { meta: { total: rows } } },
      clauses: list.clauses.total,
    });
  }
  // In a fresh account the true count is known; elsewhere the kit can only take the target's word.
  const total = fresh ? rows : Number(c.saved('total'));
  await c.exec({
    name: 'no page size: the default',
    request: { operationId: list.list, as, query: { ...every } },
    [expect]: { status: 200, body: { data: { $length: Math.min(20, total) }, meta: { page: 0, pageSize: 20 } } },
    clauses: ['conventions.paging.page-size-default', 'conventions.paging.page-zero-based', ...(list.clauses.pagingDefaults ?? [])],
  });
  const pages = Math.ceil(total / v.pageSize);
  if (pages > 50) return c.inconclusive(`${total} rows: too many pages to walk`); // a huge existing list: the first page already showed the envelope
  const idField = idFieldOf(list);
  const seen = new Map<string, number>();
  for (let page = 0; page <= pages; page++) {
    const expectedLength = Math.max(0, Math.min(v.pageSize, total - page * v.pageSize));
    const name = `page${page}`;
    if (page > 0) {
      await c.exec({
        name: `page ${page}${page === pages ? ' (past the last)' : ''}`,
        request: { operationId: list.list, as, query: { pageSize: v.pageSize, page, ...every } },
        [expect]: { status: 200, body: { data: { $length: expectedLength }, meta: { page, pageSize: v.pageSize, total } } },
        save: { [name]: 'body' },
        clauses: ['conventions.list-total-before-paging'],
      });
    }
    await c.exec({
      name: `page ${page} through ${v.alias}`,
      request: { operationId: list.list, as, query: { [v.alias]: v.pageSize, page, ...every } },
      [expect]: { status: 200, body: { $eq: `{{ ${name} }}` } },
      clauses: [v.alias === 'limit' ? 'conventions.paging.alias-limit' : 'conventions.paging.alias-page-size'],
    });
    const body = c.saved(name) as { data?: Record<string, unknown>[] } | undefined;
    for (const row of body?.data ?? []) {
      const id = String(row[idField]);
      if (seen.has(id)) return `row ${id} appears on page ${seen.get(id)} and again on page ${page}`;
      seen.set(id, page);
    }
  }
  if (seen.size !== total) return `the pages hold ${seen.size} distinct row(s), but meta.total is ${total}`;
  if (fresh) {
    for (const name of created) {
      const id = String(c.saved(name));
      if (!seen.has(id)) return `created row ${id} is on no page`;
    }
  }
  return undefined;
}

function pagingProperty(list: PagedList): PropertyDef {
  return generatedProperty<PagingCase>({
    id: `paging-${list.list}`,
    description: `${list.list}: pages are disjoint, cover total, the page past the last is empty, aliases agree`,
    clauses: [...new Set([...list.clauses.paging, ...list.clauses.total, 'conventions.paging.alias-page-size', 'conventions.paging.alias-limit', 'conventions.paging.page-size-default', ...(list.clauses.pagingDefaults ?? [])])],
    tags: ['paging', 'property'],
    // Without writes it still walks the pages of the data that is there.
    requires: [...(list.requires ?? [])],
    level: list.level,
    numRuns: 12,
    arbitrary: fc.record({ rows: fc.integer({ min: 0, max: 7 }), pageSize: fc.integer({ min: 1, max: 4 }), alias: fc.constantFrom('page_size' as const, 'limit' as const) }),
    drive: (v, c) => drive(list, v, c),
  });
}

export const pagingProperties: PropertyDef[] = PAGED_LISTS.map(pagingProperty);
