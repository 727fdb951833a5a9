// The fake image host, a peer behind its door: the web servers an MMS image URL points at,
// scripted per URL through its /_sim routes (control.ts) and downloaded from by the messages'
// sends. Its state is the scripts; the runtime validates a snapshot's part against its schema
// before the model completes each script back in.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../../resources/family.ts';
import { FakeImageHost, ImageHostStateSchema, type ImageHostState } from './model.ts';
import { operations as control } from './control.ts';
import { needs } from './ports.ts';

export const imageHost = defineFamily({
  key: 'imageHost',
  needs,
  create: () => new FakeImageHost(),
  state: ownPart<ImageHostState, FakeImageHost>(ImageHostStateSchema),
  control,
  capabilities: ['images'],
});
