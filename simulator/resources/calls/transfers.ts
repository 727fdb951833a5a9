// Transfer legs and the call's single `transfer*` fields (spec "Call": transfer fields, transfer
// leg; Versioning 6). Pure: no clock, no state. The leg engine (transfer-legs.ts) stores legs
// on the call row; everything the wire shows of them is derived here, so the representative
// rule lives in exactly one place.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';

export const TRANSFER_MODES = ['blind', 'warm', 'refer', 'refer-attended'] as const;
export type TransferMode = (typeof TRANSFER_MODES)[number];
export const LEG_STATUSES = ['initiated', 'ringing', 'connected', 'completed', 'failed', 'no-answer', 'busy', 'canceled', 'interrupted'] as const;
export type LegStatus = (typeof LEG_STATUSES)[number];
/** Statuses of an ended leg: the values `transferStatus` may take (spec "Call"). `interrupted` is not among them. */
export const ENDED_LEG_STATUSES = ['completed', 'failed', 'no-answer', 'busy', 'canceled'] as const;
export type EndedLegStatus = (typeof ENDED_LEG_STATUSES)[number];
/** Spec Versioning 6: transfers before this instant show null destinationType and connectedAt. */
export const DATA_AGE_CUTOFF = '2026-07-10T00:00:00Z';
const CUTOFF_MS = Date.parse(DATA_AGE_CUTOFF);

/** A stored leg: the wire fields that are facts, plus what the simulator needs to finish it. */
export const TransferLegRowSchema = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }), // 1, 2, ... in the order legs started on the call
    to: Nullable(Type.String()), // the number (domestic notation) or SIP URI dialed
    mode: StringEnum(TRANSFER_MODES),
    destinationType: StringEnum(['pstn', 'sip']), // the fact; the wire hides it for legs before the cutoff
    status: StringEnum(LEG_STATUSES),
    hangupCauseQ850: Nullable(Type.Integer()),
    sipResponseCode: Nullable(Type.Integer()),
    reasonText: Nullable(Type.String()),
    startedAt: DateTime(),
    connectedAt: Nullable(DateTime()), // the fact; the wire hides it for legs before the cutoff
    endedAt: Nullable(DateTime()),
    origin: StringEnum(['dial', 'control', 'handler']), // a call-flow dial block, /_sim/calls/{callId}/transfers, or a call's handler (an agent)
    context: Nullable(Type.String()), // TransferContext of the callback (control plane), JSON text
  },
  { additionalProperties: false },
);
export type TransferLegRow = Static<typeof TransferLegRowSchema>;

/** A leg on the wire (public document CallResponse.transfers items). */
export const TransferLegWire = Type.Object(
  {
    sequence: Type.Integer({ minimum: 1 }),
    to: Nullable(Type.String({ description: 'Number or SIP URI.' })),
    mode: Nullable(StringEnum(TRANSFER_MODES)),
    destinationType: Nullable(StringEnum(['pstn', 'sip'], { description: 'null for transfers before 2026-07-10.' })),
    status: Nullable(StringEnum(LEG_STATUSES)),
    duration: Nullable(Type.Integer({ description: 'Observed seconds from connect to end; null for a leg that never connected or has not ended.' })),
    billable: Type.Boolean({ description: 'True for at most one leg: the representative leg when it completed.' }),
    billableDuration: Nullable(Type.Integer({ description: 'Only on the completed representative leg.' })),
    hangupCauseQ850: Nullable(Type.Integer()),
    sipResponseCode: Nullable(Type.Integer()),
    reasonText: Nullable(Type.String({ description: 'Free-form diagnostic; never branch on it.' })),
    startedAt: Nullable(DateTime()),
    connectedAt: Nullable(DateTime({ description: 'null when not connected, and for transfers before 2026-07-10 even if connected.' })),
    endedAt: Nullable(DateTime()),
  },
  { $id: 'CallTransferLeg', additionalProperties: false },
);
export type TransferLegWireShape = Static<typeof TransferLegWire>;

/** The subset of a leg the representative rule reads. */
export interface RankedLeg {
  sequence: number;
  status: LegStatus;
}

export function isEnded(status: LegStatus): status is EndedLegStatus {
  return (ENDED_LEG_STATUSES as readonly string[]).includes(status);
}

/**
 * The representative leg (spec "Call" transfers): among ended legs, a `completed` one is
 * preferred; ties (several completed, or no completed at all) go to the highest sequence.
 * Undefined when no leg has ended.
 */
export function representativeLeg<L extends RankedLeg>(legs: readonly L[]): L | undefined {
  let best: L | undefined;
  for (const leg of legs) {
    if (!isEnded(leg.status)) continue;
    if (!best) {
      best = leg;
      continue;
    }
    const legCompleted = leg.status === 'completed';
    const bestCompleted = best.status === 'completed';
    if (legCompleted !== bestCompleted ? legCompleted : leg.sequence > best.sequence) best = leg;
  }
  return best;
}

/** Whole seconds from connect to end of an ended, connected leg; null otherwise. */
export function legDuration(leg: Pick<TransferLegRow, 'connectedAt' | 'endedAt'>): number | null {
  if (leg.connectedAt === null || leg.endedAt === null) return null;
  return Math.round((Date.parse(leg.endedAt) - Date.parse(leg.connectedAt)) / 1000);
}

/** Whether the leg started before the data-age cutoff (Versioning 6). */
export function isLegacyLeg(leg: Pick<TransferLegRow, 'startedAt'>): boolean {
  return Date.parse(leg.startedAt) < CUTOFF_MS;
}

/** The billed seconds of a call's transfers: the completed representative leg's duration, else 0. */
export function billableSeconds(legs: readonly TransferLegRow[]): number {
  const rep = representativeLeg(legs);
  return rep?.status === 'completed' ? (legDuration(rep) ?? 0) : 0;
}

/** The chain as getCall shows it, ordered by sequence. */
export function transfersWire(legs: readonly TransferLegRow[]): TransferLegWireShape[] {
  const rep = representativeLeg(legs);
  return [...legs]
    .sort((a, b) => a.sequence - b.sequence)
    .map((leg) => {
      const legacy = isLegacyLeg(leg);
      const billable = leg === rep && leg.status === 'completed';
      const duration = legDuration(leg);
      return {
        sequence: leg.sequence,
        to: leg.to,
        mode: leg.mode,
        destinationType: legacy ? null : leg.destinationType,
        status: leg.status,
        duration,
        billable,
        billableDuration: billable ? duration : null,
        hangupCauseQ850: leg.hangupCauseQ850,
        sipResponseCode: leg.sipResponseCode,
        reasonText: leg.reasonText,
        startedAt: leg.startedAt,
        connectedAt: legacy ? null : leg.connectedAt,
        endedAt: leg.endedAt,
      };
    });
}

export interface TransferFields {
  transferTo: string | null;
  transferStatus: EndedLegStatus | null;
  transferDuration: number | null;
  transferHangupCauseQ850: number | null;
  transferSipResponseCode: number | null;
  transferReasonText: string | null;
}

export const NO_TRANSFER: TransferFields = {
  transferTo: null,
  transferStatus: null,
  transferDuration: null,
  transferHangupCauseQ850: null,
  transferSipResponseCode: null,
  transferReasonText: null,
};

/** The call's single transfer* fields: those of the representative leg, all null without one. */
export function transferFields(legs: readonly TransferLegRow[] | undefined): TransferFields {
  const rep = legs && legs.length > 0 ? representativeLeg(legs) : undefined;
  if (!rep) return NO_TRANSFER;
  return {
    transferTo: rep.to,
    transferStatus: rep.status as EndedLegStatus,
    transferDuration: legDuration(rep),
    transferHangupCauseQ850: rep.hangupCauseQ850,
    transferSipResponseCode: rep.sipResponseCode,
    transferReasonText: rep.reasonText,
  };
}

/** Parties who joined the call through a transfer: legs that connected (one transcript speaker each). */
export function transferParties(legs: readonly TransferLegRow[] | undefined): number {
  return (legs ?? []).filter((l) => l.connectedAt !== null).length;
}
