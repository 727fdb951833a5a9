// The scope the MCP peers' control routes see (core/scope.ts): the fake servers, the runner and
// the egress guard (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { needs } from './ports.ts';

export type McpPeersScope = HandlerScope<'mcp', {}, typeof needs>;

export const operation = scopedOperations<McpPeersScope>();
