// The nonces the SIP server hands out in its challenges, and the rule that keeps a captured
// answer from being replayed (RFC 7616 §3.3, §5.12): a nonce is good for its realm for
// NONCE_LIFETIME_MS of virtual time; with qop each use must raise the nonce count `nc`; without
// qop a nonce is good once. A nonce is an HMAC of a counter under a key derived from the seed,
// so the same run gives the same nonces without drawing from the seeded generator. The book is
// transaction state of live sockets, not part of a snapshot; it holds at most CAPACITY nonces
// (the oldest go first), so a flood of unanswered challenges cannot grow it.
import { createHmac } from '../../core/node-crypto.ts';

export const NONCE_LIFETIME_MS = 300_000;
const CAPACITY = 10_000;

interface Issued {
  realm: string;
  issuedAt: number;
  /** The highest nc used so far (0: never used). */
  lastNc: number;
}

/** `ok`, or why a nonce cannot be used now: the client should retry with a fresh one (stale=true). */
export type NonceVerdict = 'ok' | 'unknown' | 'expired' | 'replayed';

export class NonceBook {
  private readonly issued = new Map<string, Issued>();
  private counter = 0;

  constructor(private readonly key: () => string) {}

  issue(realm: string, now: number): string {
    this.counter++;
    const nonce = createHmac('sha256', this.key()).update(`nonce:${this.counter}`).digest('hex').slice(0, 32);
    this.issued.set(nonce, { realm, issuedAt: now, lastNc: 0 });
    if (this.issued.size > CAPACITY) this.issued.delete(this.issued.keys().next().value!);
    return nonce;
  }

  /** Checks a use of the nonce and, when it is good, records it (`nc` is the client's count, undefined without qop). */
  use(nonce: string, realm: string, nc: string | undefined, now: number): NonceVerdict {
    const row = this.issued.get(nonce);
    if (!row || row.realm !== realm) return 'unknown';
    if (now - row.issuedAt > NONCE_LIFETIME_MS) {
      this.issued.delete(nonce);
      return 'expired';
    }
    const count = nc === undefined ? 1 : parseInt(nc, 16);
    if (nc === undefined ? row.lastNc > 0 : count <= row.lastNc) return 'replayed';
    row.lastNc = count;
    return 'ok';
  }

  clear(): void {
    this.issued.clear();
    this.counter = 0;
  }
}
