// What the calls leave for others to read: the usage meters of real calls (connected seconds by
// direction, transferred seconds, one machine-detection invocation per answered call with
// detection) and the phone view of the carrier (the answered calls a phone took part in).
import type { Table } from '../../core/store.ts';
import type { PhoneCall } from '../../peers/carrier/schema.ts';
import type { UsageEntry } from '../usage/schema.ts';
import { billableSeconds } from './transfers.ts';
import type { CallRow } from './schema.ts';

/** The account's usage entries from its calls; `linkIdOf` is the assignment link its number came through. */
export function usageEntries(calls: readonly CallRow[], accountId: string, linkIdOf: (accountId: string, number: string) => string | null): UsageEntry[] {
  const out: UsageEntry[] = [];
  for (const r of calls) {
    if (r.accountId !== accountId || r.dateUpdated === null) continue;
    const own = r.direction === 'outbound' ? r.from : r.to;
    const linkId = linkIdOf(accountId, own);
    if (r.duration !== null && r.duration > 0) {
      out.push({ meter: r.direction === 'outbound' ? 'outbound_seconds' : 'inbound_seconds', quantity: r.duration, at: r.dateUpdated, phoneNumber: own, linkId });
    }
    if (r.machineDetection !== null && r.answeredAt !== null) out.push({ meter: 'amd_invocations', quantity: 1, at: r.answeredAt, phoneNumber: own, linkId });
    const transferred = billableSeconds(r.transfers ?? []);
    if (transferred > 0) out.push({ meter: 'transfer_seconds', quantity: transferred, at: r.dateUpdated, phoneNumber: own, linkId });
  }
  return out;
}

/** Answered calls the phone at `number` took part in, from the newest (the carrier's phone view). */
export function phoneCalls(calls: Table<CallRow>, number: string): PhoneCall[] {
  return calls
    .newestFirst((r) => r.answeredAt !== null && (r.direction === 'outbound' ? r.to === number : r.from === number))
    .map((r) => ({
      callId: r.id,
      direction: r.direction,
      from: r.from,
      to: r.to,
      heard: [...r.heard],
      entered: [...r.entered],
      prompts: r.prompts.map((p) => ({ ...p })),
      answeredAt: r.answeredAt!,
      ...(r.conversation ? { conversation: r.conversation.map((t) => ({ speaker: t.speaker, text: t.text, startMs: t.startMs, endMs: t.endMs, dtmf: t.detail.dtmf ?? null })) } : {}),
    }));
}
