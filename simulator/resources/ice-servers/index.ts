// ICE servers for WebRTC clients (getIceServers): no state, no needs; the TURN credential is
// computed from the virtual clock and a documented secret (model.ts).
import { defineFamily } from '../family.ts';
import { IceServersModel } from './model.ts';
import { operations } from './routes.ts';
import { examples } from './examples.ts';

export const iceServers = defineFamily({
  key: 'iceServers',
  needs: {},
  create: (scope) => new IceServersModel(scope),
  operations,
  examples,
  tags: { WebRTC: 'STUN and TURN servers for browser phones (simulated: the credentials are real in form, no TURN server runs).' },
});
