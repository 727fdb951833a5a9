// An agent's MCP bindings (public API document; spec "External MCP connection": only tested
// connections can be attached): list, attach or change (PUT, idempotent) and detach.
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { agentErrors } from './errors.ts';
import { AgentMcpBinding, AgentMcpBindingList, DeletedResponse, SetAgentMcpConnectionBody } from './schema.ts';

const TAG = 'Agents';
const BASIS = 'public API document (agent MCP connection operations); spec "External MCP connection"';
const agentParams = { accountId: Type.String({ description: 'Account id.' }), agentId: Type.String({ description: 'Agent id.' }) };
const bindingParams = { ...agentParams, connectionId: Type.String({ description: 'MCP connection id.' }) };

export const bindingOperations = [
  operation({
    operationId: 'listAgentMcpConnections',
    method: 'GET',
    path: '/v1/accounts/{accountId}/agents/{agentId}/mcp-connections',
    tag: TAG,
    summary: 'MCP connections an agent uses and the tools it may call',
    description: 'In the order they were attached. A non-empty `missingTools` means the server no longer lists some allowed tools (they are never called).',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: agentParams,
    responses: { 200: { description: 'The bindings.', schema: AgentMcpBindingList } },
    errors: [agentErrors.NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.agents;
      const a = m.get(ctx.accountId, ctx.params.agentId);
      return reply.ok({ data: m.bindings.of(a.id).map((b) => m.bindings.wire(b)) });
    },
  }),
  operation({
    operationId: 'setAgentMcpConnection',
    method: 'PUT',
    path: '/v1/accounts/{accountId}/agents/{agentId}/mcp-connections/{connectionId}',
    tag: TAG,
    summary: 'Attach an MCP connection to an agent with the tools it may call',
    description:
      'Idempotent: attaching again replaces `allowedTools` and `failureMode`. The connection must be enabled (409 `MCP_CONNECTION_DISABLED`) and tested (409 `MCP_CONNECTION_UNTESTED`, `MCP_CONNECTION_CREDENTIAL_ERROR`); each allowed tool must be in its last test\'s snapshot, without repeats (400 naming `allowedTools[i]`); at most 3 connections per agent (409 `MCP_CONNECTION_LIMIT`). `failureMode` continue (default) or fail_session decides what a failing tool does to a call. Applies from the next call.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: bindingParams,
    body: SetAgentMcpConnectionBody,
    bodyRequired: true,
    responses: { 200: { description: 'The binding.', schema: AgentMcpBinding } },
    errors: [agentErrors.NOT_FOUND, agentErrors.CONNECTION_NOT_FOUND, agentErrors.CONNECTION_DISABLED, agentErrors.CONNECTION_UNTESTED, agentErrors.CONNECTION_CREDENTIAL_ERROR, agentErrors.TOO_MANY_CONNECTIONS],
    handler: (ctx) => {
      const m = ctx.scope.agents;
      const a = m.get(ctx.accountId, ctx.params.agentId);
      return reply.ok(m.bindings.wire(m.bindings.set(ctx.accountId, a.id, ctx.params.connectionId, ctx.body)));
    },
  }),
  operation({
    operationId: 'deleteAgentMcpConnection',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/agents/{agentId}/mcp-connections/{connectionId}',
    tag: TAG,
    summary: 'Detach an MCP connection from an agent',
    description: 'The connection itself stays; the agent stops using its tools from the next call.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: bindingParams,
    responses: { 200: { description: 'Detached.', schema: DeletedResponse } },
    errors: [agentErrors.NOT_FOUND, agentErrors.BINDING_NOT_FOUND],
    handler: (ctx) => {
      const a = ctx.scope.agents.get(ctx.accountId, ctx.params.agentId);
      ctx.scope.agents.bindings.remove(a.id, ctx.params.connectionId);
      return reply.ok({ deleted: true });
    },
  }),
];
