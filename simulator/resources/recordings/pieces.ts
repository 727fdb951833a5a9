// Small rules of a call's artifacts shared by the model and its control routes: storing a row
// whether or not it exists, the download path of a call's recording, the pieces the whole-call
// recording holds (cut at MAX_WHOLE_SECONDS) and its length, a call's default script, and the
// stable hash an organisation's summary schema version is named by.
import { createHash } from '../../core/node-crypto.ts';
import type { Table } from '../../core/store.ts';
import { MAX_WHOLE_SECONDS } from './wav.ts';
import { DEFAULT_SUMMARY_SECONDS, DEFAULT_TRANSCRIPT_SECONDS, type ArtifactScript, type RecordingRow } from './schema.ts';

/** Stores the row: replaces the one with its id, else inserts it. */
export function put<T extends { id: string }>(table: Table<T>, row: T): void {
  if (table.has(row.id)) table.replace(row);
  else table.insert(row);
}

export const recordingPath = (accountId: string, callId: string) => `/v1/accounts/${accountId}/recordings/${callId}`;

/** The pieces the whole-call recording holds: all of them, cut at MAX_WHOLE_SECONDS. */
export function wholePieces(row: RecordingRow): { seconds: number }[] {
  let left = MAX_WHOLE_SECONDS;
  const out: { seconds: number }[] = [];
  for (const p of row.pieces) {
    if (left <= 0) break;
    out.push({ seconds: Math.min(p.seconds, left) });
    left -= p.seconds;
  }
  return out;
}

/** The whole-call recording's length: what the file, the webhook, transcripts and usage say. */
export function totalSeconds(row: RecordingRow): number {
  return wholePieces(row).reduce((n, p) => n + p.seconds, 0);
}

export function defaultScript(callId: string): ArtifactScript {
  return { id: callId, transcript: { failAt: null, failTimes: null, seconds: DEFAULT_TRANSCRIPT_SECONDS }, summary: { failedReason: null, seconds: DEFAULT_SUMMARY_SECONDS } };
}

/** A stable hash of a schema: keys sorted at every level, so key order does not change the version. */
export function schemaHash(schema: unknown): string {
  const canonical = (v: unknown): unknown =>
    v === null || typeof v !== 'object' ? v : Array.isArray(v) ? v.map(canonical) : Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])]));
  return createHash('sha256').update(JSON.stringify(canonical(schema))).digest('hex').slice(0, 12);
}
