// What the fake messenger needs from the rest of the house (core/scope.ts): nothing but the
// kernel's clock (token expiry and cooldown) and seeded random (the tokens). The messenger-channel
// family reaches it through a port it declares.
import type { ModelScope } from '../../core/scope.ts';

export const needs = {};

/** What the model is built from. */
export type MessengerModelScope = ModelScope<typeof needs>;
