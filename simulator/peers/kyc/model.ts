// Fake identity-verification provider (the end user's KYC check behind an assignment link; the
// real service uses a hosted provider page and checks the result after the redirect back). A
// verification is started for a link, the person completes or abandons it on the provider's page
// (served by the simulator, or completed through the control plane), and the session asks the
// provider for the result. Tests script it (docs/control-plane.md, "Identity verification"):
// the next result (name or age mismatch, abandoned), a provider error, a rate limit. The runtime
// validates a snapshot's part before `restore` reads it.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError, defineError } from '../../core/errors.ts';
import { iso } from '../../core/clock.ts';
import { newId, type IdFormat } from '../../core/ids.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import type { KycModelScope } from './ports.ts';

export const KYC_IDS = {
  identityVerification: { prefix: 'identity-verification-', hex: 24 },
} as const satisfies Record<string, IdFormat>;

export const KYC_RESULTS = ['verified', 'name_mismatch', 'age_mismatch', 'abandoned'] as const;
export type KycResult = (typeof KYC_RESULTS)[number];
export const KYC_FAILURES = ['none', 'provider_error', 'rate_limited'] as const;
export type KycFailure = (typeof KYC_FAILURES)[number];

/** The provider refuses people younger than this (a telecom subscription needs an adult or a guardian). */
export const MINIMUM_AGE = 14;

export const KycVerificationSchema = Type.Object(
  {
    id: Type.String(),
    linkId: Type.String({ description: 'The assignment link the verification is bound to.' }),
    status: StringEnum(['pending', ...KYC_RESULTS], { description: 'pending until the person finishes on the provider page.' }),
    name: Nullable(Type.String()),
    birthDate: Nullable(Type.String({ format: 'date' })),
    startedAt: DateTime(),
    completedAt: Nullable(DateTime()),
  },
  { $id: 'SimKycVerification', additionalProperties: false },
);
export type KycVerification = Static<typeof KycVerificationSchema>;

export const KycStateSchema = Type.Object(
  {
    verifications: Type.Array(KycVerificationSchema),
    failure: StringEnum(KYC_FAILURES),
    nextResult: Nullable(StringEnum(KYC_RESULTS)),
  },
  { additionalProperties: false },
);
export type KycState = Static<typeof KycStateSchema>;

export const kycErrors = {
  VERIFICATION_NOT_FOUND: defineError({
    code: 'KYC_VERIFICATION_NOT_FOUND', status: 404, origin: 'simulator',
    description: 'No identity verification has this id (fake provider page and control plane).',
  }),
  ALREADY_COMPLETED: defineError({
    code: 'KYC_ALREADY_COMPLETED', status: 409, origin: 'simulator',
    description: 'The identity verification was already completed or abandoned; start another.',
  }),
};

export class FakeIdentityProvider {
  private verifications = new Map<string, KycVerification>(); // maps a verification id to its record
  failure: KycFailure = 'none'; // a scripted provider failure, until set back to none
  nextResult: KycResult | null = null; // overrides the outcome of the next completion, then clears

  constructor(private readonly rt: KycModelScope) {}

  clear(): void {
    this.verifications = new Map();
    this.failure = 'none';
    this.nextResult = null;
  }

  snapshot(): KycState {
    return { verifications: [...this.verifications.values()].map((v) => ({ ...v })), failure: this.failure, nextResult: this.nextResult };
  }

  restore(s: KycState): void {
    this.verifications = new Map(s.verifications.map((v) => [v.id, { ...v }]));
    this.failure = s.failure;
    this.nextResult = s.nextResult;
  }

  get(id: string): KycVerification | undefined {
    const v = this.verifications.get(id);
    return v && { ...v };
  }

  require(id: string): KycVerification {
    const v = this.get(id);
    if (!v) throw kycErrors.VERIFICATION_NOT_FOUND(`no identity verification ${id}`);
    return v;
  }

  /** Whether the provider takes calls now; 'rate_limited' and 'provider_error' are scripted. */
  available(): KycFailure {
    return this.failure;
  }

  /** Starts a verification bound to a link; the person completes it on the provider's page. */
  start(linkId: string): KycVerification {
    const v: KycVerification = {
      id: newId(this.rt.random, KYC_IDS.identityVerification),
      linkId,
      status: 'pending',
      name: null,
      birthDate: null,
      startedAt: this.rt.clock.nowIso(),
      completedAt: null,
    };
    this.verifications.set(v.id, v);
    return { ...v };
  }

  /**
   * The person finishes on the provider page: verified with their name and birth date, unless
   * the name check fails (scripted), they are under MINIMUM_AGE, or they cancel ('abandoned').
   */
  complete(id: string, input: { result?: KycResult; name?: string; birthDate?: string }): KycVerification {
    const v = this.require(id);
    if (v.status !== 'pending') throw kycErrors.ALREADY_COMPLETED(`identity verification ${id} is already ${v.status}`);
    let result: KycResult = this.nextResult ?? input.result ?? 'verified';
    const name = input.name?.trim() ?? '';
    const birthDate = input.birthDate ?? '';
    if (result !== 'abandoned') {
      if (name === '' || name.length > 50) throw ApiError.validation('name must be 1 to 50 characters', [{ path: 'name', message: '1 to 50 characters' }]);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || Number.isNaN(Date.parse(`${birthDate}T00:00:00Z`))) {
        throw ApiError.validation('birthDate must be a date (YYYY-MM-DD)', [{ path: 'birthDate', message: 'YYYY-MM-DD' }]);
      }
      if (result === 'verified' && ageOn(birthDate, this.rt.clock.nowIso()) < MINIMUM_AGE) result = 'age_mismatch';
    }
    this.nextResult = null;
    const done: KycVerification = {
      ...v,
      status: result,
      name: result === 'abandoned' ? null : name,
      birthDate: result === 'abandoned' ? null : birthDate,
      completedAt: iso(this.rt.clock.now()),
    };
    this.verifications.set(id, done);
    return { ...done };
  }

  list(): KycVerification[] {
    return [...this.verifications.values()].map((v) => ({ ...v }));
  }
}

/** Whole years between a birth date and an instant (UTC). */
export function ageOn(birthDate: string, instant: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [y, m, d] = instant.slice(0, 10).split('-').map(Number) as [number, number, number];
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
