// The transfer leg engine: starts legs (a call-flow `dial` block, or an agent / SIP REFER
// transfer through the control plane), lets the fake carrier decide the party that answers,
// moves each leg initiated -> ringing -> connected -> ended on the virtual clock, closes open
// legs when the call ends, and sends the `transfer` status callback. Legs live on the call row
// (`transfers`); what the wire shows of them is derived in transfers.ts.
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { iso } from '../../core/clock.ts';
import { ApiError } from '../../core/errors.ts';
import { normalizePhone } from '../../core/phone.ts';
import { StringEnum } from '../../core/schema.ts';
import type { Table } from '../../core/store.ts';
import type { CallsModelScope } from './ports.ts';
import { callIdentity } from './announce.ts';
import type { CallRow } from './schema.ts';
import { isEnded, legDuration, type LegStatus, type TransferLegRow, type TransferMode } from './transfers.ts';
import { WireDialers, wireEnding, type WireDialHandle } from './wire-dial.ts';

/** Seconds from starting a leg to its party's phone ringing. */
export const LEG_SETUP_SECONDS = 1;
/** Seconds a transferred party talks when its carrier script says nothing. */
export const LEG_TALK_SECONDS = 60;

/** How a leg ends: status and the codes it carries (docs/decisions.md "Transfers and call events"). */
interface LegEnd {
  status: LegStatus;
  q850: number | null;
  sip: number | null;
  reason: string | null;
}

export const LEG_ENDINGS = {
  completed: { status: 'completed', q850: 16, sip: 200, reason: null },
  'no-answer': { status: 'no-answer', q850: 19, sip: 480, reason: 'NO_ANSWER' },
  busy: { status: 'busy', q850: 17, sip: 486, reason: 'USER_BUSY' },
  rejected: { status: 'failed', q850: 21, sip: 603, reason: 'CALL_REJECTED' },
  failed: { status: 'failed', q850: 38, sip: 503, reason: 'NETWORK_OUT_OF_ORDER' },
  canceled: { status: 'canceled', q850: 16, sip: 487, reason: 'ORIGINATOR_CANCEL' },
  'invalid-number': { status: 'failed', q850: 28, sip: 484, reason: 'INVALID_NUMBER_FORMAT' },
  'no-route': { status: 'failed', q850: 3, sip: 404, reason: 'NO_ROUTE_DESTINATION' },
} as const satisfies Record<string, LegEnd>;
type EndingName = keyof typeof LEG_ENDINGS;
/** Where a simulated leg goes and when it connects and ends. */
type LegPlan = { to: string; connectAfter: number | null; endAfter: number; ending: EndingName };

/** The parts of the calls' scope the engine uses: the clock and its leg job, the carrier, the callbacks, the SIP routes. */
export type LegScope = Pick<CallsModelScope, 'clock' | 'jobs' | 'events' | 'carrier' | 'sipEndpoints'>;

export interface LegRequest {
  to: string;
  mode: TransferMode;
  timeoutSec: number;
  origin: 'dial' | 'control' | 'handler';
  context: string | null;
  /** A leg on the wire (wire-dial.ts) has no planned end: this hears its ended status when it ends. */
  onWireEnd?: (outcome: string) => void;
}

const legPhase = <N extends string, E extends TProperties = {}>(name: N, extra?: E) =>
  Type.Object({ callId: Type.String(), sequence: Type.Integer(), phase: Type.Literal(name), ...(extra ?? ({} as E)) }, { additionalProperties: false });

/** The 'calls.transferLeg' job: one move of one leg (its kind and payload are in snapshots). */
export const LegJobSchema = Type.Union([
  legPhase('ringing'),
  legPhase('connected'),
  legPhase('ended', { ending: StringEnum(Object.keys(LEG_ENDINGS) as EndingName[]) }),
  legPhase('lost'),
]);
type LegJob = Static<typeof LegJobSchema>;
type Phase = { phase: 'ringing' } | { phase: 'connected' } | { phase: 'ended'; ending: EndingName } | { phase: 'lost' };

/** The host part of a SIP URI (`sip:[user@]host[:port][;params]`), lowercased with its port. */
export function sipHostOf(uri: string): string | null {
  const m = /^sips?:(?:[^@]*@)?([^;?]+)/i.exec(uri.trim());
  return m ? m[1]!.toLowerCase() : null;
}

export class TransferLegs {
  /** Told when a leg connects or ends on the clock (a call's handler hears its own legs: handled.ts). */
  onMoved: (row: CallRow, leg: TransferLegRow) => void = () => undefined;
  /** The dialer that rings SIP URIs on the wire, when a SIP listener registered one (wire-dial.ts). */
  readonly wire = new WireDialers();
  /** Legs ringing or talking on the wire ("callId sequence"): live, like the SIP dialogs. */
  private readonly onWire = new Map<string, { handle: WireDialHandle | undefined; onEnd: ((outcome: string) => void) | undefined }>();

  constructor(
    private readonly rt: LegScope,
    private readonly calls: () => Table<CallRow>,
  ) {
    rt.jobs.on('calls.transferLeg', (p) => this.phase(p));
  }

  /** URIs of the account's active routes of active SIP endpoints. */
  private sipRoutes(accountId: string): string[] {
    const sip = this.rt.sipEndpoints;
    return sip.listFor(accountId, 'active').flatMap((e) => sip.routesOf(e.id).filter((r) => r.status === 'active').map((r) => r.uri));
  }

  /**
   * Starts a leg on `row` (which the caller stores) and schedules its progression. Returns the
   * row with the leg and the seconds until the leg ends, and how it will end; a leg on the wire
   * returns seconds null (its end is told to `req.onWireEnd`).
   */
  start(row: CallRow, req: LegRequest): { row: CallRow; leg: TransferLegRow; seconds: number | null; outcome: string } {
    const now = this.rt.clock.now();
    const target = req.to.trim();
    const sip = /^sips?:/i.test(target);
    const legs = row.transfers ?? [];
    const sequence = legs.length + 1;
    const leg: TransferLegRow = {
      sequence,
      to: target,
      mode: req.mode,
      destinationType: sip ? 'sip' : 'pstn',
      status: 'initiated',
      hangupCauseQ850: null,
      sipResponseCode: null,
      reasonText: null,
      startedAt: iso(now),
      connectedAt: null,
      endedAt: null,
      origin: req.origin,
      context: req.context,
    };
    const wired = sip ? this.dialWire(row, leg, req) : undefined;
    if (wired === 'dialing') {
      const next: CallRow = { ...row, transfers: [...legs, leg] };
      this.callback(next, leg);
      return { row: next, leg, seconds: null, outcome: 'wire' };
    }
    const plan = wired ?? this.plan(row.accountId, leg, req.timeoutSec);
    leg.to = plan.to; // normalised; the leg is not stored yet
    const next: CallRow = { ...row, transfers: [...legs, leg] };
    const job = (seconds: number, phase: Phase) =>
      this.rt.jobs.schedule('calls.transferLeg', now + Math.round(seconds * 1000), { callId: row.id, sequence, ...phase });
    if (plan.connectAfter === null) {
      if (plan.endAfter > 0) job(Math.min(LEG_SETUP_SECONDS, plan.endAfter), { phase: 'ringing' });
      job(plan.endAfter, { phase: 'ended', ending: plan.ending });
    } else {
      job(Math.min(LEG_SETUP_SECONDS, plan.connectAfter), { phase: 'ringing' });
      job(plan.connectAfter, { phase: 'connected' });
      job(plan.endAfter, { phase: 'ended', ending: 'completed' });
    }
    this.callback(next, leg);
    return { row: next, leg, seconds: plan.endAfter, outcome: plan.connectAfter === null ? LEG_ENDINGS[plan.ending].status : 'completed' };
  }

  /**
   * The platform lost an open leg (control plane): it is `interrupted` now, no longer follows its
   * carrier plan, and ends `failed` after `failAfterSeconds` (null: when the call ends).
   * Returns the row to store, or the reason the leg cannot be interrupted.
   */
  interrupt(row: CallRow, sequence: number, failAfterSeconds: number | null): { row: CallRow; leg: TransferLegRow } | { refused: string } {
    const legs = row.transfers ?? [];
    const leg = legs.find((l) => l.sequence === sequence);
    if (!leg) return { refused: `call ${row.id} has no transfer leg ${sequence}` };
    if (isEnded(leg.status) || leg.status === 'interrupted') return { refused: `transfer leg ${sequence} of call ${row.id} is ${leg.status}; only an open leg can be interrupted` };
    if (leg.origin !== 'control') return { refused: `transfer leg ${sequence} of call ${row.id} belongs to a dial block, whose flow waits on the leg's planned end; only control-plane legs can be interrupted` };
    const lost = LEG_ENDINGS.failed; // the codes of the failure it becomes (docs/decisions.md)
    const changed: TransferLegRow = { ...leg, status: 'interrupted', hangupCauseQ850: lost.q850, sipResponseCode: lost.sip, reasonText: lost.reason };
    this.dropWire(row.id, sequence, true); // a leg on the wire is let go too
    const next: CallRow = { ...row, transfers: legs.map((l) => (l === leg ? changed : l)) };
    if (failAfterSeconds !== null) {
      const at = this.rt.clock.now() + Math.round(failAfterSeconds * 1000);
      this.rt.jobs.schedule('calls.transferLeg', at, { callId: row.id, sequence, phase: 'lost' });
    }
    this.callback(next, changed);
    return { row: next, leg: changed };
  }

  /** The call ends: legs still ringing are canceled, connected ones complete now, interrupted ones fail. */
  closeOpen(row: CallRow): CallRow {
    this.dropWire(row.id, 0, true); // a VoiceML dial on the wire
    const legs = row.transfers ?? [];
    if (!legs.some((l) => !isEnded(l.status))) return row;
    const at = this.rt.clock.nowIso();
    const closing = (l: TransferLegRow): EndingName => (l.status === 'interrupted' ? 'failed' : l.connectedAt === null ? 'canceled' : 'completed');
    for (const l of legs) if (!isEnded(l.status)) this.dropWire(row.id, l.sequence, true);
    const closed = legs.map((l) => (isEnded(l.status) ? l : this.ended(l, closing(l), at)));
    const next: CallRow = { ...row, transfers: closed };
    closed.forEach((l, i) => {
      if (l !== legs[i]) this.callback(next, l);
    });
    return next;
  }

  /**
   * A SIP leg rings on the wire when a dialer is registered and an active route of the account
   * has the URI's host (else plan() fails it as no-route): 'dialing'; a target the dialer cannot
   * reach fails at once as no-route; undefined without a listener (the simulated plan applies).
   */
  private dialWire(row: CallRow, leg: TransferLegRow, req: LegRequest): 'dialing' | LegPlan | undefined {
    const dialer = this.wire.get();
    const host = sipHostOf(leg.to!);
    if (!dialer?.online() || host === null || !this.sipRoutes(row.accountId).some((uri) => sipHostOf(uri) === host)) return undefined;
    const { id: callId } = row;
    const { sequence } = leg;
    const got = dialer.dial(
      { callId, accountId: row.accountId, from: row.from, uri: leg.to!, timeoutSec: req.timeoutSec },
      {
        ringing: () => this.wireMoved(callId, sequence, 'ringing'),
        answered: () => this.wireMoved(callId, sequence, 'connected'),
        ended: (code) => this.wireMoved(callId, sequence, code),
      },
    );
    if ('offline' in got) return undefined;
    if ('unreachable' in got) return { to: leg.to!, connectAfter: null, endAfter: 0, ending: 'no-route' };
    this.onWire.set(`${callId} ${sequence}`, { handle: got, onEnd: req.onWireEnd });
    return 'dialing';
  }

  /**
   * VoiceML `<Dial><Sip>` on the wire: no leg is recorded (the guides), but the device rings as a
   * dial block's would; `onEnd` hears the outcome word and the seconds talked. 'no-route' when no
   * active route has the URI's host or the dialer cannot reach it; undefined without a listener.
   */
  dialVoiceMl(row: CallRow, uri: string, timeoutSec: number, onEnd: (outcome: string, talkSeconds: number) => void): 'dialing' | 'no-route' | undefined {
    const dialer = this.wire.get();
    if (!dialer?.online()) return undefined;
    const host = sipHostOf(uri);
    if (host === null || !this.sipRoutes(row.accountId).some((u) => sipHostOf(u) === host)) return 'no-route';
    const key = `${row.id} 0`; // sequence 0: the call's VoiceML dial, never a leg
    let answeredAt: number | null = null;
    const got = dialer.dial(
      { callId: row.id, accountId: row.accountId, from: row.from, uri: uri.trim(), timeoutSec },
      {
        ringing: () => undefined,
        answered: () => void (answeredAt = this.rt.clock.now()),
        ended: (code) => {
          if (!this.onWire.delete(key)) return;
          const talked = answeredAt === null ? 0 : Math.round((this.rt.clock.now() - answeredAt) / 1000);
          onEnd(wireEnding(answeredAt === null ? code : 200).outcome, talked);
        },
      },
    );
    if ('offline' in got) return undefined;
    if ('unreachable' in got) return 'no-route';
    this.onWire.set(key, { handle: got, onEnd: undefined });
    return 'dialing';
  }

  /** A leg on the wire moved: ringing (no callback, as planned legs), connected, or ended with its SIP code. */
  private wireMoved(callId: string, sequence: number, what: 'ringing' | 'connected' | number): void {
    const key = `${callId} ${sequence}`;
    const entry = this.onWire.get(key);
    const rows = this.calls();
    const row = rows.get(callId);
    const legs = row?.transfers ?? [];
    const leg = legs.find((l) => l.sequence === sequence);
    if (!entry || !row || !leg || isEnded(leg.status) || leg.status === 'interrupted') return void this.onWire.delete(key);
    const at = this.rt.clock.nowIso();
    let changed: TransferLegRow;
    let outcome: string | undefined;
    if (what === 'ringing') {
      if (leg.status !== 'initiated') return;
      changed = { ...leg, status: 'ringing' };
    } else if (what === 'connected') changed = { ...leg, status: 'connected', connectedAt: at };
    else {
      this.onWire.delete(key);
      const code = leg.connectedAt !== null ? 200 : what;
      const e = wireEnding(code);
      outcome = e.status; // as a planned leg's outcome (a 603 reads failed)
      changed = { ...leg, status: e.status, hangupCauseQ850: e.q850, sipResponseCode: code, reasonText: e.reason, endedAt: at };
    }
    const next = rows.replace({ ...row, transfers: legs.map((l) => (l === leg ? changed : l)) });
    if (what === 'ringing') return;
    this.callback(next, changed);
    this.onMoved(next, changed);
    if (outcome !== undefined) entry.onEnd?.(outcome);
  }

  /** Forgets a leg on the wire; `hangUp` lets the device go (CANCEL or BYE). */
  private dropWire(callId: string, sequence: number, hangUp: boolean): void {
    // Every call's end asks (closeOpen): with no leg on the wire no key is built.
    if (this.onWire.size === 0) return;
    const key = `${callId} ${sequence}`;
    const entry = this.onWire.get(key);
    this.onWire.delete(key);
    if (hangUp) entry?.handle?.hangUp();
  }

  /** Legs on the wire are live state: a reset or restored snapshot forgets them (their devices are let go). */
  forgetWire(): void {
    for (const entry of this.onWire.values()) entry.handle?.hangUp();
    this.onWire.clear();
  }

  /** Where the leg goes and when it connects and ends, decided now (the carrier's script is used up now). */
  private plan(accountId: string, leg: TransferLegRow, timeoutSec: number): LegPlan {
    let dialed: string;
    if (leg.destinationType === 'sip') {
      const host = sipHostOf(leg.to!);
      const routed = host !== null && this.sipRoutes(accountId).some((uri) => sipHostOf(uri) === host);
      if (!routed) return { to: leg.to!, connectAfter: null, endAfter: 0, ending: 'no-route' };
      // The carrier decides the party behind a SIP URI by its user part when that is a number.
      const user = /^sips?:([^@]+)@/i.exec(leg.to!)?.[1];
      dialed = user !== undefined && tryPhone(user) !== null ? tryPhone(user)! : leg.to!;
    } else {
      const phone = tryPhone(leg.to!);
      if (phone === null) return { to: leg.to!, connectAfter: null, endAfter: 0, ending: 'invalid-number' };
      dialed = phone;
    }
    // A number leg shows the number as stored (domestic notation); a SIP leg its URI.
    const to = leg.destinationType === 'pstn' ? dialed : leg.to!;
    const decision = this.rt.carrier.decide(dialed, 'call', timeoutSec);
    if (decision.outcome !== 'delivered') return { to, connectAfter: null, endAfter: decision.delaySeconds, ending: decision.outcome };
    const talk = decision.callee?.hangupAfterSeconds ?? LEG_TALK_SECONDS;
    return { to, connectAfter: decision.delaySeconds, endAfter: decision.delaySeconds + talk, ending: 'completed' };
  }

  private phase(p: LegJob): void {
    const rows = this.calls();
    const row = rows.get(p.callId);
    const legs = row?.transfers ?? [];
    const leg = legs.find((l) => l.sequence === p.sequence);
    if (!row || !leg || isEnded(leg.status)) return; // the call ended first and closed the leg
    // An interrupted leg no longer follows its carrier plan; only its own 'lost' job ends it.
    if ((leg.status === 'interrupted') !== (p.phase === 'lost')) return;
    const at = this.rt.clock.nowIso();
    let changed: TransferLegRow;
    if (p.phase === 'ringing') changed = { ...leg, status: 'ringing' };
    else if (p.phase === 'connected') changed = { ...leg, status: 'connected', connectedAt: at };
    else if (p.phase === 'lost') changed = this.ended(leg, 'failed', at);
    else changed = this.ended(leg, p.ending, at);
    const next = rows.replace({ ...row, transfers: legs.map((l) => (l === leg ? changed : l)) });
    if (p.phase !== 'ringing') {
      this.callback(next, changed);
      this.onMoved(next, changed);
    }
  }

  private ended(leg: TransferLegRow, ending: EndingName, at: string): TransferLegRow {
    const e = LEG_ENDINGS[ending];
    return { ...leg, status: e.status, hangupCauseQ850: e.q850, sipResponseCode: e.sip, reasonText: e.reason, endedAt: at };
  }

  /**
   * The `transfer` status callback (guides, call transfers): sent for the leg's start, connect
   * and end when the call's StatusCallbackEvent lists `transfer`; no CallStatus.
   */
  private callback(row: CallRow, leg: TransferLegRow): void {
    if (row.statusCallback === null || !row.statusCallbackEvents.includes('transfer')) return;
    const now = this.rt.clock.now();
    this.rt.events.emit('call.status', { accountId: row.accountId, resourceId: row.id, at: now, payload: transferPayload(row, leg, iso(now)) });
  }
}

export function transferPayload(row: CallRow, leg: TransferLegRow, timestamp: string): Record<string, string> {
  const payload: Record<string, string> = {
    ...callIdentity(row),
    StatusCallbackEvent: 'transfer',
    Timestamp: timestamp,
    TransferStatus: leg.status,
    TransferSequence: String(leg.sequence),
    TransferTo: leg.to ?? '',
    TransferMode: leg.mode,
  };
  if (isEnded(leg.status)) payload.TransferDuration = String(legDuration(leg) ?? 0);
  if (leg.reasonText !== null) payload.TransferReason = leg.reasonText;
  if (leg.context !== null) payload.TransferContext = leg.context;
  return payload;
}

function tryPhone(raw: string): string | null {
  try {
    return normalizePhone(raw, 'to');
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
}
