// Property (fast-check, fixed seed from setup.ts): getUsage's column path answers byte for byte
// what the aggregation first written (usage-reference.ts) answers, on generated data: ended and
// running calls (outbound, inbound, detection, transfers) on numbers some of which are held
// through links (an open assignment, a closed one, two open), control-plane entries with
// fractional seconds, some restored with instants in another offset, a text; then random queries
// (range or billing cycle, any axes, meters, includeToday, pages), again with the group store
// that takes over past the dense store's memory, and after more calls and a corrected duration
// (rule 3: recomputed at query time).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACME, BISTRO, harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import { referenceUsage } from './usage-reference.ts';
import { endedCall } from './synthetic-calls.ts';
import { AXES, METERS, type UsageQueryInput } from '../resources/usage/schema.ts';
import { GroupingBuffers } from '../resources/usage/grouping.ts';

const NOW = Date.parse('2026-03-02T00:00:00Z'); // the fixture's clock
const DAY = 86_400_000;
const OWN = ['07012340001', '07012340002', '07012340003', '07099990001'];
const iso = (ms: number) => new Date(ms).toISOString();

const callArb = fc.record({
  account: fc.constantFrom(ACME.accountId, ACME.accountId, ACME.accountId, BISTRO.accountId),
  inbound: fc.boolean(),
  own: fc.constantFrom(...OWN),
  ago: fc.integer({ min: 0, max: 40 * DAY }),
  answerAfter: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  talk: fc.integer({ min: 0, max: 900 }),
  detection: fc.constantFrom(null, null, 'Enable' as const),
  transfer: fc.option(fc.integer({ min: 1, max: 60 }), { nil: undefined }),
  running: fc.constantFrom(false, false, false, true), // a few calls still in progress
});
const entryArb = fc.record({
  meter: fc.constantFrom(...METERS),
  quantity: fc.oneof(fc.integer({ min: 0, max: 500 }), fc.double({ min: 0, max: 500, noNaN: true })),
  ago: fc.integer({ min: 0, max: 40 * DAY }),
  phone: fc.option(fc.constantFrom(...OWN), { nil: null }),
  link: fc.option(fc.constantFrom('AL_a', 'AL_b', 'AL_c'), { nil: null }),
  offset: fc.constantFrom('Z', 'Z', '-05:00', '+09:00'),
  twin: fc.option(fc.constantFrom('AL_a', 'AL_b', 'AL_c'), { nil: undefined }), // the same usage of the same number held through another link
});
const queryArb: fc.Arbitrary<UsageQueryInput> = fc.record(
  {
    range: fc.option(fc.tuple(fc.integer({ min: -45 * DAY, max: DAY }), fc.integer({ min: 1, max: 92 * DAY })), { nil: undefined }),
    groupBy: fc.subarray([...AXES]),
    meter: fc.option(fc.subarray([...METERS], { minLength: 1 }), { nil: undefined }),
    includeToday: fc.option(fc.boolean(), { nil: undefined }),
    page: fc.integer({ min: 1, max: 3 }),
    pageSize: fc.constantFrom(1, 3, 10, 200),
  },
  { requiredKeys: [] },
).map(({ range, ...q }) => (range ? { ...q, from: iso(NOW + range[0]), to: iso(NOW + range[0] + range[1]) } : q));

/** An instant `ago` ms before now, written in `offset` (a snapshot may carry any ISO form). */
function written(ms: number, offset: string): string {
  if (offset === 'Z') return iso(ms);
  const sign = offset[0] === '-' ? -1 : 1;
  const shift = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4))) * 60_000;
  return iso(ms + shift).slice(0, 23) + offset;
}

describe('getUsage over columns', () => {
  it('answers exactly as the object-per-entry aggregation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(callArb, { maxLength: 80 }), fc.array(entryArb, { maxLength: 40 }), fc.array(queryArb, { minLength: 1, maxLength: 6 }), fc.array(callArb, { maxLength: 10 }), async (calls, entries, queries, later) => {
        const h = harness();
        const rt = runtimeOf(h.sim);
        // Links: 0002 held through AL_a now (an earlier holding through AL_b is closed); 0003 has two open holdings (the first counts).
        const hold = (n: string, linkId: string | null, to: string | null) =>
          rt.numbers.assignments.insert({ id: `asg_t${rt.numbers.assignments.size}`, number: n, accountId: ACME.accountId, linkId, from: '2026-01-01T00:00:00.000Z', to });
        hold('07012340002', 'AL_b', '2026-02-01T00:00:00.000Z');
        hold('07012340002', 'AL_a', null);
        hold('07012340003', 'AL_c', null);
        hold('07012340003', 'AL_a', null);
        rt.usage.restore({
          injected: entries.flatMap((e) => {
            const entry = { accountId: ACME.accountId, meter: e.meter, quantity: e.meter.endsWith('_seconds') ? e.quantity : Math.round(e.quantity), at: written(NOW - e.ago, e.offset), phoneNumber: e.phone, linkId: e.link };
            return e.twin === undefined ? [entry] : [entry, { ...entry, linkId: e.twin, quantity: entry.quantity + 1 }];
          }),
        });
        await h.call('POST', h.acme('/messages'), { To: '01012345678', From: OWN[0], Body: 'hi' });
        let n = 0;
        const insert = (c: (typeof calls)[number]) => {
          const other = `0103${String(n).padStart(7, '0')}`;
          const row = endedCall({
            id: `CAprop${n++}`, accountId: c.account, direction: c.inbound ? 'inbound' : 'outbound', from: c.inbound ? other : c.own, to: c.inbound ? c.own : other,
            createdAt: NOW - c.ago - 3_600_000, answerAfter: c.answerAfter, talk: c.talk, machineDetection: c.detection, transferSeconds: c.transfer,
          });
          rt.calls.calls.insert(c.running ? { ...row, status: 'in-progress', dateUpdated: null, duration: null } : row);
        };
        calls.forEach(insert);
        const check = (q: UsageQueryInput) => {
          let fast: unknown;
          let plain: unknown;
          try {
            fast = rt.usage.aggregate(ACME.accountId, q);
          } catch (e) {
            fast = String(e);
          }
          try {
            plain = referenceUsage(rt.usage, rt.clock.now(), ACME.accountId, q);
          } catch (e) {
            plain = String(e);
          }
          expect(JSON.stringify(fast), JSON.stringify(q)).toBe(JSON.stringify(plain));
        };
        queries.forEach(check);
        // The same with a dense store too small for them: the groups move to the table store mid-scan.
        rt.usage.buffers = new GroupingBuffers(600);
        queries.forEach(check);
        rt.usage.buffers = new GroupingBuffers();
        // More calls, and a correction of an ended call's duration: the columns catch up.
        later.forEach(insert);
        const ended = rt.calls.calls.all().find((r) => r.dateUpdated !== null && r.accountId === ACME.accountId);
        if (ended) rt.calls.calls.replace({ ...ended, duration: (ended.duration ?? 0) + 7 });
        queries.forEach(check);
        await h.sim.close();
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 150) },
    );
  });
});
