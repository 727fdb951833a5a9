// What the fake identity provider needs from the rest of the house (core/scope.ts): nothing but
// the kernel's clock and seeded random. The assignment links' issuing sessions start and read
// verifications through a port they declare.
import type { ModelScope } from '../../core/scope.ts';

export const needs = {};

/** What the provider is built from. */
export type KycModelScope = ModelScope<typeof needs>;
