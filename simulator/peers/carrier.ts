// The fake carrier and the phones behind it. Every outbound text (sms, lms, mms, ata) and every
// verification call is handed to the carrier, which decides the outcome at once (a script the
// test added, else a magic number, else success) and reports it on the virtual clock after a
// delay. Delivered items land on the destination phone, which tests read through the control
// plane. One-time codes are the exception to "all state is in the snapshot": the carrier keeps
// the plaintext only in memory, and a snapshot carries the content with the code masked
// (spec "Verification": the code is stored only as a hash).
import { Type, type Static } from '@sinclair/typebox';
import { Table } from '../core/store.ts';
import { ApiError, defineError } from '../core/errors.ts';
import { iso } from '../core/clock.ts';
import { DateTime, Nullable, StringEnum, validate } from '../core/schema.ts';
import type { Kernel } from '../core/ports.ts';

export const DELIVERY_TYPES = ['sms', 'lms', 'mms', 'ata', 'bms', 'call'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

/** What the carrier can make of a delivery. Texts know only delivered and failed. */
export const OUTCOMES = ['delivered', 'failed', 'no-answer', 'busy', 'rejected'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Who handed the delivery over and hears its outcome: one of the descriptors' `carrierOwners`. */
export type Owner = string;

export const carrierErrors = {
  SCRIPT_NOT_FOUND: defineError({
    code: 'carrier_script_not_found', status: 404, origin: 'simulator',
    description: 'Control plane: no carrier script with this id.',
  }),
};

/**
 * A reply by what was heard (issue 20): `heard` is a case-insensitive regular expression; `say`
 * is what the phone says with it in calls handled by an agent (docs/agents.md "Phones that talk").
 */
export const ReplySchema = Type.Object(
  { heard: Type.String(), keys: Type.String(), speakSeconds: Nullable(Type.Integer({ minimum: 0 })), say: Type.Optional(Nullable(Type.String())) },
  { additionalProperties: false },
);
export type Reply = Static<typeof ReplySchema>;

/** A quantified group that itself holds a quantifier, e.g. (a+)+ or (\w*)*: backtracking can run away. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*(?:[+*]|\{\d+,?\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d+,?\d*\})/;

/** Refuses reply patterns that do not compile or could run away (issue 20 "Bad input"). */
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

/** How the callee behaves once a call is answered (scripts that decide calls; issue 10 contract). */
export const CalleeSchema = Type.Object(
  {
    answeredBy: StringEnum(['human', 'machine']), // what machine detection reports
    keys: Type.Array(Type.String()), // what the callee enters at each successive menu or record prompt; '' = no input
    hangupAfterSeconds: Nullable(Type.Number()), // the callee hangs up this long after answering; null: never
    speakSeconds: Type.Integer({ minimum: 0 }), // how long the callee talks at each record prompt
    // issue 20: at a prompt, the first reply whose `heard` pattern matches what was said since the last input answers it
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
    prefix: Nullable(Type.String()), // issue 20: the destinations starting with these digits; null: a number script
    share: Type.Number({ exclusiveMinimum: 0, maximum: 1 }), // issue 20: the share of matching attempts it decides
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
const deliveryRowSchema = (owners: readonly string[]) => Type.Object(
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
    deliveries: Type.Array(deliveryRowSchema(owners)),
    lastScript: Type.Integer({ minimum: 0 }),
    lastDelivery: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type CarrierState = Static<ReturnType<typeof carrierStateSchema>>;

/** Numbers that behave the same way every time, so every outcome is reachable without scripting. */
export interface MagicNumber {
  number: string;
  description: string;
  outcomes: Record<DeliveryType, Outcome>;
  delaySeconds: number | null;
}

function magic(number: string, description: string, text: Outcome, ata: Outcome, call: Outcome, delaySeconds: number | null = null): MagicNumber {
  // Brand messages (bms) travel the messenger like ata messages, so they share its outcome.
  return { number, description, outcomes: { sms: text, lms: text, mms: text, ata, bms: ata, call }, delaySeconds };
}

export const MAGIC_NUMBERS: readonly MagicNumber[] = [
  magic('01000000400', 'Every delivery fails: messages end failed, calls fail.', 'failed', 'failed', 'failed'),
  magic('01000000408', 'Slow network: every delivery succeeds, one hour late.', 'delivered', 'delivered', 'delivered', 3600),
  magic('01000000410', 'Not a KakaoTalk user: ata messages fail (their fallback text is sent), brand (bms) messages fail; texts and calls succeed.', 'delivered', 'failed', 'delivered'),
  magic('01000000480', 'Never answers: calls end no-answer; messages are delivered.', 'delivered', 'delivered', 'no-answer'),
  magic('01000000486', 'Always busy: calls end busy; messages are delivered.', 'delivered', 'delivered', 'busy'),
];
const MAGIC_BY_NUMBER = new Map(MAGIC_NUMBERS.map((m) => [m.number, m]));

/** Seconds from hand-over to outcome when neither a script nor a magic number says otherwise. */
export function defaultDelaySeconds(type: DeliveryType, outcome: Outcome): number {
  if (type !== 'call') return 2;
  return outcome === 'no-answer' ? 30 : 5; // a call rings before it is answered or given up
}

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

interface Secret {
  ownerId: string;
  content: string;
  code: string;
}

/** The carrier needs the virtual clock, and the seeded random for the salt of a share script. */
export type CarrierPorts = Pick<Kernel, 'clock' | 'random'>;

/** A reply as stored: `say` only when given (older snapshots have none). */
export function replyOf(r: { heard: string; keys: string; speakSeconds?: number | null; say?: string | null }): Reply {
  return { heard: r.heard, keys: r.keys, speakSeconds: r.speakSeconds ?? null, ...(r.say != null ? { say: r.say } : {}) };
}

/**
 * Whether attempt `attempt` of a script with this salt falls in its share: a 32-bit mix of salt
 * and counter (murmur3's finaliser), so a pick needs no state beyond the script's own counter.
 */
export function picks(salt: number, attempt: number, share: number): boolean {
  if (share >= 1) return true;
  let h = (salt ^ Math.imul(attempt + 1, 0x9e3779b9)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296 < share;
}

/**
 * A script prefix in domestic notation: separators removed, +82 / 0082 turned into the trunk 0
 * (as numbers are); anything but digits left is refused.
 */
export function normalizePrefix(input: string, field = 'prefix'): string {
  let digits = input.trim().replace(/[\s\-().]/g, '');
  const international = /^(\+|00)82/.exec(digits);
  if (international) digits = '0' + digits.slice(international[0].length).replace(/^0/, '');
  if (!/^\d+$/.test(digits)) {
    throw ApiError.validation(`${field} "${input}" is not a number prefix: after removing separators only digits (and a leading +82) may remain`, [{ path: field, message: 'digits only' }]);
  }
  return digits;
}

/** Deliveries: one whose outcome has come is kept packed (packed-rows.ts). */
function deliveryTable(rows: readonly DeliveryRow[] = []): Table<DeliveryRow> {
  return new Table(rows, { packWhen: (d) => d.status !== 'pending' });
}

export class Carrier {
  private scripts = new Table<ScriptRow>();
  private deliveries = deliveryTable();
  private lastScript = 0; // the number in the last script id handed out
  private lastDelivery = 0; // the number in the last delivery id handed out
  private readonly secrets = new Map<string, Secret>(); // maps a delivery id to its plaintext; never in a snapshot
  private readonly listeners = new Map<Owner, (d: DeliveryRow) => void>(); // maps an owner to who hears its outcomes
  private callLog: (number: string) => PhoneCall[] = () => []; // the calls model tells what phones lived through

  private readonly stateSchema: ReturnType<typeof carrierStateSchema>;

  /** `owners`: the descriptors' `carrierOwners`, the only owners a restored delivery may name. */
  constructor(
    private readonly rt: CarrierPorts,
    owners: readonly string[],
  ) {
    this.stateSchema = carrierStateSchema(owners);
    rt.clock.on('carrier.outcome', (p: { deliveryId: string }) => this.complete(p.deliveryId));
  }

  /** The model that owns deliveries of this kind registers here once, in its constructor. */
  onOutcome(owner: Owner, listener: (d: DeliveryRow) => void): void {
    this.listeners.set(owner, listener);
  }

  /** The calls model registers here: the answered calls a phone took part in, newest first. */
  onPhoneCalls(log: (number: string) => PhoneCall[]): void {
    this.callLog = log;
  }

  clear(): void {
    this.scripts = new Table();
    this.deliveries = deliveryTable();
    this.lastScript = 0;
    this.lastDelivery = 0;
    this.secrets.clear();
  }

  snapshot(): CarrierState {
    return { scripts: [...this.scripts.all()], deliveries: [...this.deliveries.all()], lastScript: this.lastScript, lastDelivery: this.lastDelivery };
  }

  restore(state: unknown): void {
    validate(this.stateSchema, state, 'snapshot carrier', 'carrier');
    const s = state as CarrierState;
    this.scripts = new Table(s.scripts);
    this.deliveries = deliveryTable(s.deliveries);
    this.lastScript = s.lastScript;
    this.lastDelivery = s.lastDelivery;
    // Codes this process still knows stay readable when the same delivery is in the restored
    // state (a rolled-back restore, or a snapshot of this run); any other code stays masked.
    for (const [id, secret] of this.secrets) {
      if (this.deliveries.get(id)?.ownerId !== secret.ownerId) this.secrets.delete(id);
    }
  }

  // --- scripts ---

  addScript(input: ScriptInput): ScriptRow {
    const share = input.share ?? 1;
    const row: ScriptRow = {
      id: `cs_${this.lastScript + 1}`,
      number: input.number ?? null,
      prefix: input.number == null ? (input.prefix ?? null) : null,
      share,
      // Drawn only for a share script, so scripts without one leave the random sequence (and ids) as they were.
      salt: share < 1 ? this.rt.random.uint32() : 0,
      attempts: 0,
      picked: 0,
      outcome: input.outcome,
      types: input.types && input.types.length > 0 ? [...new Set(input.types)] : null,
      delaySeconds: input.delaySeconds ?? null,
      remaining: input.times ?? null,
      answeredBy: input.answeredBy ?? 'human',
      keys: [...(input.keys ?? [])],
      hangupAfterSeconds: input.hangupAfterSeconds ?? null,
      speakSeconds: input.speakSeconds ?? DEFAULT_SPEAK_SECONDS,
      replies: (input.replies ?? []).map(replyOf),
      lines: [...(input.lines ?? [])],
      createdAt: this.rt.clock.nowIso(),
    };
    this.lastScript++;
    return this.scripts.insert(row);
  }

  listScripts(): readonly ScriptRow[] {
    return this.scripts.all();
  }

  removeScript(id: string): void {
    if (!this.scripts.delete(id)) throw carrierErrors.SCRIPT_NOT_FOUND(`no carrier script ${id}`);
  }

  clearScripts(): void {
    this.scripts = new Table();
  }

  // --- deliveries ---

  /**
   * Decides the outcome of one attempt to `to` (a script the test added, else a magic number,
   * else success) and uses up one of the script's `times`. Calls ring at most `ringLimitSeconds`:
   * an unanswered call ends no-answer then.
   */
  decide(to: string, type: DeliveryType, ringLimitSeconds?: number): Decision {
    const script = this.scriptFor(to, type);
    const special = script ? undefined : MAGIC_BY_NUMBER.get(to);
    let outcome: Outcome = script?.outcome ?? special?.outcomes[type] ?? 'delivered';
    if (type !== 'call' && outcome !== 'delivered') outcome = 'failed'; // a text is not "busy"
    let delaySeconds = script?.delaySeconds ?? special?.delaySeconds ?? defaultDelaySeconds(type, outcome);
    if (type === 'call' && ringLimitSeconds !== undefined) {
      if (outcome === 'no-answer' && script?.delaySeconds == null && special?.delaySeconds == null) delaySeconds = ringLimitSeconds;
      if ((outcome === 'delivered' || outcome === 'no-answer') && delaySeconds > ringLimitSeconds) {
        outcome = 'no-answer';
        delaySeconds = ringLimitSeconds;
      }
    }
    const callee: Callee | null =
      type !== 'call'
        ? null
        : script
          ? { answeredBy: script.answeredBy, keys: [...script.keys], hangupAfterSeconds: script.hangupAfterSeconds, speakSeconds: script.speakSeconds, replies: script.replies.map((r) => ({ ...r })), lines: [...(script.lines ?? [])] }
          : { ...DEFAULT_CALLEE, keys: [], replies: [] };
    return { outcome, delaySeconds, scriptId: script?.id ?? null, callee };
  }

  /**
   * The script that decides this attempt: number scripts, then prefix scripts, each in listed
   * order; a matching script that is not used up draws its pick (counted in `attempts`), and the
   * first one picked decides (counted in `picked`, one of its `times` used). O(number of scripts).
   */
  private scriptFor(to: string, type: DeliveryType): ScriptRow | undefined {
    for (const byPrefix of [false, true]) {
      for (const s of this.scripts.all()) {
        const matches = byPrefix ? s.prefix !== null && to.startsWith(s.prefix) : s.number === to;
        if (!matches || (s.types !== null && !s.types.includes(type)) || (s.remaining !== null && s.remaining <= 0)) continue;
        const picked = picks(s.salt, s.attempts, s.share);
        const next: ScriptRow = {
          ...s,
          attempts: s.attempts + 1,
          picked: s.picked + (picked ? 1 : 0),
          remaining: picked && s.remaining !== null ? s.remaining - 1 : s.remaining,
        };
        this.scripts.replace(next);
        if (picked) return next;
      }
    }
    return undefined;
  }

  /** Hands a delivery over; the outcome is decided now and reported when it falls due. */
  submit(input: SubmitInput, decision: Decision = this.decide(input.to, input.type)): DeliveryRow {
    const { outcome, delaySeconds } = decision;
    const now = this.rt.clock.now();
    const due = now + Math.round(delaySeconds * 1000);
    const row: DeliveryRow = {
      id: `dl_${this.lastDelivery + 1}`,
      accountId: input.accountId,
      owner: input.owner,
      ownerId: input.ownerId,
      type: input.type,
      from: input.from,
      to: input.to,
      subject: input.subject ?? null,
      content: input.content,
      redacted: input.secret !== undefined,
      mediaUrl: [...(input.mediaUrl ?? [])],
      outcome,
      status: 'pending',
      scriptId: decision.scriptId,
      callee: decision.callee,
      submittedAt: iso(now),
      dueAt: iso(due),
      completedAt: null,
    };
    this.lastDelivery++;
    this.deliveries.insert(row);
    if (input.secret) this.secrets.set(row.id, { ownerId: input.ownerId, ...input.secret });
    this.rt.clock.schedule('carrier.outcome', due, { deliveryId: row.id });
    return row;
  }

  private complete(deliveryId: string): void {
    const row = this.deliveries.get(deliveryId);
    if (!row || row.status !== 'pending') return;
    const done = this.deliveries.replace({ ...row, status: row.outcome, completedAt: this.rt.clock.nowIso() });
    this.listeners.get(row.owner)?.(done);
  }

  /** Every attempt, newest first; contents always masked (the phone view shows codes). */
  listDeliveries(filter: { number?: string; status?: string } = {}): DeliveryRow[] {
    return this.deliveries.newestFirst(
      (d) => (filter.number === undefined || d.to === filter.number) && (filter.status === undefined || d.status === filter.status),
    );
  }

  /** What the phone at `number` has received: delivered texts and answered calls, newest first. */
  phone(number: string) {
    const delivered = this.deliveries.newestFirst((d) => d.to === number && d.status === 'delivered');
    const secretOf = (d: DeliveryRow) => this.secrets.get(d.id);
    const ref = (d: DeliveryRow, owner: Owner) => (d.owner === owner ? d.ownerId : null);
    return {
      number,
      messages: delivered
        .filter((d) => d.type !== 'call')
        .map((d) => ({
          deliveryId: d.id,
          messageId: ref(d, 'message'),
          verificationId: ref(d, 'verification'),
          from: d.from,
          type: d.type,
          subject: d.subject,
          body: secretOf(d)?.content ?? d.content,
          mediaUrl: d.mediaUrl,
          code: secretOf(d)?.code ?? null,
          receivedAt: d.completedAt!,
        })),
      calls: [
        ...delivered
          .filter((d) => d.type === 'call' && d.owner === 'verification')
          .map((d) => ({
            deliveryId: d.id as string | null,
            verificationId: ref(d, 'verification'),
            callId: null as string | null,
            direction: 'outbound' as 'outbound' | 'inbound',
            from: d.from,
            to: d.to,
            heard: secretOf(d)?.content ?? d.content,
            texts: [secretOf(d)?.content ?? d.content],
            entered: [] as string[],
            prompts: [] as { heard: string; entered: string; answer: string }[],
            code: secretOf(d)?.code ?? null,
            answeredAt: d.completedAt!,
          })),
        ...this.callLog(number).map((c) => ({
          deliveryId: null,
          verificationId: null,
          callId: c.callId,
          direction: c.direction,
          from: c.from,
          to: c.to,
          heard: c.heard.join('\n'),
          texts: c.heard,
          entered: c.entered,
          prompts: c.prompts,
          code: null,
          answeredAt: c.answeredAt,
          ...(c.conversation ? { conversation: c.conversation } : {}),
        })),
      ].sort((a, b) => (a.answeredAt < b.answeredAt ? 1 : a.answeredAt > b.answeredAt ? -1 : 0)),
    };
  }
}
