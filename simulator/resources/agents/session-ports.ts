// What a managed agent's call session needs from others (docs/agents.md, the agent seam): the
// call's actions the calls family offers its handlers (speak a turn, the phone's turn, hang up,
// transfer, opt the caller out), the MCP target of a connection (mcp-connections: URL,
// transport and credential in clear), the call runtime's tool caller, and the agent's own data.
import type { PhoneTurn } from '../../peers/phone-talk.ts';
import type { Turn } from './conversation.ts';
import type { ToolCallOutcome, ToolCallRequest } from '../../peers/mcp/tool-caller.ts';

/** Who ends the call when the session ends it. */
export type EndedBy = 'agent' | 'phone' | 'party' | 'app_error';

/** The actions the calls family offers a call handler (seam §1). */
export interface CallActions {
  /** Appends a turn to the call's conversation (times on the call's media position). */
  speak(callId: string, turn: Turn): void;
  /** The phone's next turn after hearing `heard` (seam §3); its state stays with the call. */
  phoneTurn(callId: string, heard: string): PhoneTurn;
  /** Ends the call: agent and phone normally (the platform's or the phone's side), app_error as a platform failure. */
  hangUp(callId: string, by: EndedBy): void;
  /** Starts a transfer leg; the handler hears how it ended. A refusal is the reason it did not start. */
  transfer(callId: string, to: string, mode: 'blind' | 'warm'): { started: true } | { started: false; reason: string };
  /** Adds the caller to the account's opt-out list: source agent, sourceRef the call id. */
  optOut(callId: string, channel: 'call' | 'message'): void;
}

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
