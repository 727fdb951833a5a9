// The call-flow family: graphs of blocks that handle calls, the cloned-voice registry behind
// 403 call_flow_voice_forbidden, and the `callFlow` reference numbers route by. Behind its door:
// it needs the numbers routed to a flow and the account check (ports.ts); calls and call batches
// read flows through their own ports on its model (`find`), voice clones register their owners
// (`addVoiceOwners`); the runtime runs its snapshot part, its fixture part loads seed flows.
import { ownPart } from '../../core/table-state.ts';
import { defineFamily } from '../family.ts';
import { CallFlowsModel } from './model.ts';
import { operations } from './routes.ts';
import { operations as control } from './control.ts';
import { callFlowsFixture } from './fixture.ts';
import { examples } from './examples.ts';
import { needs } from './ports.ts';
import { CALL_FLOW_IDS } from './schema.ts';
import { CallFlowsStateSchema, type CallFlowsState } from './records.ts';

export const callFlows = defineFamily({
  key: 'callFlows',
  needs,
  create: (scope) => new CallFlowsModel(scope),
  state: ownPart<CallFlowsState, CallFlowsModel>(CallFlowsStateSchema),
  operations,
  examples,
  control,
  tags: {
    'Call flows': 'Graphs of blocks (deterministic automated response scripts) that handle calls: placed with CallFlowId, or routed to from a number (routingType callflow).',
  },
  idFormats: CALL_FLOW_IDS,
  refKinds: ['callFlow'],
  capabilities: ['call-flows'],
  fixture: callFlowsFixture,
});
