// The Agent SDK's /_sim routes (docs/control-plane.md "Agent SDK"): the open control connections,
// one SDK call as the inspector shows it, and the journal of what the simulator refused or
// ignored from agents. Read-only views of live sockets (capability `agent-sdk`).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { defineError } from '../../core/errors.ts';
import { connectionView, sdkCallView } from './views.ts';

const TAG = 'Control plane';

export const sdkControlErrors = {
  SDK_CALL_NOT_FOUND: defineError({
    code: 'sdk_call_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no Agent SDK call with this id in this process (SDK calls are live: they are not in snapshots).',
  }),
};

const Any = Type.Unknown();

export const operations = [
  operation({
    operationId: 'simListAgentConnections',
    method: 'GET',
    path: '/_sim/agent-sdk/connections',
    tag: TAG,
    summary: 'Open Agent SDK control connections',
    description: 'Every open control socket: id, account, number, role (owner, retiring, retired), when it opened, the agent.hello it sent (SDK name, version, runtime, os, capabilities) and the calls it holds.',
    origin: 'simulator',
    auth: 'control',
    responses: { 200: { description: 'The connections, oldest first.', schema: Type.Object({ data: Type.Array(Any) }, { $id: 'SimAgentConnections' }) } },
    handler: ({ scope }) => reply.ok({ data: [...scope.agentSdk.slots.peers.values()].map(connectionView) }),
  }),
  operation({
    operationId: 'simGetAgentSdkCall',
    method: 'GET',
    path: '/_sim/agent-sdk/calls/{callId}',
    tag: TAG,
    summary: 'One Agent SDK call: control events, media statistics, hello, transfers, response latency',
    description: 'The control events exchanged for the call in order (virtual times), its media statistics (frames each way, marks, clears, DTMF, refusals), the connection that holds it with its hello, its transfer requests, telemetry and metrics counts, and per phone turn the agent\'s response latency in wall milliseconds (observational, never in a record).',
    origin: 'simulator',
    auth: 'control',
    params: { callId: Type.String() },
    responses: { 200: { description: 'The call.', schema: Type.Object({}, { $id: 'SimAgentSdkCall', additionalProperties: true }) } },
    errors: [sdkControlErrors.SDK_CALL_NOT_FOUND],
    handler: ({ scope, params }) => {
      const call = scope.agentSdk.calls.calls.get(params.callId);
      if (!call) throw sdkControlErrors.SDK_CALL_NOT_FOUND(`no Agent SDK call ${params.callId}`);
      return reply.ok(sdkCallView(call, (ms) => scope.agentSdk.iso(ms)));
    },
  }),
  operation({
    operationId: 'simAgentSdkJournal',
    method: 'GET',
    path: '/_sim/agent-sdk/journal',
    tag: TAG,
    summary: 'What the simulator refused or ignored from agents',
    description: 'Malformed JSON, unknown events, messages about calls that are not the connection\'s, refused media, events that could not be delivered: the newest 1,000 entries, oldest first; `accountId` and `callId` filter.',
    origin: 'simulator',
    auth: 'control',
    query: { accountId: Type.String({ description: 'Only this account.' }), callId: Type.String({ description: 'Only this call.' }) },
    responses: { 200: { description: 'The entries.', schema: Type.Object({ data: Type.Array(Any) }, { $id: 'SimAgentSdkJournal' }) } },
    handler: ({ scope, query }) => reply.ok({ data: scope.agentSdk.journal.list(query) }),
  }),
];
