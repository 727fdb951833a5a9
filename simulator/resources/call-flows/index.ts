// The call-flow family: graphs of blocks that handle calls, the cloned-voice registry behind
// 403 call_flow_voice_forbidden, and the `callFlow` reference numbers route by. Other families
// (calls) read flows through the model's `find` port.
import type { Family } from '../family.ts';
import { CallFlowsModel } from './model.ts';
import { operations } from './routes.ts';
import { CALL_FLOW_IDS } from './schema.ts';
import { operations as control } from '../../control/call-flows.ts';
import { callFlowsFixture } from './fixture.ts';
import { examples } from './examples.ts';

export const callFlows: Family<'callFlows', CallFlowsModel, 'callFlow'> = {
  key: 'callFlows',
  create: (rt) =>
    new CallFlowsModel({
      clock: rt.clock,
      random: () => rt.random,
      refs: rt.refs,
      // The numbers family's routing, read here so the model never touches its tables.
      routedNumbers: (accountId, callFlowId) =>
        rt.numbers.numbers
          .all()
          .filter((n) => n.accountId === accountId && n.routingType === 'callflow' && n.callFlowId === callFlowId)
          .map((n) => n.id)
          .sort(),
    }),
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
};
