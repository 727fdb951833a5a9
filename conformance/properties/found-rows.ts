// Rows a read-only run finds on the target, for the properties that otherwise make their own
// (phone normalisation, filters): the list as it is, one of its rows, and whether the rows a
// filter answered all match it. Nothing is written.
import type { CaseContext } from './harness.ts';
import { FILTER_PARAMS, idFieldOf, numberFieldOf, type FilterParam, type PagedList } from './lists.ts';

type Row = Record<string, unknown>;

/**
 * Row number `pick` (wrapping) of the rows `usable` keeps of the list's first page of everything,
 * or undefined (the case then proves nothing).
 */
export async function foundRow(c: CaseContext, list: PagedList, pick: number, usable: { test: (row: Row) => boolean; what: string } = { test: () => true, what: 'rows' }): Promise<Row | undefined> {
  const r = await c.exec({
    name: 'the rows found on the target',
    request: { operationId: list.list, query: { pageSize: 100, ...list.everyRow } },
    found: 'body.data',
    save: { found: 'body.data' },
  });
  const rows = (c.saved('found') as Row[] | undefined)?.filter(usable.test);
  if (r.status !== 'passed' || !rows?.length) return c.inconclusive(r.skipReason ?? `${list.list} found no ${usable.what}`);
  return rows[pick % rows.length];
}

/** What every row a number filter answered must hold: the number, on either side where the filter reads both. */
export function numberMatch(list: PagedList, number: string): Record<string, unknown> {
  return list.numberEitherSide ? { $oneOf: [{ to: number }, { from: number }] } : { [numberFieldOf(list)]: number };
}

/** The first row of `answered` that the filter values do not select, as a message, or undefined. */
export function misfiltered(list: PagedList, answered: Row[], by: Partial<Record<FilterParam, string>>): string | undefined {
  for (const row of answered) {
    const attrs = list.rowAttrs!(row);
    const wrong = FILTER_PARAMS.find((p) => by[p] !== undefined && by[p] !== list.status?.all && attrs[p] !== by[p]);
    if (wrong) return `${list.list} with ${wrong}=${by[wrong]} answered row ${String(row[idFieldOf(list)])}, whose ${wrong} is ${attrs[wrong]}`;
  }
  return undefined;
}
