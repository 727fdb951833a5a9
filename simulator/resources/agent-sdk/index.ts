// The Agent SDK family ("bring your own agent", docs/agent-sdk.md): the customer's own agent
// runtime holds a control WebSocket per number and opens a media WebSocket per call, on the HTTP
// port. Behind its door: it needs accounts (keys), numbers (owners) and the live clock (ports.ts),
// emits agent.connected / agent.disconnected, schedules its two call timers, keeps no state, and
// serves its two WebSocket endpoints as upgrade routes and a section of the inspector's call view.
import { defineFamily } from '../family.ts';
import { header } from '../../core/operation.ts';
import { AgentSdk, agentSdkState, wireAgentSdk } from './family-model.ts';
import { operations as control } from './control.ts';
import { SDK_CALL_SECTION_SCRIPT } from './inspector.ts';
import { events, jobs, needs } from './ports.ts';
import type { AgentSdkScope } from './scope.ts';

const bearerOf = (value: string | undefined): string | undefined => (value === undefined ? undefined : (/^Bearer[ ]+(\S+)\s*$/i.exec(value)?.[1] ?? ''));

export const agentSdk = defineFamily({
  key: 'agentSdk',
  needs,
  events,
  jobs,
  create: (scope) => new AgentSdk(scope),
  wire: wireAgentSdk,
  state: agentSdkState,
  control,
  capabilities: ['agent-sdk'],
  inspectorSections: [SDK_CALL_SECTION_SCRIPT],
  upgrades: [
    {
      path: '/v1/accounts/{accountId}/agent/listen',
      summary: 'The control socket of an agent runtime for one number',
      upgrade: (scope: AgentSdkScope, req, params, query) =>
        scope.agentSdk.control(params.accountId!, query, bearerOf(header(req, 'authorization')), `ws://${header(req, 'host') ?? '127.0.0.1'}`),
    },
    {
      path: '/v1/agent/media/{callId}',
      summary: 'The media socket of one Agent SDK call',
      upgrade: (scope: AgentSdkScope, req, params, query) => scope.agentSdk.media(params.callId!, query, bearerOf(header(req, 'authorization'))),
    },
  ],
});
