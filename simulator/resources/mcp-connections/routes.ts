// HTTP surface of external MCP connections, after the public API document's operations (paths,
// operationIds, wire names, statuses): list without meta, 201 on create, PATCH, DELETE answering
// { deleted, affectedAgents }, the credential rotation and the connection test (200, or 422/502
// with the lastErrorCode as code, 503 when the runtime cannot test).
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { operation } from './scope.ts';
import { ErrorBodySchema } from '../../core/error-schema.ts';
import { mcpConnectionErrors } from './errors.ts';
import { receiverErrors } from '../../peers/webhooks/receiver-policy.ts';
import {
  CreateMcpConnectionBody,
  DeleteMcpConnectionResponse,
  McpConnection,
  McpConnectionList,
  RotateMcpCredentialBody,
  UpdateMcpConnectionBody,
} from './schema.ts';

const TAG = 'MCP connections';
const BASIS = 'public API document (McpConnection operations); docs/decisions.md "MCP connections"';
const account = { accountId: Type.String({ description: 'Account id.' }) };
const connection = { ...account, connectionId: Type.String({ description: 'MCP connection id.' }) };

const testFailures = {
  422: { description: '`TOO_MANY_TOOLS`: the server lists more than 50 tools. The connection records it in lastErrorCode.', schema: ErrorBodySchema },
  502: {
    description: 'The server could not be used; `code` is the reason, recorded in lastErrorCode: `URL_BLOCKED`, `AUTH_FAILED` (status becomes credential_error), `TIMEOUT`, `TLS_ERROR`, `PROTOCOL_ERROR`.',
    schema: ErrorBodySchema,
  },
};

export const operations = [
  operation({
    operationId: 'listMcpConnections',
    method: 'GET',
    path: '/v1/accounts/{accountId}/mcp-connections',
    tag: TAG,
    summary: 'List external MCP connections',
    description: 'Newest registration first, `{ data }` without paging. No credential appears.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: account,
    responses: { 200: { description: 'The connections.', schema: McpConnectionList } },
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      return reply.json(200, m.wire.dataOnly(m.list(ctx.accountId)));
    },
  }),
  operation({
    operationId: 'createMcpConnection',
    method: 'POST',
    path: '/v1/accounts/{accountId}/mcp-connections',
    tag: TAG,
    summary: 'Register an external MCP server',
    description:
      'Starts untested. url: https, port 443, no private or internal address (400 VALIDATION or 400 URL_BLOCKED); in the default egress mode local hosts may use http and any port. authType bearer or api_key needs a secret; api_key needs a headerName that is not reserved. The secret is stored sealed and never returned (hasSecret).',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: account,
    body: CreateMcpConnectionBody,
    bodyRequired: true,
    responses: {
      201: { description: 'The connection (status untested).', schema: McpConnection },
    },
    errors: [receiverErrors.URL_BLOCKED],
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      return reply.json(201, m.wire.json(m.create(ctx.accountId, ctx.body)));
    },
  }),
  operation({
    operationId: 'getMcpConnection',
    method: 'GET',
    path: '/v1/accounts/{accountId}/mcp-connections/{connectionId}',
    tag: TAG,
    summary: 'Get an external MCP connection',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: connection,
    responses: { 200: { description: 'The connection.', schema: McpConnection } },
    errors: [mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND],
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      return reply.json(200, m.wire.json(m.get(ctx.accountId, ctx.params.connectionId)));
    },
  }),
  operation({
    operationId: 'updateMcpConnection',
    method: 'PATCH',
    path: '/v1/accounts/{accountId}/mcp-connections/{connectionId}',
    tag: TAG,
    summary: 'Change name, enabled, url or transport',
    description: 'A different url or transport discards the tool snapshot and returns the connection to untested. At least one field.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: connection,
    body: UpdateMcpConnectionBody,
    bodyRequired: true,
    responses: { 200: { description: 'The connection.', schema: McpConnection } },
    errors: [mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND, receiverErrors.URL_BLOCKED],
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      return reply.json(200, m.wire.json(m.update(ctx.accountId, ctx.params.connectionId, ctx.body)));
    },
  }),
  operation({
    operationId: 'deleteMcpConnection',
    method: 'DELETE',
    path: '/v1/accounts/{accountId}/mcp-connections/{connectionId}',
    tag: TAG,
    summary: 'Delete an external MCP connection',
    description: 'Removes it from every agent using it at once; affectedAgents names them.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: connection,
    responses: { 200: { description: '{ deleted: true, affectedAgents }', schema: DeleteMcpConnectionResponse } },
    errors: [mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND],
    handler: (ctx) => reply.ok(ctx.scope.mcpConnections.delete(ctx.accountId, ctx.params.connectionId)),
  }),
  operation({
    operationId: 'rotateMcpCredential',
    method: 'POST',
    path: '/v1/accounts/{accountId}/mcp-connections/{connectionId}/credential',
    tag: TAG,
    summary: 'Replace the credential',
    description:
      'By default the new credential is tried against the server first and stored only when the connection succeeds (the connection is then tested with a fresh tool snapshot); otherwise 502 with the reason as `code` and nothing changes. force=true stores it without trying (status untested). authType none removes the stored secret.',
    origin: 'reference',
    basis: BASIS,
    auth: 'account',
    params: connection,
    body: RotateMcpCredentialBody,
    bodyRequired: true,
    responses: {
      200: { description: 'The connection, without the credential.', schema: McpConnection },
      502: { description: 'The new credential did not work (`code`: AUTH_FAILED, TIMEOUT, TLS_ERROR, PROTOCOL_ERROR, URL_BLOCKED or TOO_MANY_TOOLS); the old one is kept.', schema: ErrorBodySchema },
    },
    errors: [mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND, mcpConnectionErrors.MCP_RUNNER_UNAVAILABLE],
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      const out = m.rotate(ctx.accountId, ctx.params.connectionId, ctx.body);
      return out instanceof Promise ? out.then((row) => reply.json(200, m.wire.json(row))) : reply.json(200, m.wire.json(out));
    },
  }),
  operation({
    operationId: 'testMcpConnection',
    method: 'POST',
    path: '/v1/accounts/{accountId}/mcp-connections/{connectionId}/test',
    tag: TAG,
    summary: 'Test the connection (real MCP)',
    description:
      'The call runtime connects with the official MCP client over the connection\'s transport and lists the tools. Success: status tested, the tool snapshot, toolCount and lastTestedAt. Failure: lastErrorCode records the reason and the answer is 422/502 with it as `code`; an authentication failure sets status credential_error, other failures keep the status.',
    origin: 'spec',
    auth: 'account',
    params: connection,
    responses: { 200: { description: 'The tested connection.', schema: McpConnection }, ...testFailures },
    errors: [mcpConnectionErrors.MCP_CONNECTION_NOT_FOUND, mcpConnectionErrors.MCP_RUNNER_UNAVAILABLE],
    handler: (ctx) => {
      const m = ctx.scope.mcpConnections;
      return m.test(ctx.accountId, ctx.params.connectionId).then((row) => reply.json(200, m.wire.json(row)));
    },
  }),
];
