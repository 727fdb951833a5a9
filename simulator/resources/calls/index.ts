// The calls family: outbound calls placed through the API, inbound calls from the carrier's
// phones, their progression on the virtual clock and the flow interpreter that runs them. It
// reads call flows through the call-flows family's `find` port and hands calls to the carrier
// under the owner `call`.
import type { Family } from '../family.ts';
import { CallsModel } from './model.ts';
import { operations } from './routes.ts';
import { liveOperations } from './live-routes.ts';
import { CALL_IDS } from './schema.ts';
import { callEvents } from './events.ts';
import { operations as control } from '../../control/calls.ts';
import { operations as transferControl } from '../../control/call-transfers.ts';
import { examples } from './examples.ts';

export const calls: Family<'calls', CallsModel> = {
  key: 'calls',
  create: (rt) => {
    const model = new CallsModel(rt);
    model.flows = rt.callFlows;
    // SIP transfer legs go through the account's active routes of active endpoints.
    model.legs.sip = {
      routes: (accountId) => rt.sipEndpoints.listFor(accountId, 'active').flatMap((e) => rt.sipEndpoints.routesOf(e.id).filter((r) => r.status === 'active').map((r) => r.uri)),
    };
    model.connectStatusCallbacks();
    return model;
  },
  operations: [...operations, ...liveOperations],
  examples,
  control: [...control, ...transferControl],
  tags: {
    Calls: 'Voice calls, outbound and inbound: status on the virtual clock, hang-up, transfer legs, the call\'s events, announcements into a connected call, and the call flow that runs them.',
  },
  idFormats: CALL_IDS,
  capabilities: ['phone-calls', 'call-walks', 'call-transfers', 'voiceml'],
  carrierOwners: ['call'],
  events: callEvents,
};
