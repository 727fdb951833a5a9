// The check of packed rows on their packed form (core/packed-check.ts; docs/decisions.md
// "Scale") is a sufficient condition of the whole-row check (fast-check, fixed seed): generated
// call rows, some with a member set to a value the row schema refuses or removed, packed as a
// snapshot packs them, then leaves overwritten at random (text ids out of range, instants that
// are no instants, numbers that are no integers); whatever the packed check accepts, reading the
// row back and checking it against the schema accepts too. And the rows the simulator makes
// (synthetic ended calls, calls run through a flow and their carrier deliveries) are all
// accepted on their packed form, so a restore never falls back to reading them back.
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { PackedRowCheck } from '../core/packed-check.ts';
import { PackedRows, type Op } from '../core/packed-rows.ts';
import { countLeaves } from '../core/packed-shapes.ts';
import { canonicalRecords } from '../core/packed-canonical.ts';
import { schemaErrors } from '../core/schema.ts';
import { CallRowSchema, type CallRow } from '../resources/calls/schema.ts';
import { createSimulator } from '../index.ts';
import { runtimeOf } from '../internal.ts';
import { ACME, call } from './helpers.ts';
import { endedCall } from './synthetic-calls.ts';
import { deliveryRowSchema } from '../peers/carrier/schema.ts';

const START = Date.parse('2026-01-01T00:00:00.000Z');

/** The records of `rows` as a snapshot holds them, and for each whether the packed check accepts it. */
function judged(rows: readonly object[], tamper: (parts: ReturnType<typeof canonicalRecords>) => void = () => {}, schema: TSchema = CallRowSchema) {
  const store = new PackedRows();
  const recs = rows.map((r) => store.pack(r)!);
  const parts = canonicalRecords(store, recs);
  tamper(parts);
  const shapes = parts.shapes as Op[];
  const back = new PackedRows();
  back.importRecords(parts);
  const check = new PackedRowCheck(shapes, parts.texts, schema);
  const out: { fits: boolean; errors: string[] | 'unreadable' }[] = [];
  let w = 0;
  let d = 0;
  for (let rec = 0; rec < parts.shapeOf.length; rec++) {
    const shape = parts.shapeOf[rec]!;
    const fits = check.fits(shape, parts.words, w, parts.doubles, d);
    let errors: string[] | 'unreadable';
    try {
      errors = schemaErrors(schema, back.unpack(rec)).map((e) => `${e.path}: ${e.message}`);
    } catch {
      errors = 'unreadable';
    }
    out.push({ fits, errors });
    const n = countLeaves(shapes[shape]!, { words: 0, doubles: 0 });
    w += n.words;
    d += n.doubles;
  }
  return out;
}

const spec = fc.record({
  inbound: fc.boolean(),
  answerAfter: fc.option(fc.integer({ min: 1, max: 30 }), { nil: null }),
  talk: fc.integer({ min: 0, max: 900 }),
  minute: fc.integer({ min: 0, max: 200_000 }),
  transfer: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
  detection: fc.constantFrom<'Enable' | 'Hangup' | null>('Enable', 'Hangup', null),
});

const FIELDS = ['status', 'answeredBy', 'hangupSource', 'duration', 'keyIndex', 'from', 'dateCreated', 'answeredAt', 'ringSeconds', 'statusCallbackEvents', 'timeline', 'walk', 'callee', 'transfers', 'seq'] as const;
const VALUES: unknown[] = [null, 'completed', 'robot', 'human', -1, 1.5, 0, 7, 'x', '2026-01-01T00:00:00.000Z', '2026-02-30T00:00:00.000Z', [], ['answered'], ['nope'], true, 4_294_967_295, 1e300, { status: 'queued', at: 'x' }, [{ status: 'queued', at: '2026-01-01T00:00:00.000Z' }]];
const edit = fc.record({ row: fc.nat(), field: fc.constantFrom(...FIELDS), value: fc.option(fc.constantFrom(...VALUES), { nil: undefined }) });
const leafEdit = fc.record({ words: fc.boolean(), at: fc.nat(), value: fc.oneof(fc.nat({ max: 0xffffffff }), fc.integer({ min: 0, max: 40 }), fc.double(), fc.constantFrom(NaN, Infinity, -1, 0.5, 1e16, 253_402_300_800_000)) });

type Spec = { inbound: boolean; answerAfter: number | null; talk: number; minute: number; transfer: number | undefined; detection: 'Enable' | 'Hangup' | null };

function rowOf(s: Spec, i: number): CallRow {
  return endedCall({
    id: `CA${i.toString(16).padStart(32, '0')}`, accountId: ACME.accountId, direction: s.inbound ? 'inbound' : 'outbound', from: s.inbound ? '01012345678' : '07012340001', to: s.inbound ? '07012340001' : '01012345678',
    createdAt: START + s.minute * 60_000, answerAfter: s.answerAfter, talk: s.talk, machineDetection: s.detection, transferSeconds: s.transfer,
  });
}

describe('the packed check of call rows', () => {
  it('accepts only rows the whole-row check accepts, whatever the rows and leaves hold', () => {
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 12 }), fc.array(edit, { maxLength: 4 }), fc.array(leafEdit, { maxLength: 4 }), (specs, edits, leaves) => {
        const rows: Record<string, unknown>[] = specs.map((s, i) => ({ ...rowOf(s, i) }));
        for (const e of edits) {
          const row = rows[e.row % rows.length]!;
          if (e.value === undefined) delete row[e.field];
          else row[e.field] = e.value;
        }
        const verdicts = judged(rows, (parts) => {
          for (const l of leaves) {
            const into = l.words ? parts.words : parts.doubles;
            if (into.length > 0) into[l.at % into.length] = l.value;
          }
        });
        for (const v of verdicts) if (v.fits) expect(v.errors).toEqual([]);
        // Untouched, every row fits on its packed form.
        if (edits.length === 0 && leaves.length === 0) expect(verdicts.every((v) => v.fits)).toBe(true);
      }),
    );
  });

  it('accepts on their packed form the rows a simulator makes: synthetic ended calls and calls run through a flow', async () => {
    const synthetic = Array.from({ length: 60 }, (_, i) =>
      rowOf({ inbound: i % 4 === 1, answerAfter: i % 7 === 0 ? null : 2 + (i % 9), talk: (i * 37) % 600, minute: i * 61, transfer: i % 11 === 0 ? 5 + i : undefined, detection: i % 13 === 0 ? 'Enable' : null }, i),
    );
    const sim = createSimulator();
    const flow = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/call-flows`, {
      name: 'packed check',
      graph: {
        version: 1,
        start: 'menu',
        nodes: {
          menu: { type: 'menu', prompt: 'Press 1.', branches: { '1': 'ok' }, invalidNext: 'ok', timeoutNext: 'ok', saveAs: 'choice' },
          ok: { type: 'setvar', assignments: [{ name: 'done', value: '{{choice}}' }], next: 'bye' },
          bye: { type: 'hangup', message: 'Bye.' },
        },
      },
    });
    expect(flow.status, flow.text).toBe(201);
    await sim.control.request('POST', '/carrier/scripts', { number: '010-2000-0000', outcome: 'delivered', types: ['call'], keys: ['1'] });
    for (const to of ['01020000000', '01020000001', '01020000002']) {
      const placed = await call(sim, 'POST', `/v1/accounts/${ACME.accountId}/calls`, { To: to, From: '07012340001', CallFlowId: flow.json.callFlowId, Variables: { name: 'x' }, MachineDetection: 'Enable' });
      expect(placed.status, placed.text).toBe(201);
    }
    await sim.clock.advance({ seconds: 3600 });
    const run = runtimeOf(sim).calls.calls.all();
    expect(run.every((c) => c.dateUpdated !== null && c.trace !== null)).toBe(true);
    const verdicts = judged([...synthetic, ...run]);
    expect(verdicts.map((v) => v.errors)).toEqual(verdicts.map(() => []));
    expect(verdicts.every((v) => v.fits)).toBe(true);
    // Their carrier deliveries, packed the same way in a snapshot.
    const carrier = JSON.parse(JSON.stringify(sim.snapshot())).models.carrier;
    expect(carrier.packedDeliveries).toBeDefined();
    const rt = runtimeOf(sim);
    const delivered = judged(rt.carrier.listDeliveries(), undefined, deliveryRowSchema(rt.listed.carrierOwners));
    expect(delivered.length).toBe(3);
    expect(delivered.every((v) => v.fits && v.errors.length === 0)).toBe(true);
    await sim.close();
  });
});
