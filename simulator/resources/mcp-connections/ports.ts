// What the MCP connections need (core/scope.ts): the egress guard's mode and host rules (the
// registration checks a URL as the call runtime will connect to it) and the call runtime's MCP
// client that tests a connection (peers/mcp/runner.ts), both live I/O the runtime offers. The
// agents that use a connection register themselves with the family (`useAgents`).
import { port, type ModelScope } from '../../core/scope.ts';
import type { ProbeOutcome, ProbeRequest } from '../../peers/mcp/probe.ts';

/** The egress guard as registration reads it: strict mode, and why a host would be refused. */
export interface ConnectionEgress {
  readonly strict: boolean;
  hostReason(hostname: string): string | undefined;
}

/** The call runtime that connects to MCP servers. */
export interface McpRunnerPort {
  /** False while the runtime is scripted unreachable (tests and rotation answer 503). */
  available(): boolean;
  probe(req: ProbeRequest): Promise<ProbeOutcome>;
}

/** The agents that use a connection (the agents family registers itself: useAgents). */
export interface AgentBindingsPort {
  agentsUsing(accountId: string, connectionId: string): { agentId: string; name: string }[];
  /** The connection was deleted: the agents bound to it drop it. */
  unbind(accountId: string, connectionId: string): void;
}

export const needs = {
  egress: port<ConnectionEgress>(),
  mcpRunner: port<McpRunnerPort>(),
};

/** What the model is built from: the clock, the seeded random and seed (sealing secrets), its ports. */
export type McpConnectionsModelScope = ModelScope<typeof needs>;
