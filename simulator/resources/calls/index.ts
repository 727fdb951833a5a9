// The calls family: outbound calls placed through the API, inbound calls from the carrier's
// phones, their progression on the virtual clock, the flow interpreter and the VoiceML walker
// that run them, transfer legs, and the seam other families hand calls to (handlers.ts). Behind
// its door: its ports, events and clock jobs are declared in ports.ts and events.ts; it hands
// calls to the carrier under the owner `call`; recordings and call batches follow calls through
// its internal events (`call.recorded`, `call.ended`), so calls need neither. The runtime runs its
// snapshot part.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { CallsModel } from './model.ts';
import { operations } from './routes.ts';
import { liveOperations } from './live-routes.ts';
import { operations as control } from './control.ts';
import { operations as transferControl } from './transfer-control.ts';
import { operations as inboundControl } from './inbound-control.ts';
import { jobs, needs } from './ports.ts';
import { callEvents } from './events.ts';
import { examples } from './examples.ts';
import { CALL_IDS, CallsStateSchema, type CallsState } from './schema.ts';

export const calls = defineFamily({
  key: 'calls',
  needs,
  events: callEvents,
  jobs,
  create: (scope) => new CallsModel(scope),
  state: ownPart<CallsState, CallsModel>(CallsStateSchema, { hold: (m) => m.hold(), copiesInput: true, snapshotsCopy: true }),
  operations: [...operations, ...liveOperations],
  examples,
  control: [...control, ...transferControl, ...inboundControl],
  tags: {
    Calls: 'Voice calls, outbound and inbound: status on the virtual clock, hang-up, transfer legs, the call\'s events, announcements into a connected call, and the call flow that runs them.',
  },
  idFormats: CALL_IDS,
  capabilities: ['phone-calls', 'call-walks', 'call-transfers', 'voiceml'],
  carrierOwners: ['call'],
});
