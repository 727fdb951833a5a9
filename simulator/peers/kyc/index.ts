// The fake identity provider, a peer behind its door: the end user's identity check behind an
// assignment link, scripted through its /_sim routes (control.ts). It needs nobody: the
// assignment links' sessions start and read its verifications through a port they declare,
// and the runtime validates a snapshot's part before the model reads it back.
import { nothingToWire } from '../../core/first-use.ts';
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { FakeIdentityProvider, KYC_IDS, KycStateSchema, type KycState } from './model.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';

export const kyc = defineFamily({
  key: 'kyc',
  needs,
  create: (scope) => new FakeIdentityProvider(scope),
  wire: nothingToWire, // built on first use (decisions.md "Models built on first use")
  state: ownPart<KycState, FakeIdentityProvider>(KycStateSchema),
  control,
  idFormats: KYC_IDS,
  capabilities: ['kyc'],
});
