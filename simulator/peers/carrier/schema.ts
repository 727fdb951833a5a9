// The fake carrier's vocabulary (docs/control-plane.md, "Carrier"): delivery types and outcomes,
// how an answering phone behaves (its keys, replies by what it heard, the lines it says in calls
// handled by an agent), scripts and deliveries as stored, and what families hand over and get
// back. Families that use the carrier (messages, verifications, calls) name these types.
import { Type, type Static } from '@sinclair/typebox';
import { ApiError } from '../../core/errors.ts';
import { DateTime, Nullable, StringEnum } from '../../core/schema.ts';
import { PackedTableSchema } from '../../core/packed-transfer.ts';

export const DELIVERY_TYPES = ['sms', 'lms', 'mms', 'ata', 'bms', 'call'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/** What the carrier can make of a delivery. Texts know only delivered and failed. */
export const OUTCOMES = ['delivered', 'failed', 'no-answer', 'busy', 'rejected'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Who handed the delivery over and hears its outcome: one of the descriptors' `carrierOwners`. */
export type Owner = string;

/**
 * A reply by what was heard (docs/decisions.md "Calls"): `heard` is a case-insensitive regular expression; `say`
 * is what the phone says with it in calls handled by an agent (docs/agents.md "Phones that talk").
 */
export const ReplySchema = Type.Object(
  { heard: Type.String(), keys: Type.String(), speakSeconds: Nullable(Type.Integer({ minimum: 0 })), say: Type.Optional(Nullable(Type.String())) },
  { additionalProperties: false },
);
export type Reply = Static<typeof ReplySchema>;

/** A quantified group that itself holds a quantifier, e.g. (a+)+ or (\w*)*: backtracking can run away. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,?\d*\})/;

/** Refuses reply patterns that do not compile or could run away (docs/decisions.md "Calls"). */
export function checkReplies(replies: readonly { heard: string }[] | null | undefined, field: string): void {
  (replies ?? []).forEach((r, i) => {
    const path = `${field}.${i}.heard`;
    try {
      new RegExp(r.heard, 'i');
    } catch (e) {
      throw ApiError.validation(`${path} is not a valid regular expression: ${(e as Error).message}`, [{ path, message: 'does not compile' }]);
    }
    if (NESTED_QUANTIFIER.test(r.heard)) {
      throw ApiError.validation(`${path} nests a quantifier inside a quantified group ("${r.heard}"), which can take exponential time; simplify it`, [{ path, message: 'nested quantifier' }]);
    }
  });
}

/** How the callee behaves once a call is answered (scripts that decide calls; the fixed control-plane contract). */
export const CalleeSchema = Type.Object(
  {
    answeredBy: StringEnum(['human', 'machine']), // what machine detection reports
    keys: Type.Array(Type.String()), // what the callee enters at each successive menu or record prompt; '' = no input
    hangupAfterSeconds: Nullable(Type.Number()), // the callee hangs up this long after answering; null: never
    speakSeconds: Type.Integer({ minimum: 0 }), // how long the callee talks at each record prompt
    // at a prompt, the first reply whose `heard` pattern matches what was said since the last input answers it
    replies: Type.Array(ReplySchema),
    lines: Type.Optional(Type.Array(Type.String())), // agent calls: what the phone says, in order, when no reply matches (absent: none)
  },
  { additionalProperties: false },
);
export type Callee = Static<typeof CalleeSchema>;
export const DEFAULT_SPEAK_SECONDS = 3;
export const DEFAULT_CALLEE: Callee = { answeredBy: 'human', keys: [], hangupAfterSeconds: null, speakSeconds: DEFAULT_SPEAK_SECONDS, replies: [] };

const ScriptRowSchema = Type.Object(
  {
    id: Type.String(), // maps the script id (cs_1, cs_2...) to the script
    number: Nullable(Type.String()), // the destination it applies to, domestic notation; null: a prefix script
    prefix: Nullable(Type.String()), // the destinations starting with these digits; null: a number script
    share: Type.Number({ exclusiveMinimum: 0, maximum: 1 }), // the share of matching attempts it decides
    salt: Type.Integer({ minimum: 0 }), // drawn from the seeded random when share < 1; with `attempts`, fixes each pick
    attempts: Type.Integer({ minimum: 0 }), // matching attempts it was tried on (picked or not)
    picked: Type.Integer({ minimum: 0 }), // of those, the attempts it decided
    outcome: StringEnum(OUTCOMES),
    types: Nullable(Type.Array(StringEnum(DELIVERY_TYPES))), // null: every type
    delaySeconds: Nullable(Type.Number()), // null: the carrier's default delay
    remaining: Nullable(Type.Integer({ minimum: 0 })), // deliveries it still applies to; null: unlimited
    answeredBy: StringEnum(['human', 'machine']), // calls: who answers (machine detection reports it)
    keys: Type.Array(Type.String()), // calls: entries at successive menu/record prompts
    hangupAfterSeconds: Nullable(Type.Number()), // calls: the callee hangs up this long after answering
    speakSeconds: Type.Integer({ minimum: 0 }), // calls: seconds the callee talks at a record prompt
    replies: Type.Array(ReplySchema), // calls: replies chosen by what the callee heard
    lines: Type.Optional(Type.Array(Type.String())), // agent calls: what the phone says in order when no reply matches
    createdAt: DateTime(),
  },
  { additionalProperties: false },
);
export type ScriptRow = Static<typeof ScriptRowSchema>;

/** A delivery row's schema; `owners` are the descriptors' `carrierOwners` (resources/index.ts). */
export const deliveryRowSchema = (owners: readonly string[]) => Type.Object(
  {
    id: Type.String(), // maps the delivery id (dl_1...) to one attempt
    accountId: Type.String(),
    owner: StringEnum(owners),
    ownerId: Type.String(), // the message or verification id
    type: StringEnum(DELIVERY_TYPES),
    from: Type.String(),
    to: Type.String(),
    subject: Nullable(Type.String()),
    content: Type.String(), // text of a message or what a call says; codes masked
    redacted: Type.Boolean(), // content carries a masked one-time code
    mediaUrl: Type.Array(Type.String()),
    outcome: StringEnum(OUTCOMES), // decided at submission
    status: StringEnum(['pending', ...OUTCOMES]), // pending until the outcome is due
    scriptId: Nullable(Type.String()), // the script that decided the outcome, if any
    callee: Nullable(CalleeSchema), // calls: how the answering phone behaves; null for texts
    submittedAt: DateTime(),
    dueAt: DateTime(),
    completedAt: Nullable(DateTime()),
  },
  { additionalProperties: false },
);
export type DeliveryRow = Static<ReturnType<typeof deliveryRowSchema>>;

/** The carrier's snapshot schema, for the carrier owners the list declares. */
export const carrierStateSchema = (owners: readonly string[]) => Type.Object(
  {
    scripts: Type.Array(ScriptRowSchema),
    deliveries: Type.Array(deliveryRowSchema(owners)), // those still pending, and every one in snapshots from before packedDeliveries
    packedDeliveries: Type.Optional(PackedTableSchema), // those whose outcome came (core/packed-transfer.ts), each checked against the row schema on restore
    lastScript: Type.Integer({ minimum: 0 }),
    lastDelivery: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type CarrierState = Static<ReturnType<typeof carrierStateSchema>>;

export interface SubmitInput {
  accountId: string;
  owner: Owner;
  ownerId: string;
  type: DeliveryType;
  from: string;
  to: string;
  subject?: string | null;
  /** The content as it may be stored and shown anywhere (a code masked). */
  content: string;
  mediaUrl?: string[];
  /** The real content with its one-time code, kept in memory only. */
  secret?: { content: string; code: string };
}

export interface ScriptInput {
  number?: string | null;
  prefix?: string | null;
  share?: number | null;
  outcome: Outcome;
  types?: DeliveryType[] | null;
  delaySeconds?: number | null;
  times?: number | null;
  answeredBy?: 'human' | 'machine' | null;
  keys?: string[] | null;
  hangupAfterSeconds?: number | null;
  speakSeconds?: number | null;
  replies?: { heard: string; keys: string; speakSeconds?: number | null; say?: string | null }[] | null;
  lines?: string[] | null;
}

/** What the carrier decided for one attempt. */
export interface Decision {
  outcome: Outcome;
  delaySeconds: number;
  scriptId: string | null;
  callee: Callee | null; // calls only
}

/** A call as the phone on one end lived it (from the calls model), for the phone view. */
export interface PhoneCall {
  callId: string;
  direction: 'outbound' | 'inbound';
  from: string;
  to: string;
  heard: string[]; // rendered say/hangup/prompt texts, in order
  entered: string[]; // the entry at each menu or record prompt; '' = none
  prompts: { heard: string; entered: string; answer: string }[]; // per prompt: what was heard since the last input, the entry, and what chose it
  answeredAt: string;
  /** Calls handled by an agent: the conversation, turn by turn (speaker, text, times in ms from the answer). */
  conversation?: { speaker: string; text: string | null; startMs: number; endMs: number; dtmf: string | null }[];
}

/** A reply as stored: `say` only when given (older snapshots have none). */
export function replyOf(r: { heard: string; keys: string; speakSeconds?: number | null; say?: string | null }): Reply {
  return { heard: r.heard, keys: r.keys, speakSeconds: r.speakSeconds ?? null, ...(r.say != null ? { say: r.say } : {}) };
}

