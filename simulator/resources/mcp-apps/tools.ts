// The tools of the platform's own MCP server. get_usage takes the usage query's arguments and
// answers exactly what getUsage answers for them, except that pageSize defaults to 50 (spec
// Limits: "50 for the MCP tool"). Arguments go through the query's own coercion and validation,
// so a tool call and an HTTP query accept and refuse the same things.
import { ApiError, errorBody } from '../../core/errors.ts';
import { coerceQuery, type RawQuery } from '../../core/query.ts';
import { UsageQuery } from '../usage/schema.ts';
import type { UsageArgs, UsageReport } from './ports.ts';
import type { McpAppRow } from './schema.ts';

export const MCP_USAGE_PAGE_SIZE = 50;
const USAGE_ARGS = ['from', 'to', 'groupBy', 'meter', 'includeToday', 'page', 'pageSize'] as const;

/** A JSON copy of a TypeBox schema (no symbols), as MCP clients receive it. */
function plain(schema: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

export interface PlatformTool {
  name: string;
  permission: string;
  description: string;
  inputSchema: Record<string, unknown>;
  call(usage: UsageReport, app: McpAppRow, args: Record<string, unknown>): { text: string; structured?: Record<string, unknown>; isError: boolean };
}

const getUsage: PlatformTool = {
  name: 'get_usage',
  permission: 'read:usage',
  description: 'Usage aggregated by meter (and day, link or number) for the app\'s account, exactly as the usage query answers it; 50 records per page by default.',
  inputSchema: {
    type: 'object',
    properties: {
      ...Object.fromEntries(USAGE_ARGS.filter((k) => k !== 'pageSize').map((k) => [k, plain(UsageQuery[k])])),
      pageSize: { ...plain(UsageQuery.pageSize), default: MCP_USAGE_PAGE_SIZE, description: `Rows per page (default ${MCP_USAGE_PAGE_SIZE} here).` },
    },
    additionalProperties: false,
  },
  call(usage, app, args) {
    try {
      const unknown = Object.keys(args).filter((k) => !(USAGE_ARGS as readonly string[]).includes(k));
      if (unknown.length > 0) throw ApiError.validation(`unknown argument ${unknown[0]}`, unknown.map((k) => ({ path: k, message: 'is not an argument of get_usage' })));
      const raw: RawQuery = new Map();
      for (const [k, v] of Object.entries(args)) {
        if (v === undefined || v === null) continue;
        raw.set(k, (Array.isArray(v) ? v : [v]).map((x) => (typeof x === 'string' ? x : JSON.stringify(x))));
      }
      const declared = Object.fromEntries(USAGE_ARGS.map((k) => [k, UsageQuery[k]]));
      const q = coerceQuery(raw, declared) as UsageArgs;
      if (q.pageSize === undefined) q.pageSize = MCP_USAGE_PAGE_SIZE;
      const result = usage.aggregate(app.accountId, q) as Record<string, unknown>;
      return { text: JSON.stringify(result), structured: result, isError: false };
    } catch (e) {
      if (e instanceof ApiError) return { text: JSON.stringify(errorBody(e)), isError: true };
      throw e;
    }
  },
};

export const PLATFORM_TOOLS: readonly PlatformTool[] = [getUsage];
