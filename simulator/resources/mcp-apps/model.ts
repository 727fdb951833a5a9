// Apps of the platform's own MCP server: registration (control plane), token lookup, and which
// tools an app sees. A tool needs its permission in the app's grant, and the app must have
// connected after the permission came to exist: apps connected earlier do not see the tool (no
// error) and must reconnect (spec "Usage aggregation", MCP tool paragraph). The runtime
// snapshots and restores its table (the descriptor's state part).
import { nodeCrypto } from '../../core/node-crypto.ts';
import { Table } from '../../core/store.ts';
import { freshId, newId } from '../../core/ids.ts';
import { parseInstant, iso } from '../../core/clock.ts';
import type { McpAppsModelScope } from './ports.ts';
import { MCP_APP_IDS, type McpAppRow, type RegisterMcpAppInput } from './schema.ts';

/**
 * When each permission came to exist on the platform. The spec gives no date for read:usage;
 * the simulator takes 2026-01-01, before the default fixture's clock (docs/decisions.md "MCP").
 */
export const PERMISSION_INTRODUCED_AT: Record<string, string> = {
  'read:usage': '2026-01-01T00:00:00.000Z',
};

function hash(token: string): string {
  return nodeCrypto().createHash('sha256').update(token).digest('hex');
}

export class McpAppsModel {
  readonly apps = new Table<McpAppRow>(); // maps an app id to its account, grant, connection instant and token hash

  constructor(private readonly rt: McpAppsModelScope) {}

  register(accountId: string, input: RegisterMcpAppInput): { appId: string; token: string } {
    this.rt.accounts.require(accountId);
    const connectedAt = input.connectedAt === undefined ? this.rt.clock.nowIso() : iso(parseInstant(input.connectedAt)!);
    const id = freshId(this.rt.random, MCP_APP_IDS.mcpApp, (x) => this.apps.has(x));
    const token = newId(this.rt.random, MCP_APP_IDS.mcpAppToken);
    this.apps.insert({ id, accountId, permissions: [...new Set(input.permissions)], connectedAt, tokenHash: hash(token), createdAt: this.rt.clock.nowIso() });
    return { appId: id, token };
  }

  /** The app a bearer token belongs to, if any. */
  forToken(token: string): McpAppRow | undefined {
    const h = hash(token);
    return this.apps.all().find((a) => a.tokenHash === h);
  }

  /** Whether the app holds the permission: granted, and connected once it existed. */
  holds(app: McpAppRow, permission: string): boolean {
    if (!app.permissions.includes(permission)) return false;
    const since = PERMISSION_INTRODUCED_AT[permission];
    return since === undefined || parseInstant(app.connectedAt)! >= parseInstant(since)!;
  }
}
