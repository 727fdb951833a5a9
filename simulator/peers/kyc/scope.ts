// The scope the fake identity provider's control routes see (core/scope.ts): the provider as
// `kyc`; and the definer of its operations.
import { scopedOperations } from '../../core/operation.ts';
import type { HandlerScope } from '../../core/scope.ts';
import type { FakeIdentityProvider } from './model.ts';
import type { needs } from './ports.ts';

export type KycScope = HandlerScope<'kyc', FakeIdentityProvider, typeof needs>;

export const operation = scopedOperations<KycScope>();
