// Generated chains of transfer legs on a live call (control-plane agent / SIP REFER transfers
// whose parties the carrier scripts decide), sometimes hung up while the last leg rings or
// talks. The kit predicts every leg's status and duration from the scripts and derives the
// call's transfer* fields and the billable leg with its own reading of the spec (the
// representative leg of checks/transfers.ts); getCall must answer exactly that.
import fc from 'fast-check';
import { representative } from '../checks/transfers.ts';
import { generatedProperty } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Json = Record<string, unknown>;
const OUTCOMES = ['delivered', 'busy', 'no-answer', 'failed', 'rejected'] as const;
const MODES = ['blind', 'warm', 'refer', 'refer-attended'] as const;

interface LegCase {
  outcome: (typeof OUTCOMES)[number];
  delay: number; // seconds until the party answers or the outcome is known
  talk: number; // seconds an answering party talks
  mode: (typeof MODES)[number];
}

interface Case {
  legs: LegCase[];
  /** Seconds after the last leg starts at which the call is hung up; null: the last leg runs out first. */
  hangUpAfter: number | null;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  legs: fc.array(
    fc.record({ outcome: fc.constantFrom(...OUTCOMES), delay: fc.integer({ min: 1, max: 4 }), talk: fc.integer({ min: 1, max: 20 }), mode: fc.constantFrom(...MODES) }),
    { minLength: 1, maxLength: 4 },
  ),
  hangUpAfter: fc.option(fc.integer({ min: 0, max: 25 }), { nil: null }),
});

interface Predicted {
  sequence: number;
  to: string;
  status: string;
  duration: number | null;
}

/** How a leg ends: the carrier's outcome, or the call's end cutting it short (ringing: canceled; talking: completed). */
export function predictLeg(leg: LegCase, cutAt: number | null): { status: string; duration: number | null } {
  const endsAt = leg.outcome === 'delivered' ? leg.delay + leg.talk : leg.delay;
  if (cutAt === null || cutAt >= endsAt) {
    if (leg.outcome === 'delivered') return { status: 'completed', duration: leg.talk };
    return { status: leg.outcome === 'rejected' ? 'failed' : leg.outcome, duration: null };
  }
  if (leg.outcome === 'delivered' && cutAt >= leg.delay) return { status: 'completed', duration: cutAt - leg.delay };
  return { status: 'canceled', duration: null };
}

function firstDifference(got: Json, legs: Predicted[]): string | undefined {
  const chain = Array.isArray(got.transfers) ? (got.transfers as Json[]) : [];
  if (chain.length !== legs.length) return `transfers has ${chain.length} legs, ${legs.length} were started`;
  for (const [i, want] of legs.entries()) {
    const leg = chain[i]!;
    for (const k of ['sequence', 'to', 'status', 'duration'] as const) {
      if (leg[k] !== want[k]) return `leg ${i + 1}: ${k} is ${JSON.stringify(leg[k])}, predicted ${JSON.stringify(want[k])}`;
    }
  }
  const rep = representative(legs);
  const fields: [string, unknown][] = [
    ['transferTo', rep?.to ?? null],
    ['transferStatus', rep?.status ?? null],
    ['transferDuration', rep?.duration ?? null],
  ];
  for (const [k, want] of fields) if (got[k] !== want) return `${k} is ${JSON.stringify(got[k])}, the representative leg ${rep ? rep.sequence : '(none)'} gives ${JSON.stringify(want)}`;
  for (const [i, leg] of chain.entries()) {
    const billed = rep !== undefined && rep.sequence === i + 1 && rep.status === 'completed';
    if (leg.billable !== billed) return `leg ${i + 1}: billable is ${JSON.stringify(leg.billable)}, expected ${billed}`;
    const seconds = billed ? rep!.duration : null;
    if (leg.billableDuration !== seconds) return `leg ${i + 1}: billableDuration is ${JSON.stringify(leg.billableDuration)}, expected ${JSON.stringify(seconds)}`;
  }
  return undefined;
}

export const callTransfersProperty: PropertyDef = generatedProperty<Case>({
  id: 'call-transfers',
  description: 'generated chains of scripted transfer legs, sometimes cut short by a hang-up; every leg, the transfer* fields and the billable leg are as predicted',
  clauses: ['call.field.transfer-representative-leg', 'call.transfer-leg.status', 'call.transfer-leg.duration', 'call.transfer-leg.billable', 'call.transfer-leg.billable-duration'],
  tags: ['calls', 'transfers', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'phone-calls', 'call-transfers', 'clock'],
  level: 'sim',
  numRuns: 20,
  arbitrary: caseArb,
  drive: async (v, c) => {
    c.set('caller', c.number(0));
    await c.exec({ control: { createAccount: { numbers: 1 }, as: 'shop' } as Json });
    await c.exec({
      request: { operationId: 'createCallFlow', as: 'shop', body: { name: 'hold', graph: { version: 1, start: 'p', nodes: { p: { type: 'pause', seconds: 60, next: 'p' } } } } },
      save: { flow: 'body.callFlowId' },
    });
    const predicted: Predicted[] = [];
    for (const [i, leg] of v.legs.entries()) {
      const to = c.number(i + 1);
      c.set(`party${i}`, to);
      await c.exec({ control: { method: 'POST', path: '/carrier/scripts', body: { number: `{{ party${i} }}`, types: ['call'], outcome: leg.outcome, delaySeconds: leg.delay, hangupAfterSeconds: leg.talk } }, save: { [`script${i}`]: 'body.scriptId' } });
      c.afterCase({ control: { method: 'DELETE', path: `/carrier/scripts/{{ script${i} }}` } });
      const last = i === v.legs.length - 1;
      predicted.push({ sequence: i + 1, to, ...predictLeg(leg, last ? v.hangUpAfter : null) });
    }
    await c.exec({
      request: { operationId: 'createCall', as: 'shop', body: { To: '{{ caller }}', From: '{{ shop.numbers[0] }}', CallFlowId: '{{ flow }}' } },
      expectSim: { status: 201 },
      save: { call: 'body.callId' },
    });
    // The caller waits on hold (a pause that loops) until hung up: hang up after the case if it still is (409: it ended).
    c.afterCase({ request: { operationId: 'updateCall', as: 'shop', params: { callId: '{{ call }}' }, body: { Status: 'completed' } }, expectSim: { status: [200, 409] } });
    await c.exec({ control: { advance: { seconds: 10 } } });
    for (const [i, leg] of v.legs.entries()) {
      const started = await c.exec({
        name: `transfer ${i + 1} (${leg.mode})`,
        control: { method: 'POST', path: '/calls/{{ call }}/transfers', body: { to: `{{ party${i} }}`, mode: leg.mode } },
        expectSim: { status: 201, body: { sequence: i + 1, mode: leg.mode } },
      });
      if (started.status === 'failed') return undefined;
      const last = i === v.legs.length - 1;
      if (last && v.hangUpAfter !== null) {
        await c.exec({ control: { advance: { seconds: v.hangUpAfter } } });
        await c.exec({ request: { operationId: 'updateCall', as: 'shop', params: { callId: '{{ call }}' }, body: { Status: 'completed' } }, expectSim: { status: 200 } });
      } else {
        await c.exec({ control: { advance: { seconds: leg.delay + leg.talk + 1 } } });
      }
    }
    await c.exec({
      name: 'the call with its chain',
      request: { operationId: 'getCall', as: 'shop', params: { callId: '{{ call }}' } },
      expectSim: { status: 200 },
      save: { got: 'body' },
    });
    const got = c.saved('got') as Json | undefined;
    if (!got) return 'getCall answered no body';
    return firstDifference(got, predicted);
  },
});
