// Phone normalisation (spec Conventions 4): a number sent in any accepted spelling (hyphens,
// +82) is stored and returned in domestic notation, and a filter in any spelling finds it.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import { foundRow, numberMatch } from './found-rows.ts';
import { idFieldOf, makeRow, numberFieldOf, numberParamOf, PAGED_LISTS, rowAccount, type PagedList } from './lists.ts';
import type { PropertyDef } from './types.ts';

/** Spellings the spec accepts, as interpolation filters over the domestic number. */
export const SPELLINGS = ['string', 'hyphens', 'intl', 'e164'] as const;

interface PhoneCase {
  variant: number;
  createAs: (typeof SPELLINGS)[number];
  filterAs: (typeof SPELLINGS)[number];
  getAs: (typeof SPELLINGS)[number];
}

/** Read-only: a row found on the target is found again by its number in the generated spelling. */
async function driveFound(list: PagedList, v: PhoneCase, c: CaseContext): Promise<string | undefined> {
  // Only rows that hold a phone number: a blocked recipient may hold an email address (today's SDK's third channel).
  const row = await foundRow(c, list, v.variant, { test: (r) => /^0\d+$/.test(String(r[numberFieldOf(list)])), what: 'rows with a phone number' });
  if (!row) return undefined;
  const domestic = String(row[numberFieldOf(list)]);
  c.set('n', domestic);
  const idField = idFieldOf(list);
  await c.exec({
    name: `filter with ${v.filterAs} spelling`,
    request: { operationId: list.list, query: { [numberParamOf(list)]: `{{ n | ${v.filterAs} }}`, ...list.everyRow, pageSize: 100 } },
    [expectKey(list.level)]: { status: 200, body: { data: { $contains: { [idField]: row[idField] }, $each: numberMatch(list, domestic) } } },
    clauses: ['conventions.phone-normalization.filters'],
  });
  return undefined;
}

async function drive(list: PagedList, v: PhoneCase, c: CaseContext): Promise<string | undefined> {
  if (!c.can('writes')) return driveFound(list, v, c);
  const domestic = c.number(0);
  const spell = (how: string) => `{{ n | ${how} }}`;
  const expect = expectKey(list.level);
  const numberField = numberFieldOf(list);
  // Lists whose rows need an account of their own (a number to send from) get a fresh one.
  const as = list.account ? (await rowAccount(c, list, 'ph')).as : 'main';
  const made = await makeRow(c, list, spell(v.createAs), as, 'id', v.variant, { name: `create with ${v.createAs} spelling`, expect: { body: { [numberField]: domestic } } });
  if (made.status !== 'passed') return undefined;
  const channel = list.filters.channel ? list.attrs(v.variant, false).channel : undefined;
  await c.exec({
    name: `filter with ${v.filterAs} spelling`,
    request: { operationId: list.list, as, query: { [numberParamOf(list)]: spell(v.filterAs), ...list.everyRow, ...(channel ? { channel } : {}) } },
    [expect]: { status: 200, body: { data: { $length: 1, $each: { [idFieldOf(list)]: '{{ id }}', [numberField]: domestic } } } },
    clauses: ['conventions.phone-normalization.filters'],
  });
  if (!list.dedupes) return undefined;
  // Sent again in another spelling, the same number is the same (still active) entry.
  await makeRow(c, list, spell(v.getAs), as, 'again', v.variant, {
    name: `create again with ${v.getAs} spelling`,
    expect: { body: { [numberField]: domestic } },
    expectSim: { status: 200, body: { id: '{{ id }}' } },
  });
  return undefined;
}

function phoneProperty(list: PagedList): PropertyDef {
  const spec = generatedProperty<PhoneCase>({
    id: `phone-normalization-${list.list}`,
    description: `${list.list}: numbers sent with hyphens or +82 are stored in domestic notation and found by a filter in any spelling`,
    clauses: ['conventions.phone-normalization'],
    tags: ['phone', 'property'],
    requires: ['writes', ...(list.requires ?? [])],
    level: 'spec',
    numRuns: 25,
    // Rows of lists that need no account of their own are made in the property's fresh account.
    ownAccount: { numbers: 0 },
    arbitrary: fc.record({
      variant: fc.integer({ min: 0, max: 1 }),
      createAs: fc.constantFrom(...SPELLINGS),
      filterAs: fc.constantFrom(...SPELLINGS),
      getAs: fc.constantFrom(...SPELLINGS),
    }),
    readOnlyRequires: [],
    drive: async (v, c) => {
      if (c.can('writes')) c.set('n', c.number(0));
      return drive(list, v, c);
    },
  });
  return spec;
}

export const phoneProperties: PropertyDef[] = PAGED_LISTS.filter((l) => l.filters.number).map(phoneProperty);
