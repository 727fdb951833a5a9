// HTTP surface of managed agents after the public API document (paths, operationIds, wire
// names, statuses): list (newest first, `{ data }`), create (201, the guides' defaults), the
// voice catalogue, get, PATCH (the configuration replaced whole), delete (204; 409 while in use).
// Knowledge documents and MCP bindings are in knowledge-routes.ts and binding-routes.ts.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { agentErrors } from './errors.ts';
import { configurationErrors } from './configuration.ts';
import { AgentList, AgentResponse, AgentVoiceList, CreateAgentBody, UpdateAgentBody } from './schema.ts';
import { knowledgeOperations } from './knowledge-routes.ts';
import { bindingOperations } from './binding-routes.ts';

export const TAG = 'Agents';
export const BASIS = 'public API document (Agents operations); guides "Managed agents"; docs/decisions.md "Managed agents"';
export const accountParam = { accountId: Type.String({ description: 'Account id.' }) };
export const agentParams = { ...accountParam, agentId: Type.String({ description: 'Agent id.' }) };

const agentOperations = [
  operation({
    operationId: 'listAgents',
    method: 'GET',
    path: '/v1/accounts/{accountId}/agents',
    tag: TAG,
    summary: 'List managed agents',
    description: 'Newest first, `{ data }` without paging.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: accountParam,
    responses: { 200: { description: 'The agents.', schema: AgentList } },
    handler: (ctx) => {
      const m = ctx.scope.agents;
      return reply.ok({ data: m.list(ctx.accountId).map((a) => m.wire(a)) });
    },
  }),
  operation({
    operationId: 'createAgent',
    method: 'POST',
    path: '/v1/accounts/{accountId}/agents',
    tag: TAG,
    summary: 'Create a managed agent',
    description:
      'Only `name` is required. Defaults: a generic Korean prompt, greeting true, outputMode external_tts with gpt-realtime-2.1-mini and Cartesia sonic-3.5 speaking with Minji, language ko, knowledge search off. `model` and `voice` are shortcuts that cannot go with `configuration` (400). A voice cloned by another account is 403 `call_flow_voice_forbidden`; this account\'s clone must be ready (400 `voice_not_ready`).',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: accountParam,
    body: CreateAgentBody,
    bodyRequired: true,
    responses: { 201: { description: 'The agent.', schema: AgentResponse } },
    errors: [agentErrors.VOICE_FORBIDDEN, agentErrors.VOICE_NOT_READY],
    handler: (ctx) => {
      const m = ctx.scope.agents;
      return reply.created(m.wire(m.create(ctx.accountId, ctx.body)));
    },
  }),
  operation({
    operationId: 'listAgentVoices',
    method: 'GET',
    path: '/v1/accounts/{accountId}/agents/voices',
    tag: TAG,
    summary: 'Voices agents can speak with',
    description: 'The 14 stock Korean Cartesia voices, then this account\'s ready voice clones (`isCustom` true). Use `id` as `configuration.tts.voice`.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: accountParam,
    responses: { 200: { description: 'The voices.', schema: AgentVoiceList } },
    handler: (ctx) => reply.ok({ data: ctx.scope.agents.voices(ctx.accountId) }),
  }),
  operation({
    operationId: 'getAgent',
    method: 'GET',
    path: '/v1/accounts/{accountId}/agents/{agentId}',
    tag: TAG,
    summary: 'Get a managed agent',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    responses: { 200: { description: 'The agent.', schema: AgentResponse } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.agents;
      return reply.ok(m.wire(m.get(ctx.accountId, ctx.params.agentId)));
    },
  }),
  operation({
    operationId: 'updateAgent',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/agents/{agentId}',
    tag: TAG,
    summary: 'Change a managed agent',
    description:
      'At least one field. `configuration` replaces the whole configuration (no merge); `instructions` and `greeting` sent beside it apply too. `model` changes the realtime model of an OpenAI Realtime agent and `voice` the Cartesia voice; on an agent of another mode they are 409 `agent_mode_conflict`.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    body: UpdateAgentBody,
    bodyRequired: true,
    responses: { 200: { description: 'The agent.', schema: AgentResponse } },
    errors: [agentErrors.NOT_FOUND, agentErrors.VOICE_FORBIDDEN, agentErrors.VOICE_NOT_READY, configurationErrors.MODE_CONFLICT],
    handler: (ctx) => {
      const m = ctx.scope.agents;
      return reply.ok(m.wire(m.update(ctx.accountId, ctx.params.agentId, ctx.body)));
    },
  }),
  operation({
    operationId: 'deleteAgent',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/agents/{agentId}',
    tag: TAG,
    summary: 'Delete a managed agent',
    description: 'Its knowledge, MCP bindings and scripted behaviour go with it. Refused (409 `agent_in_use`, naming `phoneNumbers` and `callBatches`) while a number routes inbound calls to it or a call batch that is not over uses it.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    responses: { 204: { description: 'Deleted.' } },
    errors: [agentErrors.NOT_FOUND, agentErrors.IN_USE],
    handler: (ctx) => {
      ctx.scope.agents.delete(ctx.accountId, ctx.params.agentId);
      return reply.noContent();
    },
  }),
];

export const operations = [...agentOperations, ...knowledgeOperations, ...bindingOperations];
