// Each account's webhook signing key (spec Authentication 8). Until the control plane rotates
// or sets it, an account's key is derived from the seed and the account id alone, so it does
// not depend on the order of requests: the same seed always gives a customer's app the same
// key. Keys never appear in API answers, logs or the journal; only the control plane reads them.
import { SeededRandom, textSeed } from '../../core/random.ts';
import type { SigningKeyRow } from './schema.ts';

export const SIGNING_KEY_PREFIX = 'whsec_';

export class SigningKeys {
  private keys = new Map<string, string>(); // maps an accountId to a rotated, set or restored key

  constructor(private readonly seed: () => number) {}

  /** The account's current key. */
  get(accountId: string): string {
    return this.keys.get(accountId) ?? SIGNING_KEY_PREFIX + new SeededRandom(textSeed(`${this.seed()}:${accountId}`)).hex(32);
  }

  set(accountId: string, key: string): string {
    this.keys.set(accountId, key);
    return key;
  }

  /** A fresh key from the simulator's generator (deterministic for the same requests). */
  rotate(accountId: string, random: SeededRandom): string {
    return this.set(accountId, SIGNING_KEY_PREFIX + random.hex(32));
  }

  clear(): void {
    this.keys = new Map();
  }

  /** Every listed account's current key, so a snapshot carries the keys themselves. */
  snapshot(accountIds: readonly string[]): SigningKeyRow[] {
    return accountIds.map((accountId) => ({ accountId, signingKey: this.get(accountId) }));
  }

  restore(rows: readonly SigningKeyRow[]): void {
    this.keys = new Map(rows.map((r) => [r.accountId, r.signingKey]));
  }
}
