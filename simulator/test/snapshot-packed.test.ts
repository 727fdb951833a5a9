// Snapshots with ended calls packed (version 2, core/packed-transfer.ts; docs/decisions.md
// "Scale"): a round trip through JSON answers every read as before (listCalls pages under
// filters, usage by day and number, getCall), a snapshot and a state dir written by the previous
// release (version 1, every call a row; state-v1/ was written by that code) restore with the same
// answers, and a tampered packed part is refused with 400 naming the field, the state unchanged;
// carrier deliveries whose outcome came are packed the same way.
import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ControlError, createSimulator, type Simulator } from '../index.ts';
import { runtimeOf } from '../internal.ts';
import { ACME, call } from './helpers.ts';
import { endedCall } from './synthetic-calls.ts';
import { Type } from '@sinclair/typebox';
import { Table } from '../core/store.ts';
import { packedState, tableFromPacked } from '../core/packed-transfer.ts';
import { closeDurableTests, onDir, stateDir } from './durable-helpers.ts';

afterEach(closeDurableTests);

const V1 = path.join(import.meta.dirname, 'state-v1');
const a = (p: string) => `/v1/accounts/${ACME.accountId}${p}`;
const get = async (sim: Simulator, p: string) => {
  const r = await call(sim, 'GET', a(p));
  expect(r.status, r.text).toBe(200);
  return r.json;
};
const FILTERS = ['', 'status=no-answer', 'number=07020000003', 'since=2026-02-01T00:00:00.000Z&until=2026-02-10T00:00:00.000Z', 'minDuration=60&maxDuration=300', 'hangupCause=normal_clearing&status=completed'];

/** A simulator with `n` ended calls over 92 days on 20 numbers, and one call in progress. */
async function withCalls(n: number): Promise<Simulator> {
  const sim = createSimulator();
  const rt = runtimeOf(sim);
  const start = Date.parse('2025-12-01T00:00:00.000Z');
  for (let i = 0; i < n; i++) {
    const own = `0702000000${i % 10}`;
    const other = `0101000${String(i % 997).padStart(4, '0')}`;
    const inbound = i % 4 === 1;
    rt.calls.calls.insert(
      endedCall({ id: `CA${i.toString(16).padStart(32, '0')}`, accountId: ACME.accountId, direction: inbound ? 'inbound' : 'outbound', from: inbound ? other : own, to: inbound ? own : other, createdAt: start + i * 3_900_000, answerAfter: i % 7 === 0 ? null : 2 + (i % 9), talk: (i * 37) % 600, transferSeconds: i % 11 === 0 ? 5 + (i % 50) : undefined, machineDetection: i % 13 === 0 ? 'Enable' : null }),
    );
  }
  await sim.control.request('POST', '/carrier/scripts', { types: ['call'], outcome: 'delivered', number: '010-3000-0001', speakSeconds: 600 });
  const flow = await call(sim, 'POST', a('/call-flows'), { name: 'f', graph: { version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hello', next: null } } } });
  const live = await call(sim, 'POST', a('/calls'), { From: '070-1234-0001', To: '010-3000-0001', CallFlowId: flow.json.callFlowId });
  expect(live.status, live.text).toBe(201);
  return sim;
}

/** Every read the round trip must keep: each filter's pages, usage by day and number, some calls. */
async function reads(sim: Simulator, ids: string[]) {
  const out: unknown[] = [];
  for (const f of FILTERS) {
    const first = await get(sim, `/calls?${f}&pageSize=50`);
    out.push(first);
    for (let page = 2; page <= Math.ceil(first.meta.total / 50); page += 3) out.push(await get(sim, `/calls?${f}&page=${page}&pageSize=50`));
  }
  out.push(await get(sim, '/usage?from=2025-12-01T00:00:00Z&to=2026-03-02T00:00:00Z&groupBy=day&groupBy=number&pageSize=200'));
  for (const id of ids) out.push(await get(sim, `/calls/${id}`));
  return out;
}

describe('snapshots with ended calls packed', () => {
  it('hold the same document for the same rows, whatever the history of the table (shapes, texts, deletes)', () => {
    type R = { id: string; v: unknown; note: string };
    const options = { packWhen: () => true };
    const a = new Table<R>([], options);
    a.insert({ id: 'x1', v: 1.5, note: 'gone' }); // a double: a later whole number fits this shape loosely
    a.insert({ id: 'x2', v: 7, note: '2026-03-01T00:00:00.000Z' });
    a.insert({ id: 'x3', v: 'free text', note: 'kept' });
    a.insert({ id: 'x4', v: '01012345678', note: 'kept' }); // digits under the text shape of x3
    a.replace({ id: 'x3', v: 'other text', note: 'kept' });
    a.delete('x1');
    const b = new Table<R>([{ id: 'x2', v: 7, note: '2026-03-01T00:00:00.000Z' }, { id: 'x3', v: 'other text', note: 'kept' }, { id: 'x4', v: '01012345678', note: 'kept' }], options);
    expect(JSON.stringify(packedState(a))).toBe(JSON.stringify(packedState(b)));
    expect(packedState(a).packed!.texts).toEqual(['other text', 'kept']); // ids x2.. pack as digits; 'gone' and 'free text' left with their rows
    const back = tableFromPacked([], JSON.parse(JSON.stringify(packedState(a).packed)), Type.Any(), 't', options);
    expect(back.all()).toEqual(b.all());
  });

  it('a hex run longer than a hex shape may declare packs as text and restores', () => {
    type R = { id: string; hex: string };
    const options = { packWhen: () => true };
    const long = 'ab'.repeat(257); // 514 hex digits: 64 words and a bit
    const rows = [{ id: 'h1', hex: long }, { id: 'h2', hex: 'cd'.repeat(256) }]; // the second exactly 64 words
    const a = new Table<R>(rows, options);
    const back = tableFromPacked([], JSON.parse(JSON.stringify(packedState(a).packed)), Type.Any(), 't', options);
    expect(back.all()).toEqual(rows);
  });

  it('a round trip through JSON answers every read as before and snapshots to the same text', async () => {
    const sim = await withCalls(1_500);
    const ids = [0, 1, 11, 700, 1_499].map((i) => `CA${i.toString(16).padStart(32, '0')}`);
    const before = await reads(sim, ids);
    const text = JSON.stringify(sim.snapshot());
    const snap = JSON.parse(text);
    expect(snap.version).toBe(2);
    expect(snap.models.calls.calls).toHaveLength(1); // the call in progress, as a row
    expect(snap.models.calls.packed.plainAt).toEqual([1_500]);
    const other = createSimulator();
    other.restore(snap);
    expect(await reads(other, ids)).toEqual(before);
    expect(JSON.stringify(other.snapshot())).toBe(text);
    // The restored state goes on: the live call ends as it would have, in both.
    await sim.clock.advance({ seconds: 700 });
    await other.clock.advance({ seconds: 700 });
    expect(await reads(other, ids)).toEqual(await reads(sim, ids));
    await Promise.all([sim.close(), other.close()]);
  });

  it('carrier deliveries whose outcome came are packed too, read back the same, and a tampered one is refused naming the field', async () => {
    const sim = await withCalls(3);
    const flow = await call(sim, 'POST', a('/call-flows'), { name: 'g', graph: { version: 1, start: 'hi', nodes: { hi: { type: 'say', text: 'Hi', next: null } } } });
    for (const to of ['010-3000-0002', '010-3000-0003']) {
      const placed = await call(sim, 'POST', a('/calls'), { From: '070-1234-0001', To: to, CallFlowId: flow.json.callFlowId });
      expect(placed.status, placed.text).toBe(201);
    }
    const pending = JSON.parse(JSON.stringify(sim.snapshot())).models.carrier;
    expect(pending.deliveries.length).toBe(3); // pending: rows
    await sim.clock.advance({ seconds: 700 });
    const deliveries = (await sim.control.request('GET', '/carrier/deliveries')) as unknown;
    const text = JSON.stringify(sim.snapshot());
    const carrier = JSON.parse(text).models.carrier;
    expect(carrier.deliveries).toEqual([]);
    expect(carrier.packedDeliveries.plainAt).toEqual([]);
    const other = createSimulator();
    other.restore(JSON.parse(text));
    expect(await other.control.request('GET', '/carrier/deliveries')).toEqual(deliveries);
    expect(JSON.stringify(other.snapshot())).toBe(text);
    const tampered = JSON.parse(text);
    tampered.models.carrier.packedDeliveries.texts = tampered.models.carrier.packedDeliveries.texts.map((t: string) => (t === 'call' ? 'fax' : t));
    const refused = await other.control.request('PUT', '/state', tampered).then(() => undefined, (e: unknown) => e as ControlError);
    expect(refused?.status).toBe(400);
    expect(JSON.stringify(refused?.body)).toMatch(/carrier\.packedDeliveries\.rows\[\d+\]\.type/);
    expect(JSON.stringify(other.snapshot())).toBe(text);
    await Promise.all([sim.close(), other.close()]);
  });

  it('a snapshot of the previous version (every call a row) restores with the answers that release gave', async () => {
    const answers = JSON.parse(readFileSync(path.join(V1, 'answers.json'), 'utf8'));
    const v1 = JSON.parse(readFileSync(path.join(V1, 'snapshot.json'), 'utf8'));
    expect(v1.version).toBe(1);
    const sim = createSimulator();
    await sim.control.request('PUT', '/state', v1);
    expect(await get(sim, '/calls?pageSize=100')).toEqual(answers.list);
    expect(await get(sim, '/calls?status=completed')).toEqual(answers.completed);
    for (const c of answers.calls) expect(await get(sim, `/calls/${c.callId}`)).toEqual(c);
    const again = sim.snapshot() as unknown as { version: number; models: { calls: { calls: unknown[]; packed: { plainAt: number[] } } } };
    expect(again.version).toBe(2);
    expect(again.models.calls.calls).toHaveLength(1); // the ringing call
    expect(again.models.calls.packed.plainAt).toEqual([4]);
    await sim.close();
  });

  it('a state dir the previous release closed (a version 1 snapshot) opens with the same answers', async () => {
    const answers = JSON.parse(readFileSync(path.join(V1, 'answers.json'), 'utf8'));
    const dir = stateDir();
    copyFileSync(path.join(V1, 'snapshot-000002.json'), path.join(dir, 'snapshot-000002.json'));
    const h = await onDir(dir);
    expect(h.warnings).toEqual([]);
    expect(await get(h.sim, '/calls?pageSize=100')).toEqual(answers.list);
    for (const c of answers.calls) expect(await get(h.sim, `/calls/${c.callId}`)).toEqual(c);
  });

  it('a tampered packed part is refused with 400 naming the field, the state unchanged', async () => {
    const sim = await withCalls(40);
    const text = JSON.stringify(sim.snapshot());
    const before = await reads(sim, []);
    const cases: [string, (s: any) => void, RegExp][] = [
      ['a missing piece of the leaves', (s) => s.models.calls.packed.words.push('AAAAAA=='), /calls\.packed\.words: holds/],
      ['leaves not in base64', (s) => (s.models.calls.packed.doubles[0] = '@@@@'), /calls\.packed\.doubles\[0\]/],
      ['a shape of no kind', (s) => (s.models.calls.packed.shapes[0] = { k: 'tree' }), /calls\.packed\.shapes\[0\]/],
      ['a record naming no shape', (s) => (s.models.calls.packed.shapeOf = [Buffer.from(new Uint32Array(40).fill(99).buffer).toString('base64')]), /calls\.packed\.shapeOf\[0\]/],
      ['positions out of order', (s) => (s.models.calls.packed.plainAt = [40, 3]), /calls\.packed\.plainAt/],
      ['texts cut short (ids out of range)', (s) => (s.models.calls.packed.texts = s.models.calls.packed.texts.slice(0, 1)), /calls\.packed\.rows\[\d+\]\./],
      ['a shape without a required member', (s) => (s.models.calls.packed.shapes[0].keys = s.models.calls.packed.shapes[0].keys.map((k: string) => (k === 'status' ? 'state' : k))), /calls\.packed\.rows\[0\]/],
      ['an instant that is no instant', (s) => (s.models.calls.packed.doubles = [Buffer.from(new Float64Array(Buffer.from(s.models.calls.packed.doubles[0], 'base64').length / 8).fill(NaN).buffer).toString('base64')]), /calls\.packed\.rows\[0\]: does not read back/],
      ['a status no call has', (s) => (s.models.calls.packed.texts = s.models.calls.packed.texts.map((t: string) => (t === 'completed' ? 'finished' : t))), /calls\.packed\.rows\[\d+\]\.status/],
    ];
    for (const [what, tamper, field] of cases) {
      const s = JSON.parse(text);
      tamper(s);
      const refused = await sim.control.request('PUT', '/state', s).then(() => undefined, (e: unknown) => e as ControlError);
      expect(refused?.status, what).toBe(400);
      expect(JSON.stringify(refused?.body), what).toMatch(field);
    }
    expect(await reads(sim, [])).toEqual(before);
    expect(JSON.stringify(sim.snapshot())).toBe(text);
    await sim.close();
  });
});
