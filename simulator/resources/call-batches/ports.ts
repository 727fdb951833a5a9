// What the call-batches family needs from others, the events it follows and its clock job
// (core/scope.ts), after the batch dialer's first narrow ports: calls placed as createCall places
// them, the flows they run, texts to those not reached (and the account's text history and
// quota for the creation warnings), the VoiceML Url check, and the shared outbound checks
// (rules/outbound.ts: number ownership, subscriptions, opt-outs). It follows each call it placed
// to its end (the calls family's internal `call.ended`) and each text to its report
// (`message.sent`, `message.failed`).
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { NumberOwnership, RecipientBlocks, Subscriptions } from '../../rules/outbound.ts';
import type { CallRow, CreateCallInput } from '../calls/schema.ts';
import type { FlowGraph } from '../calls/flow-graph.ts';

/** Places a call exactly as createCall does (its checks, its refusals as ApiError). */
export interface BatchCalls {
  create(accountId: string, input: CreateCallInput): CallRow;
  /** Refuses an AgentId the account does not have, as createCall does (404 agent_not_found). */
  checkAgent(accountId: string, agentId: string): void;
}

/** An account's call flow: undefined when there is none, graph null when unreadable. */
export interface FlowLookup {
  find(accountId: string, flowId: string): { graph: FlowGraph | null } | undefined;
}

/** Texts: send one as createMessage does, the account's texts from a number, this month's quota. */
export interface BatchTexts {
  send(accountId: string, input: { To: string; From: string; Body: string }): { row: { id: string; status: string } };
  list(accountId: string, filter: { number: string }): readonly { direction: string; from: string }[];
  quotaView(accountId: string): { types: Record<'sms' | 'lms', { used: number; limit: number; overage: boolean }> };
}

/** Checks a VoiceML Url as createCall does (http(s), no credentials; strict egress); returns it. */
export interface UrlCheck {
  check(url: string, field: string): string;
}

export const needs = {
  calls: port<BatchCalls>(),
  callFlows: port<FlowLookup>(),
  messages: port<BatchTexts>(),
  receiverPolicy: port<UrlCheck>(),
  numbers: port<NumberOwnership>(),
  accounts: port<Subscriptions>(),
  blockLists: port<RecipientBlocks>(),
};

export const TICK_JOB = 'callBatches.tick';

/** Its one job kind: a batch's tick (names and payloads are in snapshots: keep them). */
export const jobs = {
  [TICK_JOB]: Type.Object({ batchId: Type.String() }, { additionalProperties: false }),
} as const;

/** What the model (and its dialer) is built from. */
export type CallBatchesModelScope = ModelScope<typeof needs, {}, typeof jobs>;
