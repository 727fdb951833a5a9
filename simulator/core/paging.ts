// Standard paging (spec Conventions 5 and 6): 0-based `page`, `pageSize` (default 20, max 100)
// and its deprecated aliases `page_size` and `limit`; the list envelope with `total` counted
// before paging. Query values arrive as strings and are checked here, not coerced silently.
import { Type } from '@sinclair/typebox';
import { ApiError } from './errors.ts';

export interface Paging {
  page: number;
  pageSize: number;
}

export interface PagingRules {
  firstPage: number; // 0 for standard lists; the usage operation pages from 1
  defaultPageSize: number;
  maxPageSize: number;
}

export const STANDARD_PAGING: PagingRules = { firstPage: 0, defaultPageSize: 20, maxPageSize: 100 };

const PAGE_SIZE_NAMES = ['pageSize', 'page_size', 'limit'] as const;

/** The paging fields of a coerced query (see query.ts); all optional. */
export interface PagingQuery {
  page?: number;
  pageSize?: number;
  page_size?: number;
  limit?: number;
}

export function parsePaging(query: PagingQuery, rules: PagingRules = STANDARD_PAGING): Paging {
  const page = query.page ?? rules.firstPage;
  if (page < rules.firstPage) {
    throw ApiError.validation(`page must be ${rules.firstPage} or more (pages count from ${rules.firstPage}), got ${page}`, [{ path: 'page', message: `minimum ${rules.firstPage}` }]);
  }
  let pageSize: number | undefined;
  let from = '';
  for (const name of PAGE_SIZE_NAMES) {
    const v = query[name];
    if (v === undefined) continue;
    if (pageSize !== undefined && v !== pageSize) {
      throw ApiError.validation(`${from} and ${name} are aliases and disagree (${pageSize} vs ${v}); send only pageSize`, [{ path: name, message: `conflicts with ${from}` }]);
    }
    if (pageSize === undefined) from = name;
    pageSize = v;
  }
  pageSize ??= rules.defaultPageSize;
  const sizeName = from || 'pageSize';
  if (pageSize < 1 || pageSize > rules.maxPageSize) {
    throw ApiError.validation(`${sizeName} must be between 1 and ${rules.maxPageSize}, got ${pageSize}`, [{ path: sizeName, message: `between 1 and ${rules.maxPageSize}` }]);
  }
  return { page, pageSize };
}

export interface ListMeta {
  page: number;
  pageSize: number;
  total: number;
}

/** The slice of `rows` on the requested page plus its meta; `total` counts all rows. */
export function pageOf<T>(rows: { readonly length: number; slice(start: number, end: number): T[] }, paging: Paging, rules: PagingRules = STANDARD_PAGING): { data: T[]; meta: ListMeta } {
  const start = (paging.page - rules.firstPage) * paging.pageSize;
  return {
    data: rows.slice(start, start + paging.pageSize),
    meta: { page: paging.page, pageSize: paging.pageSize, total: rows.length },
  };
}

/** What a deprecated paging alias says (a rule across parameters, which OpenAPI cannot state). */
export const ALIAS_OF_PAGE_SIZE = 'Deprecated alias of pageSize. Given together with pageSize or the other alias, the values must be equal (else 400 VALIDATION).';

/** Query parameter declarations shared by every standard list (for validation docs and OpenAPI). */
export const standardPagingParams = {
  page: Type.Integer({ minimum: 0, default: 0, description: 'Page number, counted from 0.' }),
  pageSize: Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Rows per page (1 to 100).' }),
  page_size: Type.Integer({ minimum: 1, maximum: 100, deprecated: true, description: ALIAS_OF_PAGE_SIZE }),
  limit: Type.Integer({ minimum: 1, maximum: 100, deprecated: true, description: ALIAS_OF_PAGE_SIZE }),
};

export const ListMetaSchema = Type.Object(
  {
    page: Type.Integer({ description: 'The page returned (0-based).' }),
    pageSize: Type.Integer({ description: 'The page size applied.' }),
    total: Type.Integer({ description: 'Rows matching the filter, before paging.' }),
  },
  { $id: 'ListMeta', additionalProperties: false },
);
