// The call flows' /_sim routes (docs/control-plane.md): who registered (cloned) a paid voice id, and the stored form of a
// flow as the console or an old schema would have left it (a graph the current schema cannot
// read, canvas coordinates the public API never carries).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { StringEnum } from '../../core/schema.ts';
import { accountErrors } from '../accounts/errors.ts';
import { callFlowErrors } from './errors.ts';
import { operation } from './scope.ts';
import { PROVIDER_ALIASES, VOICE_PROVIDERS, type VoiceProvider } from './schema.ts';
import { type CallFlowRow } from './records.ts';

const TAG = 'Control plane';
const accountParam = { accountId: Type.String() };
const flowParam = { ...accountParam, callFlowId: Type.String() };

const RegisterVoiceBody = Type.Object(
  {
    provider: StringEnum([...VOICE_PROVIDERS, ...Object.keys(PROVIDER_ALIASES)], { description: 'Paid provider; the spec\'s placeholders are accepted.' }),
    voiceId: Type.String({ minLength: 1, maxLength: 100 }),
  },
  { $id: 'SimRegisterVoiceRequest', additionalProperties: false },
);
const VoiceOwnerWire = Type.Object(
  { provider: StringEnum(VOICE_PROVIDERS), voiceId: Type.String(), accountId: Type.String() },
  { $id: 'SimVoiceOwner', additionalProperties: false },
);
const StoredFlowBody = Type.Object(
  {
    graph: Type.Optional(Type.Unknown({ description: 'Any JSON, stored as is (no checks): an unreadable graph makes the API answer graph null.' })),
    canvas: Type.Optional(Type.Unknown({ description: 'Console canvas coordinates: kept by PATCH, cleared by PUT, never returned by the API.' })),
  },
  { $id: 'SimStoredCallFlowRequest', additionalProperties: false },
);
const StoredFlowWire = Type.Object(
  { callFlowId: Type.String(), graph: Type.Unknown(), canvas: Type.Unknown(), readable: Type.Boolean({ description: 'Whether the current schema reads the stored graph.' }) },
  { $id: 'SimStoredCallFlow', additionalProperties: false },
);

export const operations = [
  operation({
    operationId: 'simRegisterVoice',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/voices',
    tag: TAG,
    summary: 'Register a cloned voice id as this account\'s',
    description: 'Afterwards a call-flow graph of any other account that names this provider and voice id is refused with 403 call_flow_voice_forbidden.',
    origin: 'simulator',
    auth: 'control',
    params: accountParam,
    body: RegisterVoiceBody,
    bodyRequired: true,
    responses: { 201: { description: 'The registration.', schema: VoiceOwnerWire } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.accounts.require(params.accountId);
      const provider = (PROVIDER_ALIASES[body.provider] ?? body.provider) as VoiceProvider;
      return reply.created(scope.callFlows.registerVoice(params.accountId, provider, body.voiceId));
    },
  }),
  operation({
    operationId: 'simGetStoredCallFlow',
    method: 'GET',
    path: '/_sim/accounts/{accountId}/call-flows/{callFlowId}/stored',
    tag: TAG,
    summary: 'A call flow as stored (raw graph and canvas)',
    origin: 'simulator',
    auth: 'control',
    params: flowParam,
    responses: { 200: { description: 'The stored form.', schema: StoredFlowWire } },
    errors: [callFlowErrors.NOT_FOUND],
    handler: ({ scope, params }) => reply.ok(storedWire(scope.callFlows.get(params.accountId, params.callFlowId), scope.callFlows.view.bind(scope.callFlows))),
  }),
  operation({
    operationId: 'simPlantStoredCallFlow',
    method: 'PUT',
    path: '/_sim/accounts/{accountId}/call-flows/{callFlowId}/stored',
    tag: TAG,
    summary: 'Overwrite a flow\'s stored graph and/or canvas',
    description: 'Plants what an old schema or the console would have stored: any JSON as the graph (the API then answers graph null if the current schema cannot read it), canvas coordinates. Nothing else changes, dateUpdated included.',
    origin: 'simulator',
    auth: 'control',
    params: flowParam,
    body: StoredFlowBody,
    bodyRequired: true,
    responses: { 200: { description: 'The stored form.', schema: StoredFlowWire } },
    errors: [callFlowErrors.NOT_FOUND],
    handler: ({ scope, params, body }) => {
      scope.callFlows.get(params.accountId, params.callFlowId);
      if ('graph' in body) scope.callFlows.plantGraph(params.callFlowId, body.graph);
      if ('canvas' in body) scope.callFlows.setCanvas(params.callFlowId, body.canvas);
      return reply.ok(storedWire(scope.callFlows.get(params.accountId, params.callFlowId), scope.callFlows.view.bind(scope.callFlows)));
    },
  }),
];

function storedWire(row: CallFlowRow, view: (row: CallFlowRow) => { graph: unknown }) {
  return { callFlowId: row.id, graph: row.graph ?? null, canvas: row.canvas ?? null, readable: view(row).graph !== null };
}
