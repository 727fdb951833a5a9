// Opaque identifiers (spec Conventions 3), drawn from the seeded generator so that the same
// seed and the same requests give the same ids. Each kind has its own prefix.
import type { SeededRandom } from './random.ts';

export const ID_FORMATS = {
  account: { prefix: 'AC', hex: 8 },
  apiKey: { prefix: 'sk_test_', hex: 32 },
  blockedCaller: { prefix: 'bc_', hex: 24 },
  blockedRecipient: { prefix: 'blk_', hex: 24 },
  message: { prefix: 'MG', hex: 32 },
  call: { prefix: 'CA', hex: 32 },
  verification: { prefix: 'VE', hex: 32 },
  kakaoTemplate: { prefix: 'KA01TP', hex: 26 },
  kakaoChannel: { prefix: 'kch_', hex: 24 },
  emailDomain: { prefix: 'ed_', hex: 24 },
  webhook: { prefix: 'WH', hex: 16 },
  sipEndpoint: { prefix: 'SE', hex: 16 },
  sipRoute: { prefix: 'SR', hex: 16 },
  sipIpAcl: { prefix: 'SA', hex: 32 },
  sipCredential: { prefix: 'SC', hex: 32 },
  webrtcToken: { prefix: 'WT', hex: 32 },
  callFlow: { prefix: 'CF', hex: 12 },
} as const satisfies Record<string, { prefix: string; hex: number }>;

export type IdKind = keyof typeof ID_FORMATS;

export function newId(random: SeededRandom, kind: IdKind | { prefix: string; hex: number }): string {
  const f = typeof kind === 'string' ? ID_FORMATS[kind] : kind;
  return f.prefix + random.hex(f.hex);
}

/** A new id of `kind` that `taken` does not already hold (collisions are rare, but cheap to rule out). */
export function freshId(random: SeededRandom, kind: IdKind, taken: (id: string) => boolean): string {
  for (;;) {
    const id = newId(random, kind);
    if (!taken(id)) return id;
  }
}
