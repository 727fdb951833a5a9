// Filters select exactly the matching rows: after a generated mix of rows (some released), a list
// with any combination of filters returns every matching row and nothing else, and `total`
// counts them. Rows are made in a fresh account when the target can make one (or the list needs
// one); otherwise the number filter keeps the rows of this case apart from existing data. Where
// the target may not be written to, a row found on it is filtered for by its own values: the
// answer holds it, and every row answered matches the filters.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import { foundRow, misfiltered, numberMatch } from './found-rows.ts';
import { FILTER_PARAMS, idFieldOf, makeRow, numberFieldOf, numberParamOf, PAGED_LISTS, rowAccount, type FilterParam, type PagedList } from './lists.ts';
import type { PropertyDef } from './types.ts';

interface Row {
  slot: number;
  variant: number;
  release: boolean;
}

interface FilterCase {
  rows: Row[];
  number: number | undefined;
  by: Partial<Record<FilterParam, string>>;
}

interface Made {
  name: string;
  number: string;
  variant: number;
  released: boolean;
}

const sameRow = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(a) === JSON.stringify(b);

/** Whether a row with these attributes is selected by the filter values (undefined: not given). */
function selected(list: PagedList, attrs: Partial<Record<FilterParam, string>>, by: Partial<Record<FilterParam, string>>): boolean {
  return FILTER_PARAMS.every((p) => {
    const value = by[p] ?? (p === 'status' ? list.status?.default : undefined);
    if (value === undefined || (p === 'status' && value === list.status?.all)) return true;
    return attrs[p] === value;
  });
}

/** Read-only: a row found on the target, filtered for by its own number and values. */
async function driveFound(list: PagedList, v: FilterCase, c: CaseContext): Promise<string | undefined> {
  const row = await foundRow(c, list, v.number ?? 0);
  if (!row) return undefined;
  const attrs = list.rowAttrs!(row);
  const by: Partial<Record<FilterParam, string>> = {};
  for (const p of FILTER_PARAMS) if (v.by[p] !== undefined && attrs[p] !== undefined) by[p] = attrs[p];
  // Left out, the status filter shows its default: ask for the row's own status where that would hide it.
  if (by.status === undefined && list.status?.default !== undefined && attrs.status !== list.status.default) by.status = attrs.status;
  const query: Record<string, unknown> = { pageSize: 100, ...by };
  const number = v.number !== undefined && list.filters.number ? String(row[numberFieldOf(list)]) : undefined;
  if (number !== undefined) query[numberParamOf(list)] = number;
  const clauses = [...(number !== undefined ? (list.clauses.filterBy.number ?? []) : []), ...FILTER_PARAMS.filter((p) => by[p] !== undefined).flatMap((p) => list.clauses.filterBy[p] ?? [])];
  const idField = idFieldOf(list);
  const r = await c.exec({
    name: `list with ${JSON.stringify(query)}`,
    clauses: clauses.length ? [...new Set(clauses)] : list.clauses.filters,
    request: { operationId: list.list, query },
    [expectKey(list.level)]: { status: 200, body: { data: { $contains: { [idField]: row[idField] }, ...(number !== undefined ? { $each: numberMatch(list, number) } : {}) } } },
    save: { answered: 'body.data' },
  });
  if (r.status !== 'passed') return undefined;
  return misfiltered(list, (c.saved('answered') as Record<string, unknown>[]) ?? [], by);
}

async function drive(list: PagedList, v: FilterCase, c: CaseContext): Promise<string | undefined> {
  if (!c.can('writes')) return driveFound(list, v, c);
  const { as, fresh } = await rowAccount(c, list, 'fl');
  const made: Made[] = [];
  for (const [i, row] of v.rows.entries()) {
    const name = `row${i}`;
    const number = c.number(row.slot);
    const r = await makeRow(c, list, number, as, name, row.variant, { name: `row ${i + 1}` });
    if (r.status !== 'passed') return undefined;
    // Registering an actively blocked number again gives back the same entry (no duplicate).
    if (list.dedupes) {
      const same = made.find((m) => !m.released && m.number === number && sameRow(list.attrs(m.variant, false), list.attrs(row.variant, false)));
      if (same && String(c.saved(name)) === String(c.saved(same.name))) continue;
    }
    const entry: Made = { name, number, variant: row.variant, released: false };
    made.push(entry);
    if (row.release && list.release && (list.releasable?.(row.variant) ?? true)) {
      await c.exec({ name: `release row ${i + 1}`, ...list.release(name, as) });
      entry.released = true;
    }
  }
  const number = v.number !== undefined || !fresh ? c.number(v.number ?? 0) : undefined;
  const expected = made.filter((m) => (number === undefined || m.number === number) && selected(list, list.attrs(m.variant, m.released), v.by));
  const query: Record<string, unknown> = { pageSize: 100 };
  if (number !== undefined) query[numberParamOf(list)] = number;
  for (const p of FILTER_PARAMS) if (v.by[p] !== undefined) query[p] = v.by[p];
  const idField = idFieldOf(list);
  const match = expected.length ? { $length: expected.length, $each: { [idField]: { $oneOf: expected.map((m) => `{{ ${m.name} }}`) } } } : { $length: 0 };
  // The clauses this list tests: the filters it uses, and history when released rows should appear.
  const by = list.clauses.filterBy;
  const clauses = [
    ...(number !== undefined ? (by.number ?? []) : []),
    ...(v.by.status !== undefined ? (by.status ?? []) : (by.defaultStatus ?? [])),
    ...FILTER_PARAMS.filter((p) => p !== 'status' && v.by[p] !== undefined).flatMap((p) => by[p] ?? []),
    ...(expected.some((m) => m.released) ? list.clauses.history : []),
  ];
  await c.exec({
    name: `list with ${JSON.stringify(query)}`,
    clauses: clauses.length ? [...new Set(clauses)] : list.clauses.filters,
    request: { operationId: list.list, as, query },
    // total is judged by the checks on every list answer (it must agree with the rows returned).
    [expectKey(list.level)]: { status: 200, body: { data: match } },
  });
  return undefined;
}

function filterProperty(list: PagedList): PropertyDef {
  const option = (values: readonly string[] | undefined) => (values ? fc.option(fc.constantFrom(...values), { nil: undefined }) : fc.constant(undefined));
  return generatedProperty<FilterCase>({
    id: `filters-${list.list}`,
    description: `${list.list}: every filter combination returns exactly the matching rows, and total counts them`,
    clauses: list.clauses.filters,
    tags: ['filters', 'property'],
    requires: ['writes', ...(list.requires ?? [])],
    readOnlyRequires: [],
    level: list.level,
    numRuns: 25,
    arbitrary: fc.record({
      rows: fc.array(fc.record({ slot: fc.integer({ min: 0, max: 2 }), variant: fc.integer({ min: 0, max: (list.variants ?? 2) - 1 }), release: fc.boolean() }), { maxLength: 6 }),
      number: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      by: fc.record({ status: option(list.filters.status), channel: option(list.filters.channel), type: option(list.filters.type) }).map((r) => {
        const by: Partial<Record<FilterParam, string>> = {};
        for (const p of FILTER_PARAMS) if (r[p] !== undefined) by[p] = r[p];
        return by;
      }),
    }),
    drive: (v, c) => drive(list, v, c),
  });
}

export const filterProperties: PropertyDef[] = PAGED_LISTS.filter((l) => l.filters.number || FILTER_PARAMS.some((p) => l.filters[p])).map(filterProperty);
