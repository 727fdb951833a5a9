// Phone normalisation (spec Conventions 4): a number sent in any accepted spelling (hyphens,
// +82) is stored and returned in domestic notation, and a filter in any spelling finds it.
import fc from 'fast-check';
import { expectKey, generatedProperty, type CaseContext } from './harness.ts';
import { PAGED_LISTS, type PagedList } from './lists.ts';
import type { PropertyDef } from './types.ts';

/** Spellings the spec accepts, as interpolation filters over the domestic number. */
export const SPELLINGS = ['string', 'hyphens', 'intl', 'e164'] as const;

interface PhoneCase {
  variant: number;
  createAs: (typeof SPELLINGS)[number];
  filterAs: (typeof SPELLINGS)[number];
  getAs: (typeof SPELLINGS)[number];
}

async function drive(list: PagedList, v: PhoneCase, c: CaseContext): Promise<string | undefined> {
  const domestic = c.number(0);
  const spell = (how: string) => `{{ n | ${how} }}`;
  const expect = expectKey(list.level);
  const create = list.create(spell(v.createAs), 'main', 'id', v.variant);
  await c.exec({ name: `create with ${v.createAs} spelling`, ...create, expect: { body: { number: domestic } }, save: { id: 'body.id' } });
  const channel = list.channelOf?.(v.variant);
  await c.exec({
    name: `filter with ${v.filterAs} spelling`,
    request: { operationId: list.list, query: { number: spell(v.filterAs), status: 'all', ...(channel ? { channel } : {}) } },
    [expect]: { status: 200, body: { data: { $length: 1, $each: { id: '{{ id }}', number: domestic } } } },
    clauses: ['conventions.phone-normalization.filters'],
  });
  // Sent again in another spelling, the same number is the same (still active) entry.
  await c.exec({
    name: `create again with ${v.getAs} spelling`,
    ...list.create(spell(v.getAs), 'main', 'again', v.variant),
    expect: { body: { number: domestic } },
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
    requires: ['writes'],
    level: 'spec',
    numRuns: 25,
    arbitrary: fc.record({
      variant: fc.integer({ min: 0, max: 1 }),
      createAs: fc.constantFrom(...SPELLINGS),
      filterAs: fc.constantFrom(...SPELLINGS),
      getAs: fc.constantFrom(...SPELLINGS),
    }),
    drive: async (v, c) => {
      c.set('n', c.number(0));
      return drive(list, v, c);
    },
  });
  return spec;
}

export const phoneProperties: PropertyDef[] = PAGED_LISTS.filter((l) => l.filters.number).map(phoneProperty);
