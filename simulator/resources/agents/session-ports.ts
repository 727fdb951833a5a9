// What a managed agent's call session needs from others (docs/agents.md, the agent seam): the
// call's actions the calls family offers its handlers (calls/handlers.ts: speak a turn, the
// phone's turn, hang up, transfer, opt the caller out), the MCP target of a connection
// (mcp-connections: URL, transport and credential in clear) and the call runtime's tool caller.
import type { ToolCallOutcome, ToolCallRequest } from '../../peers/mcp/tool-caller.ts';

export type { CallActions, EndedBy } from '../calls/handlers.ts';

/** Where a connection's tool calls go, with its credential (mcp-connections). */
export interface ToolTargetsPort {
  target(accountId: string, connectionId: string): Omit<ToolCallRequest, 'name' | 'arguments'> | undefined;
}

export interface ToolCallerPort {
  call(req: ToolCallRequest, land: (outcome: ToolCallOutcome) => void): void;
}

/** What the session is told about the call when it is answered. */
export interface AnsweredCall {
  callId: string;
  accountId: string;
  agentId: string;
  /** Virtual ms of the answer: position 0 of the call's media. */
  answeredAt: number;
  /** CallContext variables ({{var.name}}) and the instruction for this call, if any. */
  variables: Record<string, string>;
  instruction: string | null;
  /** The dictionary of the number on the platform's side (null: the account's default). */
  dictionaryId: string | null;
}
