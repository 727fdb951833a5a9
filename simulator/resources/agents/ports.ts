// What the managed-agents family needs from others (core/scope.ts), each port narrow: the calls
// family (its handler registry and the actions handlers get, docs/agents.md), the numbers routed
// to an agent, the call batches using one, the MCP connections it binds (with their credential,
// for tool calls), the voice clones it may speak with, the numbers' dictionaries it hears
// through, and the runtime's live I/O helpers its tool calls go through. Its clock job: the next
// step of an agent's call session.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { EgressGuard } from '../../peers/egress.ts';
import type { FakeMcpServers } from '../../peers/mcp/fake-servers.ts';
import type { CallActions, CallHandler, HandlerKind } from '../calls/handlers.ts';
import type { McpToolWire } from '../mcp-connections/schema.ts';
import { SessionStepSchema } from './session-state.ts';

/** The calls family: register the agent's handler; act on the calls it handles. */
export interface AgentCalls {
  readonly handled: CallActions & { readonly handlers: { register(kind: HandlerKind, handler: CallHandler): void } };
}

export interface AgentNumbers {
  routedToAgent(accountId: string, agentId: string): string[];
}

export interface AgentBatches {
  usingAgent(accountId: string, agentId: string): string[];
}

/** An MCP connection as the agents read it. */
export interface ConnectionRowView {
  id: string;
  accountId: string;
  name: string;
  host: string;
  status: 'untested' | 'tested' | 'credential_error';
  enabled: boolean;
  tools: readonly McpToolWire[];
}

export interface AgentConnections {
  list(accountId: string): readonly ConnectionRowView[];
  toolTarget(accountId: string, connectionId: string): { url: string; transport: 'streamable_http' | 'sse'; headers: Record<string, string> } | undefined;
  /** The agents register their bindings (agentCount, affectedAgents, unbinding a deleted connection). */
  useAgents(port: { agentsUsing(accountId: string, connectionId: string): { agentId: string; name: string }[]; unbind(accountId: string, connectionId: string): void }): void;
}

export interface AgentVoices {
  byVoice(voice: string): { accountId: string; status: string } | undefined;
  readyOf(accountId: string): readonly { voice: string; name: string; description: string | null }[];
  registerUsers(source: { usersOf(accountId: string, voice: string): string[] }): void;
}

export interface AgentHearing {
  rewriterFor(accountId: string, dictionaryId: string | null): (text: string) => string;
}

export const needs = {
  calls: port<AgentCalls>(),
  numbers: port<AgentNumbers>(),
  callBatches: port<AgentBatches>(),
  mcpConnections: port<AgentConnections>(),
  voiceClones: port<AgentVoices>(),
  dictionaries: port<AgentHearing>(),
  egress: port<EgressGuard>(),
  mcpServers: port<FakeMcpServers>(),
  mcpRunner: port<{ readonly timeoutMs: number }>(),
};

/** The next step of an agent's call session (names and payloads are in snapshots: keep them). */
export const jobs = {
  'agents.step': Type.Object({ callId: Type.String(), seq: Type.Integer(), step: SessionStepSchema }, { additionalProperties: false }),
};

export type AgentsModelScope = ModelScope<typeof needs, {}, typeof jobs>;
