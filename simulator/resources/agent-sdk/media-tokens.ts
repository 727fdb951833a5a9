// One-time media tokens (Agent SDK protocol §3.1): issued with `call.incoming` or
// `call.outbound_ready`, valid 30 s on the virtual clock, deleted on first use (replay protection).
// A refused token says why (unknown, already used, expired, for another call), so the upgrade's
// refusal can name it. Tokens come from the seeded generator: the same seed gives the same URLs.

export const MEDIA_TOKEN_TTL_MS = 30_000;
/** Used tokens remembered to tell "already used" from "unknown" (oldest forgotten first). */
const USED_MEMORY = 10_000;

export type Redeemed = { ok: true; accountId: string } | { ok: false; why: 'unknown' | 'used' | 'expired' | 'other-call' };

interface Issued {
  callId: string;
  accountId: string;
  expiresAt: number;
}

export class MediaTokens {
  private readonly live = new Map<string, Issued>();
  private readonly used = new Set<string>();

  /** A fresh token for the call, valid until now + 30 s. */
  issue(callId: string, accountId: string, nowMs: number, randomHex: (chars: number) => string): string {
    let token = randomHex(40);
    while (this.live.has(token) || this.used.has(token)) token = randomHex(40);
    this.live.set(token, { callId, accountId, expiresAt: nowMs + MEDIA_TOKEN_TTL_MS });
    return token;
  }

  /** The account of a live token, without using it (a request with another account's key must not burn it). */
  accountOf(token: string): string | undefined {
    return this.live.get(token)?.accountId;
  }

  /** Uses the token for the call: valid once, within its 30 s. */
  redeem(token: string, callId: string, nowMs: number): Redeemed {
    const t = this.live.get(token);
    if (!t) return { ok: false, why: this.used.has(token) ? 'used' : 'unknown' };
    if (t.callId !== callId) return { ok: false, why: 'other-call' };
    this.live.delete(token);
    this.remember(token);
    if (nowMs > t.expiresAt) return { ok: false, why: 'expired' };
    return { ok: true, accountId: t.accountId };
  }

  /** Forgets the call's unused tokens (the call ended). */
  revoke(callId: string): void {
    for (const [token, t] of this.live) if (t.callId === callId) this.live.delete(token);
  }

  private remember(token: string): void {
    this.used.add(token);
    if (this.used.size > USED_MEMORY) this.used.delete(this.used.values().next().value!);
  }
}
