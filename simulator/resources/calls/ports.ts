// What the calls family needs from others (core/scope.ts), each port narrow: the flows it runs,
// the numbers (ownership, routing of inbound calls, dictionaries), the accounts (subscription,
// add-ons), the opt-out and caller block lists, the carrier (how phones answer, the calls'
// deliveries and the phone view), texts a flow sends, usage, the webhook engine (signing keys,
// status callbacks, VoiceML dial notifications), the SIP routes transfer legs go through, the
// receiver policy and the egress guard (the customer's URLs). Recordings follow calls through
// the calls' events (events.ts); nothing here names them. Its clock jobs are declared here.
import { Type } from '@sinclair/typebox';
import { port, type ModelScope } from '../../core/scope.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { NumberOwnership, RecipientBlocks, Subscriptions } from '../../rules/outbound.ts';
import type { Decision, DeliveryRow, DeliveryType, PhoneCall, SubmitInput } from '../../peers/carrier/schema.ts';
import type { Target } from '../../peers/webhooks/schema.ts';
import type { EgressGuard } from '../../peers/egress.ts';
import type { NumberRow } from '../numbers/schema.ts';
import type { UsageSource } from '../usage/schema.ts';
import type { FlowGraph } from './flow-graph.ts';
import { WalkInputSchema } from './walk-input.ts';
import { LegJobSchema } from './transfer-legs.ts';
import type { callEvents } from './events.ts';

/** An account's call flow: undefined when there is none, graph null when unreadable. */
export interface CallFlows {
  find(accountId: string, flowId: string): { graph: FlowGraph | null } | undefined;
}

/** Numbers: who holds one, its routing and settings (inbound calls, dictionaries, usage links). */
export interface CallNumbers extends NumberOwnership {
  find(number: string): NumberRow | undefined;
}

/** Accounts: subscriptions (outbound checks) and add-ons (SIP transfers need sip_trunk). */
export interface CallAccounts extends Subscriptions {
  hasAddon(accountId: string, addon: string): boolean;
}

/** Block lists: opted-out recipients, blocked callers, and opt-outs a flow or a handler adds. */
export interface CallBlocks extends RecipientBlocks {
  isCallerBlocked(accountId: string, number: string): boolean;
  readonly recipients: {
    create(accountId: string, input: { number: string; channel: 'call' | 'message'; note: string | null; source: string; sourceRef: string; createdBy: null }): unknown;
  };
}

/** The fake carrier: how the phone answers, the call's delivery, and the phones' view of calls. */
export interface CallCarrier {
  decide(to: string, type: DeliveryType, ringLimitSeconds?: number): Decision;
  submit(input: SubmitInput, decision?: Decision): DeliveryRow;
  onOutcome(owner: string, listener: (d: DeliveryRow) => void): void;
  onPhoneCalls(log: (number: string) => PhoneCall[]): void;
}

/** Texts a flow's message block sends (as createMessage; a refusal is an ApiError). */
export interface CallTexts {
  send(accountId: string, input: { To: string; From: string; Body: string; Subject?: string }): unknown;
}

/** Usage: the calls' meters are a source of the aggregation. */
export interface CallUsage {
  register(source: UsageSource): void;
}

/** The webhook engine: signing keys, status callbacks as a route, one-off notifications. */
export interface CallDeliveries {
  readonly signingKeys: { get(accountId: string): string };
  readonly targets: { route(type: string, route: (event: DomainEvent) => Target[]): void };
  deliver(event: DomainEvent, targets: Target[]): unknown;
}

/** SIP endpoints: a transfer leg to a SIP URI goes through the account's active routes of active endpoints. */
export interface CallSipRoutes {
  listFor(accountId: string, status: 'active'): readonly { id: string }[];
  routesOf(endpointId: string): readonly { status: string; uri: string }[];
}

/** The receiver policy: a customer URL (Url, StatusCallback) checked as createCall takes it. */
export interface CallUrlCheck {
  check(url: string, field: string): string;
}

export const needs = {
  callFlows: port<CallFlows>(),
  numbers: port<CallNumbers>(),
  accounts: port<CallAccounts>(),
  blockLists: port<CallBlocks>(),
  carrier: port<CallCarrier>(),
  messages: port<CallTexts>(),
  usage: port<CallUsage>(),
  webhookEngine: port<CallDeliveries>(),
  sipEndpoints: port<CallSipRoutes>(),
  receiverPolicy: port<CallUrlCheck>(),
  egress: port<EgressGuard>(),
};

const call = { callId: Type.String() };

/** Its clock job kinds (names and payloads are in snapshots: keep them). */
export const jobs = {
  /** A queued outbound call starts ringing. */
  'calls.ring': Type.Object(call, { additionalProperties: false }),
  /** A ringing inbound call is picked up by its flow, VoiceML app or handler. */
  'calls.answer': Type.Object(call, { additionalProperties: false }),
  /** The walk's next input; a stale seq is ignored. */
  'calls.resume': Type.Object({ ...call, seq: Type.Integer(), input: WalkInputSchema }, { additionalProperties: false }),
  /** The phone's script hangs up. */
  'calls.phoneHangup': Type.Object(call, { additionalProperties: false }),
  /** A transfer leg moves on (transfer-legs.ts). */
  'calls.transferLeg': LegJobSchema,
} as const;

/** What the model (and its progression, effects, legs and handled calls) is built from. */
export type CallsModelScope = ModelScope<typeof needs, typeof callEvents, typeof jobs>;
