// What the MCP peers' control routes need (core/scope.ts): the fake MCP servers, the call
// runtime's MCP client and the egress guard, live I/O the runtime itself offers (they keep no
// state, so the entry has no snapshot part). They need no family.
import { port, type ModelScope } from '../../core/scope.ts';
import type { EgressGuard } from '../egress.ts';
import type { FakeMcpServers } from './fake-servers.ts';
import type { McpRunner } from './runner.ts';

export const needs = {
  mcpServers: port<FakeMcpServers>(),
  mcpRunner: port<McpRunner>(),
  egress: port<EgressGuard>(),
};

export type McpPeersModelScope = ModelScope<typeof needs>;
