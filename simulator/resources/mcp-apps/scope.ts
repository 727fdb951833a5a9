// The scope the MCP apps' handlers see (core/scope.ts): their model as `mcpApps`, and the ports
// the family declared (ports.ts); and the definer of their operations.
import type { HandlerScope } from '../../core/scope.ts';
import { scopedOperations } from '../../core/operation.ts';
import type { McpAppsModel } from './model.ts';
import type { needs } from './ports.ts';

export type McpAppsScope = HandlerScope<'mcpApps', McpAppsModel, typeof needs>;

export const operation = scopedOperations<McpAppsScope>();
