// The call-flow graph as the interpreter reads it: the block shapes of the public API document's
// CallFlowNode (one `type` per block, links are block ids or null = the call ends there). The
// call-flows family validates graphs and fills defaults; the interpreter still falls back to the
// documented defaults itself, so a stored graph from before a default existed walks the same.

export type Link = string | null;

export interface SayBlock { type: 'say'; text: string; next?: Link }
export interface PlayBlock { type: 'play'; url: string; next?: Link }
export interface PauseBlock { type: 'pause'; seconds: number; next?: Link }
export interface MessageBlock { type: 'message'; body: string; to?: string; subject?: string; next?: Link }
export interface MenuBlock {
  type: 'menu';
  prompt?: string;
  branches: Record<string, Link | undefined>;
  invalidNext?: Link;
  timeoutNext?: Link;
  maxDigits?: number;
  timeoutSec?: number;
  saveAs?: string;
}
export interface RecordBlock {
  type: 'record';
  next?: Link;
  prompt?: string;
  maxLengthSec?: number;
  playBeep?: boolean;
  finishKey?: 'any' | 'hash' | 'none';
  saveAs?: string;
}
export interface DialBlock { type: 'dial'; target: { kind: 'number' | 'sip'; value: string }; next?: Link; callerId?: string; timeoutSec?: number }
export interface HangupBlock { type: 'hangup'; message?: string }
export interface SetvarBlock { type: 'setvar'; assignments: { name: string; value: string }[]; next?: Link }
export type ConditionOp = 'eq' | 'ne' | 'contains' | 'gt' | 'lt' | 'exists' | 'empty';
export interface ConditionBlock { type: 'condition'; cases: { variable: string; op: ConditionOp; value?: string; next?: Link }[]; defaultNext?: Link }
export interface HttpBlock {
  type: 'http';
  method?: string;
  url: string;
  next?: Link;
  errorNext?: Link;
  headers?: Record<string, string>;
  body?: unknown;
  saveAs?: { var: string; path: string }[];
}
export interface OptoutBlock { type: 'optout'; next?: Link; number?: string; channel?: 'call' | 'message'; note?: string; saveAs?: string }

export type FlowBlock =
  | SayBlock
  | PlayBlock
  | PauseBlock
  | MessageBlock
  | MenuBlock
  | RecordBlock
  | DialBlock
  | HangupBlock
  | SetvarBlock
  | ConditionBlock
  | HttpBlock
  | OptoutBlock;

export interface FlowGraph {
  version?: number;
  start: string;
  nodes: Record<string, FlowBlock>;
  voice?: unknown;
}

/** The documented defaults (CallFlowNode table). */
export const BLOCK_DEFAULTS = {
  menuMaxDigits: 1,
  menuTimeoutSec: 5,
  recordMaxLengthSec: 60,
  recordPlayBeep: true,
  recordFinishKey: 'any',
  dialTimeoutSec: 30,
  optoutNumber: '{{caller}}',
  optoutChannel: 'call',
} as const;
