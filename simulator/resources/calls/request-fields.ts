// The form fields every request the platform makes about a call starts with: VoiceML fetches
// and the number's callContextUrl request (docs/decisions.md "VoiceML", "Managed agents").
import type { CallRow } from './schema.ts';

export function callRequestFields(row: CallRow): [string, string][] {
  return [
    ['CallId', row.id],
    ['AccountId', row.accountId],
    ['From', row.from],
    ['To', row.to],
    ['Direction', row.direction],
  ];
}
