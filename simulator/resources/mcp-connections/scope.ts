// The scope the MCP connections' route handlers see (core/scope.ts): their model as
// `mcpConnections`, and the ports the family declared (ports.ts); and the definer of their
// operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { McpConnectionsModel } from './model.ts';
import type { needs } from './ports.ts';

export type McpConnectionsScope = HandlerScope<'mcpConnections', McpConnectionsModel, typeof needs>;

export const operation = scopedOperations<McpConnectionsScope>();
