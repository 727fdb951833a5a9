// An agent's MCP bindings (spec "External MCP connection": only `tested` connections can be
// attached or used during calls; public API document setAgentMcpConnection): at most three
// connections per agent, each with the tools this agent may call (1 to 20, all in the
// connection's last tool snapshot) and a failureMode. `missingTools` are allowed tools a later
// test no longer lists; `agentCount` and `affectedAgents` of connections come from here.
import { Table } from '../../core/store.ts';
import { ApiError } from '../../core/errors.ts';
import type { KernelParts } from '../../core/scope.ts';
import { agentErrors } from './errors.ts';
import type { ConnectionRowView } from './ports.ts';
import { MAX_BINDINGS, type BindingRow, type FailureMode, type SetBindingInput } from './schema.ts';

/** What the agents need to know of an MCP connection. */
export type ConnectionView = Omit<ConnectionRowView, 'tools'> & { tools: readonly { name: string }[] };

export interface ConnectionsPort {
  find(accountId: string, connectionId: string): ConnectionView | undefined;
}

/** Where a tool call goes: the binding that allows it and its connection as it is now. */
export interface ToolRoute {
  binding: BindingRow;
  connection: ConnectionView | undefined;
  /** Why the connection cannot be used now (spec: only tested connections are used), else null. */
  unusable: string | null;
}

const keyOf = (agentId: string, connectionId: string) => `${agentId} ${connectionId}`;

/** Why a connection cannot be used during calls, or null. */
export function unusableReason(c: ConnectionView | undefined): string | null {
  if (!c) return 'the MCP connection was deleted';
  if (!c.enabled) return 'the MCP connection is disabled';
  if (c.status !== 'tested') return `the MCP connection is ${c.status}, not tested`;
  return null;
}

export class AgentBindings {
  readonly rows = new Table<BindingRow>(); // maps "agentId connectionId" to the binding

  constructor(
    private readonly ports: Pick<KernelParts, 'clock'>,
    private readonly connections: () => ConnectionsPort,
  ) {}

  /** The agent's bindings in the order they were made. */
  of(agentId: string): BindingRow[] {
    return this.rows.all().filter((b) => b.agentId === agentId);
  }

  wire(b: BindingRow) {
    const c = this.connections().find(b.accountId, b.connectionId);
    const known = new Set((c?.tools ?? []).map((t) => t.name));
    return {
      connectionId: b.connectionId,
      name: c?.name ?? '',
      host: c?.host ?? '',
      status: c?.status ?? 'untested',
      enabled: c?.enabled ?? false,
      allowedTools: [...b.allowedTools],
      failureMode: b.failureMode,
      missingTools: b.allowedTools.filter((t) => !known.has(t)),
      dateUpdated: b.dateUpdated,
    };
  }

  /** setAgentMcpConnection (idempotent): every check before the write. */
  set(accountId: string, agentId: string, connectionId: string, input: SetBindingInput): BindingRow {
    const c = this.connections().find(accountId, connectionId);
    if (!c) throw agentErrors.CONNECTION_NOT_FOUND(`no MCP connection ${connectionId} in this account`);
    if (!c.enabled) throw agentErrors.CONNECTION_DISABLED(`MCP connection ${connectionId} is disabled; enable it first`, { status: c.status });
    if (c.status === 'untested') throw agentErrors.CONNECTION_UNTESTED(`MCP connection ${connectionId} has not passed a test; test it first`, { status: c.status });
    if (c.status === 'credential_error') throw agentErrors.CONNECTION_CREDENTIAL_ERROR(`MCP connection ${connectionId} failed authentication in its last test; rotate the credential and test it`, { status: c.status });
    const known = new Set(c.tools.map((t) => t.name));
    const seen = new Set<string>();
    input.allowedTools.forEach((tool, i) => {
      const path = `allowedTools[${i}]`;
      if (seen.has(tool)) throw ApiError.validation(`${path} repeats "${tool}"`, [{ path, message: 'duplicate' }]);
      seen.add(tool);
      if (!known.has(tool)) {
        const list = c.tools.length === 0 ? 'its last test listed no tools' : `it offers ${c.tools.map((t) => t.name).join(', ')}`;
        throw ApiError.validation(`${path} "${tool}" is not a tool of MCP connection ${connectionId} (${list})`, [{ path, message: 'not a tool of the connection' }]);
      }
    });
    const id = keyOf(agentId, connectionId);
    const existing = this.rows.get(id);
    if (!existing && this.of(agentId).length >= MAX_BINDINGS) {
      throw agentErrors.TOO_MANY_CONNECTIONS(`agent ${agentId} already uses ${MAX_BINDINGS} MCP connections; detach one first`);
    }
    const row: BindingRow = {
      id,
      accountId,
      agentId,
      connectionId,
      allowedTools: [...input.allowedTools],
      failureMode: (input.failureMode ?? 'continue') as FailureMode,
      dateUpdated: this.ports.clock.nowIso(),
    };
    return existing ? this.rows.replace(row) : this.rows.insert(row);
  }

  remove(agentId: string, connectionId: string): void {
    if (!this.rows.delete(keyOf(agentId, connectionId))) throw agentErrors.BINDING_NOT_FOUND(`MCP connection ${connectionId} is not attached to agent ${agentId}`);
  }

  /** Every binding of an agent goes (the agent was deleted). */
  removeAgent(agentId: string): void {
    for (const b of this.of(agentId)) this.rows.delete(b.id);
  }

  /** The connection was deleted: its bindings go; the agents they belonged to. */
  removeConnection(accountId: string, connectionId: string): string[] {
    const gone = this.rows.all().filter((b) => b.accountId === accountId && b.connectionId === connectionId);
    for (const b of gone) this.rows.delete(b.id);
    return gone.map((b) => b.agentId);
  }

  agentIdsUsing(accountId: string, connectionId: string): string[] {
    return this.rows.all().filter((b) => b.accountId === accountId && b.connectionId === connectionId).map((b) => b.agentId);
  }

  /** Every tool the agent may call (a behaviour's tools must be among them). */
  allowedTools(agentId: string): Set<string> {
    return new Set(this.of(agentId).flatMap((b) => b.allowedTools));
  }

  /** The first binding (in binding order) that allows the tool, with its connection as it is now. */
  route(accountId: string, agentId: string, tool: string): ToolRoute | undefined {
    const binding = this.of(agentId).find((b) => b.allowedTools.includes(tool));
    if (!binding) return undefined;
    const connection = this.connections().find(accountId, binding.connectionId);
    let unusable = unusableReason(connection);
    if (unusable === null && !connection!.tools.some((t) => t.name === tool)) unusable = `the MCP connection's last test no longer lists ${tool}`;
    return { binding, connection, unusable };
  }
}
