// The MCP apps' /_sim route: connect an app to the platform's MCP server for an account, with
// the permissions and connection instant fixed for it; the token it answers is the app's bearer
// for /mcp (docs/control-plane.md, "MCP and egress").
import { Type } from '@sinclair/typebox';
import { reply } from '../../core/operation.ts';
import { accountErrors } from '../accounts/errors.ts';
import { operation } from './scope.ts';
import { RegisterMcpAppBody, RegisteredMcpApp } from './schema.ts';

export const operations = [
  operation({
    operationId: 'simRegisterMcpApp',
    method: 'POST',
    path: '/_sim/accounts/{accountId}/mcp-apps',
    tag: 'Control plane',
    summary: 'Connect an app to the platform\'s MCP server',
    description: 'Fixed contract (docs/control-plane.md): the permissions and connection instant are fixed for the app; the token is its bearer for /mcp, shown only here.',
    origin: 'simulator',
    auth: 'control',
    params: { accountId: Type.String() },
    body: RegisterMcpAppBody,
    bodyRequired: true,
    responses: { 201: { description: 'The app and its token.', schema: RegisteredMcpApp } },
    errors: [accountErrors.ACCOUNT_NOT_FOUND],
    handler: ({ scope, params, body }) => reply.created(scope.mcpApps.register(params.accountId, body)),
  }),
];
