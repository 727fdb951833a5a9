// Filters select exactly the matching rows: after a generated mix of entries (some released),
// a list with any combination of filters returns every matching entry and nothing else, and
// `total` counts them. Rows are made in a fresh account when the target can make one;
// otherwise the number filter keeps the rows of this case apart from existing data.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import { PAGED_LISTS, type PagedList } from './lists.ts';
import type { PropertyDef } from './types.ts';

interface Row {
  slot: number;
  variant: number;
  release: boolean;
}

interface FilterCase {
  rows: Row[];
  number: number | undefined;
  status: string | undefined;
  channel: string | undefined;
}

interface Made {
  name: string;
  number: string;
  channel?: string;
  active: boolean;
}

async function drive(list: PagedList, v: FilterCase, c: CaseContext): Promise<string | undefined> {
  const fresh = c.can('accounts');
  const as = fresh ? 'fl' : 'main';
  if (fresh) await c.exec({ name: 'a fresh account', control: { createAccount: { numbers: 0 }, as: 'fl' } });
  const made: Made[] = [];
  for (const [i, row] of v.rows.entries()) {
    const name = `row${i}`;
    const number = c.number(row.slot);
    const channel = list.channelOf?.(row.variant);
    const r = await c.exec({ name: `row ${i + 1}`, ...list.create(number, as, name, row.variant) });
    if (r.status !== 'passed') return undefined;
    // Registering an actively blocked number again gives back the same entry (no duplicate).
    const same = made.find((m) => m.active && m.number === number && m.channel === channel);
    if (same && String(c.saved(name)) === String(c.saved(same.name))) continue;
    const entry: Made = { name, number, channel, active: true };
    made.push(entry);
    if (row.release && list.release) {
      await c.exec({ name: `release row ${i + 1}`, ...list.release(name, as) });
      entry.active = false;
    }
  }
  const number = v.number !== undefined || !fresh ? c.number(v.number ?? 0) : undefined;
  const status = v.status ?? 'active';
  const expected = made.filter(
    (m) =>
      (number === undefined || m.number === number) &&
      (v.channel === undefined || m.channel === v.channel) &&
      (status === 'all' || (status === 'active') === m.active),
  );
  const query: Record<string, unknown> = { pageSize: 100 };
  if (number !== undefined) query.number = number;
  if (v.status !== undefined) query.status = v.status;
  if (v.channel !== undefined) query.channel = v.channel;
  const match = expected.length ? { $length: expected.length, $each: { id: { $oneOf: expected.map((m) => `{{ ${m.name} }}`) } } } : { $length: 0 };
  // The clauses this list tests: the filters it uses, and history when released rows should appear.
  const clauses = [
    ...(number !== undefined ? list.clauses.filterBy.number : []),
    ...(v.status !== undefined ? list.clauses.filterBy.status : list.clauses.filterBy.defaultStatus),
    ...(v.channel !== undefined ? list.clauses.filterBy.channel : []),
    ...(expected.some((m) => !m.active) ? list.clauses.history : []),
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
  return generatedProperty<FilterCase>({
    id: `filters-${list.list}`,
    description: `${list.list}: every filter combination returns exactly the matching rows, and total counts them`,
    clauses: list.clauses.filters,
    tags: ['filters', 'property'],
    requires: ['writes'],
    level: list.level,
    numRuns: 25,
    arbitrary: fc.record({
      rows: fc.array(fc.record({ slot: fc.integer({ min: 0, max: 2 }), variant: fc.integer({ min: 0, max: 1 }), release: fc.boolean() }), { maxLength: 6 }),
      number: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
      status: fc.option(fc.constantFrom(...(list.filters.status ?? ['all'])), { nil: undefined }),
      channel: list.filters.channel ? fc.option(fc.constantFrom(...list.filters.channel), { nil: undefined }) : fc.constant(undefined),
    }),
    drive: (v, c) => drive(list, v, c),
  });
}

export const filterProperties: PropertyDef[] = PAGED_LISTS.filter((l) => l.filters.number || l.filters.status || l.filters.channel).map(filterProperty);
