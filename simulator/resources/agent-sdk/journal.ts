// The Agent SDK journal: what the simulator refused or ignored from customers' agents (bad JSON,
// unknown events, messages about calls that are not the connection's, oversized or malformed media,
// events it could not deliver), with the virtual time, account, number and call. Bounded (the
// newest JOURNAL_SIZE entries), shown by /_sim/agent-sdk/journal and the inspector.

export const JOURNAL_SIZE = 1000;

export interface JournalEntry {
  at: string;
  accountId: string;
  number: string | null;
  callId: string | null;
  message: string;
}

export class AgentJournal {
  private readonly entries: JournalEntry[] = [];

  add(at: string, accountId: string, message: string, callId?: string, number?: string): void {
    this.entries.push({ at, accountId, number: number ?? null, callId: callId ?? null, message });
    if (this.entries.length > JOURNAL_SIZE) this.entries.shift();
  }

  /** Entries in order, optionally of one account and call. */
  list(filter: { accountId?: string; callId?: string } = {}): JournalEntry[] {
    return this.entries.filter((e) => (!filter.accountId || e.accountId === filter.accountId) && (!filter.callId || e.callId === filter.callId));
  }

  clear(): void {
    this.entries.length = 0;
  }
}
