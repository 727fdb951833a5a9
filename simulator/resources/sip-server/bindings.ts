// Registration bindings (RFC 3261 §10.3): one row per credential and contact, kept until its
// expiry on the virtual clock, when its clock job removes it. A binding's id is derived from the
// credential and the contact, so a refresh finds the same row and nothing draws from the seeded
// generator. Rows are the SIP server's snapshot part.
import { createHash } from '../../core/node-crypto.ts';
import { Table } from '../../core/store.ts';
import { iso } from '../../core/clock.ts';
import type { SipServerModelScope } from './ports.ts';
import type { BindingRow } from './schema.ts';

/** What a REGISTER asks to keep for one contact. */
export interface BindingInput {
  accountId: string;
  credentialId: string;
  username: string;
  aor: string;
  contact: string;
  callId: string;
  cseq: number;
  expires: number;
  transport: BindingRow['transport'];
  sourceAddress: string;
  sourcePort: number;
  userAgent: string | null;
}

export function bindingId(credentialId: string, contact: string): string {
  return `RB${createHash('sha256').update(`${credentialId} ${contact}`).digest('hex').slice(0, 32)}`;
}

export class Bindings {
  readonly rows = new Table<BindingRow>(); // maps a binding id to the contact a credential registered, until it expires

  constructor(private readonly scope: SipServerModelScope) {
    scope.jobs.on('sipServer.bindingExpires', ({ bindingId: id }) => {
      const row = this.rows.get(id);
      if (row && Date.parse(row.expiresAt) <= scope.clock.now()) this.rows.delete(id);
    });
  }

  /** The bindings of one login (a credential and its username: a WebRTC token's are its own), oldest first. */
  of(credentialId: string, username: string): BindingRow[] {
    return this.rows.all().filter((r) => r.credentialId === credentialId && r.username === username);
  }

  /** Creates or refreshes the binding; its expiry job replaces the previous one. */
  keep(input: BindingInput): BindingRow {
    const now = this.scope.clock.now();
    const id = bindingId(input.credentialId, input.contact);
    const current = this.rows.get(id);
    if (current) this.scope.jobs.cancel(current.jobId);
    const due = now + input.expires * 1000;
    const jobId = this.scope.jobs.schedule('sipServer.bindingExpires', due, { bindingId: id });
    const row: BindingRow = {
      id,
      ...input,
      expiresAt: iso(due),
      registeredAt: current?.registeredAt ?? iso(now),
      refreshedAt: iso(now),
      jobId,
    };
    return current ? this.rows.replace(row) : this.rows.insert(row);
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (!row) return;
    this.scope.jobs.cancel(row.jobId);
    this.rows.delete(id);
  }

  /** Seconds left before the binding expires (at least 0). */
  remaining(row: BindingRow): number {
    return Math.max(0, Math.ceil((Date.parse(row.expiresAt) - this.scope.clock.now()) / 1000));
  }
}
