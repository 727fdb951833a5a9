// A call's timeline as `listCallEvents` answers it (public document CallEvent: id, event,
// detail, timestamp). Derived from what the call row already keeps (its status timeline, its
// transfer legs, its playbacks), never stored twice, so it is the same after a snapshot.
// Other parts of the calls family (recordings, transcripts) add their events through
// `CallEventSource`s without touching this file.
import { Type, type Static } from '@sinclair/typebox';
import { DateTime } from '../../core/schema.ts';
import type { CallRow } from './schema.ts';
import { isEnded, legDuration } from './transfers.ts';

export const CallEvent = Type.Object(
  {
    id: Type.String({ description: 'Stable id of the event within the simulator (the call id and the event\'s place in the call).' }),
    event: Type.String({ description: 'initiated, ringing, answered, completed, transfer, play; other parts may add more (the set may grow).' }),
    detail: Type.Record(Type.String(), Type.Unknown(), { description: 'A whitelist of fields per event.' }),
    timestamp: DateTime(),
  },
  { $id: 'CallEvent', additionalProperties: false },
);
export type CallEventShape = Static<typeof CallEvent>;
export const CallEventList = Type.Object({ data: Type.Array(CallEvent) }, { $id: 'CallEventListResponse', additionalProperties: false });

/**
 * An event with its sort key: time, then `rank` (at one instant: statuses 0, leg starts and
 * connects 1, playbacks 2, leg ends 3, the call's end 4), then order within the source.
 */
export interface RankedEvent extends CallEventShape {
  rank: number;
  order: number;
}

/**
 * Adds events of one kind for a call (e.g. recordings): push one onto `CallsModel.eventSources`.
 * Ids must be stable across reads (derive them from the call id and the event's place), and
 * `rank` orders sources at equal times (see RankedEvent).
 */
export type CallEventSource = (row: CallRow) => RankedEvent[];

const STATUS_EVENT: Record<string, string> = { queued: 'initiated', ringing: 'ringing', 'in-progress': 'answered' };

/**
 * One event per status the call took, named as the status callbacks name them. An inbound call
 * starts `ringing` but is announced `initiated` first (as its callbacks are), so it gets both.
 */
function statusEvents(row: CallRow): RankedEvent[] {
  const timeline = row.timeline[0]?.status === 'queued' ? row.timeline : [{ status: 'queued' as const, at: row.dateCreated }, ...row.timeline];
  return timeline.map((t, i) => {
    const event = STATUS_EVENT[t.status] ?? 'completed';
    const detail: Record<string, unknown> = { status: i === 0 ? row.timeline[0]!.status : t.status };
    if (i === 0) Object.assign(detail, { direction: row.direction, from: row.from, to: row.to });
    if (event === 'completed') {
      Object.assign(detail, {
        duration: row.duration,
        hangupCause: row.hangupCause,
        hangupCauseQ850: row.hangupCauseQ850,
        sipResponseCode: row.sipResponseCode,
        hangupSource: row.hangupSource,
      });
    }
    // An end sorts after the legs and playbacks it closed at the same instant.
    return { id: `${row.id}-s${i}`, event, detail, timestamp: t.at, rank: event === 'completed' ? 4 : 0, order: i };
  });
}

/** One `transfer` event per leg start, connect and end (the moments the transfer callback reports). */
function transferEvents(row: CallRow): RankedEvent[] {
  const out: RankedEvent[] = [];
  for (const leg of row.transfers ?? []) {
    const base = { transferSequence: leg.sequence, transferTo: leg.to, transferMode: leg.mode };
    // A leg's end sorts after playbacks at the same instant: a playback needs the leg connected.
    const at = (suffix: string, timestamp: string, detail: Record<string, unknown>, step: number) =>
      out.push({ id: `${row.id}-t${leg.sequence}${suffix}`, event: 'transfer', detail: { ...base, ...detail }, timestamp, rank: step === 2 ? 3 : 1, order: leg.sequence * 3 + step });
    at('i', leg.startedAt, { transferStatus: 'initiated' }, 0);
    if (leg.connectedAt !== null) at('c', leg.connectedAt, { transferStatus: 'connected' }, 1);
    if (isEnded(leg.status) && leg.endedAt !== null) {
      const detail: Record<string, unknown> = { transferStatus: leg.status, transferDuration: legDuration(leg) ?? 0 };
      if (leg.reasonText !== null) detail.transferReason = leg.reasonText;
      at('e', leg.endedAt, detail, 2);
    }
  }
  return out;
}

function playEvents(row: CallRow): RankedEvent[] {
  return (row.playbacks ?? []).map((p, i) => ({
    id: `${row.id}-p${i}`,
    event: 'play',
    detail: { playbackId: p.id, target: p.target, ...(p.text !== null ? { text: p.text } : { url: p.url }), language: p.language },
    timestamp: p.at,
    rank: 2,
    order: i,
  }));
}

export const BUILT_IN_SOURCES: readonly CallEventSource[] = [statusEvents, transferEvents, playEvents];

/** The call's events, oldest first; equal times keep the sources' order. */
export function callEvents(row: CallRow, extra: readonly CallEventSource[] = []): CallEventShape[] {
  const all = [...BUILT_IN_SOURCES, ...extra].flatMap((source) => source(row));
  all.sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || a.rank - b.rank || a.order - b.order);
  return all.map(({ id, event, detail, timestamp }) => ({ id, event, detail, timestamp }));
}
