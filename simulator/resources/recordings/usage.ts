// The recordings family's usage meters: transcription and summarisation seconds, the recording's
// length, once per completed transcript and summary, on the number the call used (and the
// assignment link it came through, usage rule 7).
import type { Table } from '../../core/store.ts';
import type { UsageEntry } from '../usage/schema.ts';
import type { RecordingRow, SummaryRow, TranscriptRow } from './schema.ts';

interface ArtifactTables {
  readonly recordings: Table<RecordingRow>;
  readonly transcripts: Table<TranscriptRow>;
  readonly summaries: Table<SummaryRow>;
}

export function artifactUsage(m: ArtifactTables, accountId: string, linkIdOf: (accountId: string, number: string) => string | null): UsageEntry[] {
  const out: UsageEntry[] = [];
  const entry = (meter: UsageEntry['meter'], callId: string, quantity: number, at: string) => {
    const rec = m.recordings.get(callId);
    const phoneNumber = rec?.phoneNumber ?? null;
    out.push({ meter, quantity, at, phoneNumber, linkId: phoneNumber === null ? null : linkIdOf(accountId, phoneNumber) });
  };
  for (const t of m.transcripts.all()) {
    if (t.accountId === accountId && t.status === 'completed') entry('transcription_seconds', t.id, t.audioSeconds, t.finishedAt!);
  }
  for (const s of m.summaries.all()) {
    if (s.accountId === accountId && s.status === 'completed') entry('summary_seconds', s.id, s.audioSeconds, s.updatedAt!);
  }
  return out;
}
