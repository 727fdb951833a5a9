// The fake messenger, a peer behind its door: the business channels at the messenger, its
// failure mode and the tokens it sent, scripted through its /_sim routes (control.ts) and seeded
// by its fixture section; the messenger-channel family connects accounts to its channels. The
// runtime validates a snapshot's part against its schema before the model takes it back.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { FakeMessenger, MessengerStateSchema, type MessengerState } from './model.ts';
import { operations as control } from './control.ts';
import { messengerFixture } from './fixture.ts';
import { needs } from './ports.ts';

export const messenger = defineFamily({
  key: 'messenger',
  needs,
  create: (scope) => new FakeMessenger(scope),
  state: ownPart<MessengerState, FakeMessenger>(MessengerStateSchema),
  control,
  capabilities: ['messenger'],
  fixture: messengerFixture,
});
