// Transfer legs of a single call (spec "Call": transfers, transfer leg): checked on every getCall
// answer that carries a chain, against the kit's own reading of the spec (the simulator's code is
// never consulted): the chain is ordered by sequence from 1, the single transfer* fields are the
// representative leg's (ended legs, completed preferred, ties by highest sequence), and at most
// that one leg is billable, with billableDuration only when it completed.
import type { Check, Exchange } from './types.ts';
import { isApiCall } from './types.ts';

/** transferStatus values: the statuses of an ended leg (spec "Call"). */
const ENDED = new Set(['completed', 'failed', 'no-answer', 'busy', 'canceled']);

interface Leg {
  sequence: number;
  status: string;
  to?: unknown;
  duration?: unknown;
  billable?: unknown;
  billableDuration?: unknown;
  hangupCauseQ850?: unknown;
  sipResponseCode?: unknown;
  reasonText?: unknown;
}

function chainOf(ex: Exchange): Leg[] | undefined {
  if (!isApiCall(ex) || ex.op?.operationId !== 'getCall' || ex.response.status !== 200) return undefined;
  const body = ex.response.json as { transfers?: unknown } | undefined;
  if (!body || !Array.isArray(body.transfers)) return undefined;
  const legs = body.transfers as Leg[];
  return legs.every((l) => l && typeof l === 'object' && Number.isInteger(l.sequence) && typeof l.status === 'string') ? legs : undefined;
}

/** The spec's representative leg, or undefined when no leg has ended. */
export function representative(legs: readonly Leg[]): Leg | undefined {
  const ended = legs.filter((l) => ENDED.has(l.status));
  const completed = ended.filter((l) => l.status === 'completed');
  const pool = completed.length > 0 ? completed : ended;
  let best: Leg | undefined;
  for (const l of pool) if (!best || l.sequence > best.sequence) best = l;
  return best;
}

export const transferChainOrder: Check = {
  id: 'transfer-chain-order',
  level: 'spec',
  clauses: ['call.field.transfers-order', 'call.transfer-leg.sequence'],
  description: 'A call\'s transfers are ordered by sequence, numbered 1, 2, 3...',
  applies: (ex) => (chainOf(ex)?.length ?? 0) > 0,
  run(ex) {
    const seqs = chainOf(ex)!.map((l) => l.sequence);
    const want = seqs.map((_, i) => i + 1);
    return seqs.every((s, i) => s === want[i]) ? undefined : `transfers have sequences [${seqs.join(', ')}], expected [${want.join(', ')}]`;
  },
};

const FIELD_OF_LEG: [string, keyof Leg][] = [
  ['transferTo', 'to'],
  ['transferStatus', 'status'],
  ['transferDuration', 'duration'],
  ['transferHangupCauseQ850', 'hangupCauseQ850'],
  ['transferSipResponseCode', 'sipResponseCode'],
  ['transferReasonText', 'reasonText'],
];

export const transferRepresentative: Check = {
  id: 'transfer-representative',
  level: 'spec',
  clauses: ['call.field.transfer-representative-leg'],
  description: 'The call\'s transfer* fields are those of the representative leg (ended legs, completed preferred, ties by highest sequence), all null without an ended leg.',
  applies: (ex) => chainOf(ex) !== undefined,
  run(ex) {
    const body = ex.response.json as Record<string, unknown>;
    const rep = representative(chainOf(ex)!);
    const wrong = FIELD_OF_LEG.filter(([field, legField]) => {
      const want = rep ? (rep[legField] ?? null) : null;
      return JSON.stringify(body[field] ?? null) !== JSON.stringify(want);
    });
    if (wrong.length === 0) return undefined;
    const which = rep ? `leg ${rep.sequence} (${rep.status})` : 'no leg (none has ended)';
    return `the representative is ${which}, but ${wrong.map(([f, l]) => `${f} is ${JSON.stringify(body[f] ?? null)} (leg: ${JSON.stringify(rep ? (rep[l] ?? null) : null)})`).join(', ')}`;
  },
};

export const transferBillableOnce: Check = {
  id: 'transfer-billable-once',
  level: 'spec',
  clauses: ['call.transfer-leg.billable', 'call.transfer-leg.billable-duration'],
  description: 'At most one leg is billable, the representative; billableDuration is set only on the representative leg when it completed.',
  applies: (ex) => (chainOf(ex)?.length ?? 0) > 0,
  run(ex) {
    const legs = chainOf(ex)!;
    const rep = representative(legs);
    const billable = legs.filter((l) => l.billable === true);
    if (billable.length > 1) return `${billable.length} legs are billable (sequences ${billable.map((l) => l.sequence).join(', ')}); at most one may be`;
    if (billable.length === 1 && billable[0] !== rep) return `leg ${billable[0]!.sequence} is billable but the representative is ${rep ? `leg ${rep.sequence}` : 'none'}`;
    const timed = legs.filter((l) => l.billableDuration !== null && l.billableDuration !== undefined);
    const stray = timed.find((l) => l !== rep || l.status !== 'completed');
    if (stray) return `leg ${stray.sequence} (${stray.status}) has billableDuration ${JSON.stringify(stray.billableDuration)}; only the completed representative leg may`;
    return undefined;
  },
};
