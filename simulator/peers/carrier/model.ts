// The fake carrier and the phones behind it. Every outbound text (sms, lms, mms, ata), every
// call and every verification call is handed to the carrier, which decides the outcome at once (a script the
// test added, else a magic number, else success) and reports it on the virtual clock after a
// delay. Delivered items land on the destination phone, which tests read through the control
// plane. One-time codes are the exception to "all state is in the snapshot": the carrier keeps
// the plaintext only in memory, and a snapshot carries the content with the code masked
// (spec "Verification": the code is stored only as a hash).
import { Table, type TableOptions } from '../../core/store.ts';
import { packedState, tableFromPacked } from '../../core/packed-transfer.ts';
import { iso } from '../../core/clock.ts';
import { carrierErrors } from './errors.ts';
import { DEFAULT_SPEAK_SECONDS, DEFAULT_CALLEE, deliveryRowSchema, replyOf, type CarrierState, type Callee, type Decision, type DeliveryRow, type DeliveryType, type Outcome, type Owner, type PhoneCall, type ScriptInput, type ScriptRow, type SubmitInput } from './schema.ts';
import { MAGIC_BY_NUMBER, defaultDelaySeconds, picks } from './rules.ts';
import { OUTCOME_JOB, type CarrierModelScope } from './ports.ts';

interface Secret {
  ownerId: string;
  content: string;
  code: string;
}

/** Deliveries: one whose outcome has come is kept packed (core/packed-rows.ts), in snapshots too. */
const DELIVERY_TABLE_OPTIONS: TableOptions<DeliveryRow> = { packWhen: (d) => d.status !== 'pending' };

function deliveryTable(rows: readonly DeliveryRow[] = []): Table<DeliveryRow> {
  return new Table(rows, DELIVERY_TABLE_OPTIONS);
}

export class Carrier {
  private scripts = new Table<ScriptRow>();
  private deliveries = deliveryTable();
  private lastScript = 0; // the number in the last script id handed out
  private lastDelivery = 0; // the number in the last delivery id handed out
  private readonly secrets = new Map<string, Secret>(); // maps a delivery id to its plaintext; never in a snapshot
  private readonly listeners = new Map<Owner, (d: DeliveryRow) => void>(); // maps an owner to who hears its outcomes
  private callLog: (number: string) => PhoneCall[] = () => []; // the calls model tells what phones lived through
  private deliverySchema: ReturnType<typeof deliveryRowSchema> | undefined; // built at the first restore of packed deliveries

  constructor(private readonly rt: CarrierModelScope) {
    rt.jobs.on(OUTCOME_JOB, (p) => this.complete(p.deliveryId));
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
    const { rows, packed } = packedState(this.deliveries);
    return { scripts: [...this.scripts.all()], deliveries: rows, ...(packed === undefined ? {} : { packedDeliveries: packed }), lastScript: this.lastScript, lastDelivery: this.lastDelivery };
  }

  /** A part the runtime validated against the list's carrier owners (index.ts). */
  restore(s: CarrierState): void {
    this.scripts = new Table(s.scripts);
    // Packed deliveries are checked here, against the row schema of the list's carrier owners.
    this.deliveries =
      s.packedDeliveries === undefined
        ? deliveryTable(s.deliveries)
        : tableFromPacked(s.deliveries, s.packedDeliveries, (this.deliverySchema ??= deliveryRowSchema(this.rt.listed.carrierOwners)), 'carrier.packedDeliveries', DELIVERY_TABLE_OPTIONS);
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
    for (let pass = 0; pass < 2; pass++) {
      const byPrefix = pass === 1;
      for (const s of this.scripts.all()) {
        const matches = byPrefix ? s.prefix !== null && to.startsWith(s.prefix) : s.number === to;
        if (!matches || (s.types !== null && !s.types.includes(type)) || (s.remaining !== null && s.remaining <= 0)) continue;
        const picked = picks(s.salt, s.attempts, s.share);
        // The row's counters are changed in place (a copy per attempt was about 5 % of a batch
        // call's garbage): nothing keeps a script row across an attempt (a snapshot and a
        // checkpoint copy this part as JSON, the control plane answers views built from it, a
        // decision keeps the script's id and copies of its callee), and the replace still bumps
        // the table's version (docs/decisions.md "Scale", "The batch's CPU per call, seventh round").
        const live = s as { -readonly [K in keyof ScriptRow]: ScriptRow[K] };
        live.attempts = s.attempts + 1;
        if (picked) live.picked = s.picked + 1;
        if (picked && s.remaining !== null) live.remaining = s.remaining - 1;
        this.scripts.replace(live);
        if (picked) return live;
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
      mediaUrl: input.mediaUrl ? [...input.mediaUrl] : [],
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
    this.rt.jobs.schedule(OUTCOME_JOB, due, { deliveryId: row.id });
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
