// Property: for any chain of transfer legs a call may hold, getCall's `transfers` and its single
// transfer* fields agree with an independent reading of the spec written here (representative
// leg: among ended legs a completed one is preferred, ties by highest sequence; billable on at
// most that leg and only when completed; the data-age rule), and listCalls shows the same
// transfer* fields without the chain. Legs are put on a real call, then read over the API.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { harness } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import type { TransferLegRow } from '../resources/calls/transfers.ts';

const STATUSES = ['initiated', 'ringing', 'connected', 'completed', 'failed', 'no-answer', 'busy', 'canceled', 'interrupted'] as const;
/** The spec's transferStatus values: the statuses of an ended leg. */
const FINAL: ReadonlySet<string> = new Set(['completed', 'failed', 'no-answer', 'busy', 'canceled']);
const CUTOFF = Date.UTC(2026, 6, 10); // spec Versioning 6: 2026-07-10
const BASE = Date.UTC(2026, 6, 9, 23, 0, 0); // legs start on both sides of the cutoff

interface GenLeg {
  status: (typeof STATUSES)[number];
  startOffset: number; // seconds after BASE
  connectAfter: number | null;
  talk: number;
  sip: boolean;
  q850: number | null;
  reason: string | null;
}

const legArb: fc.Arbitrary<GenLeg> = fc.record({
  status: fc.constantFrom(...STATUSES),
  startOffset: fc.integer({ min: 0, max: 7200 }),
  connectAfter: fc.option(fc.integer({ min: 0, max: 30 })),
  talk: fc.integer({ min: 0, max: 600 }),
  sip: fc.boolean(),
  q850: fc.option(fc.constantFrom(16, 17, 19, 21, 38)),
  reason: fc.option(fc.constantFrom('NO_ANSWER', 'USER_BUSY', 'CS_NORMAL_RELEASE')),
});

const iso = (ms: number) => new Date(ms).toISOString();

/** A leg as the engine would store it: connected legs have connectedAt; ended ones endedAt. */
function toRow(g: GenLeg, sequence: number): TransferLegRow {
  const started = BASE + g.startOffset * 1000;
  // A failed leg may have connected first (dropped mid-conversation); the others never did.
  const everConnected = g.status === 'connected' || g.status === 'completed' || g.status === 'interrupted' || (g.status === 'failed' && g.connectAfter !== null);
  const connectedMs = everConnected ? started + (g.connectAfter ?? 1) * 1000 : null;
  const ended = FINAL.has(g.status);
  const endedMs = ended ? (connectedMs ?? started) + (connectedMs === null ? (g.connectAfter ?? 0) : g.talk) * 1000 : null;
  return {
    sequence,
    to: g.sip ? `sip:agent${sequence}@pbx.example.com` : `0101234${String(sequence).padStart(4, '0')}`,
    mode: (['blind', 'warm', 'refer', 'refer-attended'] as const)[sequence % 4]!,
    destinationType: g.sip ? 'sip' : 'pstn',
    status: g.status,
    hangupCauseQ850: g.q850,
    sipResponseCode: g.q850 === null ? null : 480,
    reasonText: g.reason,
    startedAt: iso(started),
    connectedAt: connectedMs === null ? null : iso(connectedMs),
    endedAt: endedMs === null ? null : iso(endedMs),
    origin: 'control',
    context: null,
  };
}

/** The reference reading of the spec, independent of transfers.ts. */
function reference(legs: TransferLegRow[]) {
  const ended = legs.filter((l) => FINAL.has(l.status));
  const completed = ended.filter((l) => l.status === 'completed');
  const pool = completed.length > 0 ? completed : ended;
  const rep = pool.length === 0 ? null : pool.reduce((a, b) => (b.sequence > a.sequence ? b : a));
  const seconds = (l: TransferLegRow) => (l.connectedAt !== null && l.endedAt !== null ? (Date.parse(l.endedAt) - Date.parse(l.connectedAt)) / 1000 : null);
  return {
    fields: {
      transferTo: rep?.to ?? null,
      transferStatus: rep?.status ?? null,
      transferDuration: rep ? seconds(rep) : null,
      transferHangupCauseQ850: rep?.hangupCauseQ850 ?? null,
      transferSipResponseCode: rep?.sipResponseCode ?? null,
      transferReasonText: rep?.reasonText ?? null,
    },
    chain: [...legs]
      .sort((a, b) => a.sequence - b.sequence)
      .map((l) => {
        const old = Date.parse(l.startedAt) < CUTOFF;
        const billable = rep !== null && l.sequence === rep.sequence && rep.status === 'completed';
        return {
          sequence: l.sequence,
          status: l.status,
          duration: seconds(l),
          billable,
          billableDuration: billable ? seconds(l) : null,
          destinationType: old ? null : l.destinationType,
          connectedAt: old ? null : l.connectedAt,
        };
      }),
  };
}

describe('transfer legs (property)', () => {
  it('getCall and listCalls derive transfers and transfer* fields as the spec reads', async () => {
    const h = harness();
    const rt = runtimeOf(h.sim);
    const flowId = (await h.call('POST', h.acme('/call-flows'), { name: 'f', graph: { version: 1, start: 's', nodes: { s: { type: 'say', text: 'hi', next: null } } } })).json.callFlowId;
    const callId = (await h.call('POST', h.acme('/calls'), { To: '010-9100-0001', From: '070-1234-0001', CallFlowId: flowId })).json.callId as string;
    await h.sim.clock.advance({ seconds: 60 });

    await fc.assert(
      fc.asyncProperty(fc.array(legArb, { maxLength: 6 }), fc.func(fc.integer()), async (gen, shuffleKey) => {
        // Stored in any order; sequences 1..n.
        const legs = gen.map((g, i) => toRow(g, i + 1)).sort((a, b) => shuffleKey(a.sequence) - shuffleKey(b.sequence));
        rt.calls.calls.replace({ ...rt.calls.calls.get(callId)!, transfers: legs });
        const want = reference(legs);
        const got = (await h.call('GET', h.acme(`/calls/${callId}`))).json;
        expect(got).toMatchObject(want.fields);
        expect(got.transfers).toHaveLength(want.chain.length);
        got.transfers.forEach((leg: Record<string, unknown>, i: number) => expect(leg).toMatchObject(want.chain[i]!));
        expect(got.transfers.filter((l: { billable: boolean }) => l.billable).length).toBeLessThanOrEqual(1);
        const row = (await h.call('GET', h.acme('/calls'))).json.data.find((c: { callId: string }) => c.callId === callId);
        expect(row).not.toHaveProperty('transfers');
        expect(row).toMatchObject(want.fields);
      }),
    );
  });
});
