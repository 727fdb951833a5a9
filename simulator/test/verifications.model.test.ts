// Model-based test of the verification state machine (spec "States and transitions /
// Verification"): fast-check runs random sequences of create / check / cancel / advance-clock
// against the simulator and against the kit's reference model of the machine
// (conformance/properties/verification-machine.ts, which the kit's own model-based property also
// drives), and compares every verification's status and remaining attempts after each step.
// Refusals must change nothing.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createSimulator, type Simulator } from '../index.ts';
import { dispatch, DEFAULT_MAX_BODY_BYTES } from '../app.ts';
import type { SimResponse } from '../core/operation.ts';
import { ACME } from './helpers.ts';
import { runtimeOf } from '../internal.ts';
import {
  advanceVerifications,
  cancelVerification,
  checkVerification,
  codeArrived,
  createVerification,
  FAILING_NUMBER,
  MAGIC_OUTCOMES,
  MAX_ATTEMPTS,
  ORDINARY_OUTCOME,
  UNANSWERED_NUMBER,
  type DeliveryOutcome,
  type ModelVerification as MachineVerification,
  type VerificationChannel as Channel,
} from '../../conformance/properties/verification-machine.ts';

/** Destinations and what the carrier does with them (docs/control-plane.md, magic numbers). */
const PHONES: readonly { number: string; outcome: Record<Channel, DeliveryOutcome> }[] = [
  { number: '01011110001', outcome: ORDINARY_OUTCOME },
  { number: '01011110002', outcome: ORDINARY_OUTCOME },
  { number: FAILING_NUMBER, outcome: MAGIC_OUTCOMES[FAILING_NUMBER]! },
  { number: UNANSWERED_NUMBER, outcome: MAGIC_OUTCOMES[UNANSWERED_NUMBER]! },
];

interface ModelVerification extends MachineVerification {
  id: string;
  codeLength: number;
}

interface Model {
  /** Seconds since the property's simulator started. */
  now: number;
  vs: ModelVerification[];
}

interface Real {
  sim: Simulator;
}

const opts = { maxBodyBytes: DEFAULT_MAX_BODY_BYTES };

function request(sim: Simulator, method: string, url: string, body?: unknown): { status: number; json: any } {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (!url.startsWith('/_sim')) headers.authorization = `Bearer ${ACME.key}`;
  const res = dispatch(runtimeOf(sim), opts, { method, url, headers, body: body === undefined ? undefined : JSON.stringify(body) }) as SimResponse;
  return { status: res.status, json: res.body ? JSON.parse(res.body) : undefined };
}

function snapshot(sim: Simulator): string {
  return JSON.stringify(sim.snapshot());
}

function codeKnown(m: Model, v: ModelVerification): boolean {
  return codeArrived(v, m.now);
}

function readCode(sim: Simulator, v: ModelVerification): string {
  const phone = request(sim, 'GET', `/_sim/carrier/phones/${v.to}`).json;
  const entry = [...phone.messages, ...phone.calls].find((e: any) => e.verificationId === v.id);
  expect(entry, `code of ${v.id} on ${v.to}`).toBeDefined();
  return entry.code;
}

/** After every step, the simulator's verifications match the model exactly. */
function compare(m: Model, r: Real): void {
  const list = request(r.sim, 'GET', '/v2/verifications?pageSize=100').json;
  expect(list.meta.total).toBe(m.vs.length);
  const real = new Map<string, any>(list.data.map((v: any) => [v.verificationId, v]));
  for (const v of m.vs) {
    const got = real.get(v.id);
    expect({ id: v.id, status: got?.status, remaining: got?.remainingAttempts }).toEqual({ id: v.id, status: v.status, remaining: v.remaining });
  }
}

class CreateCommand implements fc.Command<Model, Real> {
  constructor(
    readonly phone: number,
    readonly channel: Channel,
    readonly ttlSeconds: number,
    readonly codeLength: number,
  ) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const to = PHONES[this.phone]!.number;
    const res = request(r.sim, 'POST', '/v2/verifications', { to, channel: this.channel, ttlSeconds: this.ttlSeconds, codeLength: this.codeLength });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ status: 'pending', remainingAttempts: MAX_ATTEMPTS, codeLength: this.codeLength, to });
    const outcome = PHONES[this.phone]!.outcome[this.channel];
    m.vs.push({ ...createVerification(m.now, to, this.channel, this.ttlSeconds, outcome), id: res.json.verificationId, codeLength: this.codeLength });
    compare(m, r);
  }
  toString = () => `create(${PHONES[this.phone]!.number}, ${this.channel}, ttl ${this.ttlSeconds}, ${this.codeLength} digits)`;
}

type CheckKind = 'right' | 'wrong' | 'badLength';

class CheckCommand implements fc.Command<Model, Real> {
  constructor(
    readonly index: number,
    readonly kind: CheckKind,
  ) {}
  private target(m: Model): ModelVerification | undefined {
    return m.vs.length === 0 ? undefined : m.vs[this.index % m.vs.length];
  }
  check(m: Model): boolean {
    const v = this.target(m);
    if (!v) return false;
    // A right or wrong code can be chosen only once the phone has it; any code is refused when finished.
    return this.kind === 'badLength' || v.status !== 'pending' || codeKnown(m, v);
  }
  run(m: Model, r: Real): void {
    const v = this.target(m)!;
    let code: string;
    if (this.kind === 'badLength') code = '1'.repeat(v.codeLength + 1);
    else if (!codeKnown(m, v)) code = '0'.repeat(v.codeLength);
    else {
      const real = readCode(r.sim, v);
      code = this.kind === 'right' ? real : real.replace(/^./, (d) => String((Number(d) + 1) % 10));
    }
    // The state before, as text, where the model says the check is refused (and the state must stay).
    const before = v.status !== 'pending' || this.kind === 'badLength' ? snapshot(r.sim) : undefined;
    const res = request(r.sim, 'POST', `/v2/verifications/${v.id}/check`, { code });
    if (v.status !== 'pending') {
      expect(res.status).toBe(409);
      expect(res.json).toMatchObject({ code: 'verification_not_pending', status: v.status });
      expect(snapshot(r.sim)).toBe(before);
    } else if (this.kind === 'badLength') {
      expect(res.status).toBe(400);
      expect(res.json.code).toBe('invalid_code_format');
      expect(snapshot(r.sim)).toBe(before);
    } else {
      expect(res.status).toBe(200);
      checkVerification(m.vs, v, this.kind === 'right');
      expect(res.json).toMatchObject({ status: v.status, remainingAttempts: v.remaining });
    }
    compare(m, r);
  }
  toString = () => `check(#${this.index}, ${this.kind})`;
}

class CancelCommand implements fc.Command<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Model) => m.vs.length > 0;
  run(m: Model, r: Real): void {
    const v = m.vs[this.index % m.vs.length]!;
    // The state before, as text, where the model (asked on a copy) says the cancel is refused.
    const before = cancelVerification({ ...v }) ? undefined : snapshot(r.sim);
    const res = request(r.sim, 'POST', `/v2/verifications/${v.id}/cancel`);
    if (cancelVerification(v)) {
      expect(res.status).toBe(200);
    } else {
      expect(res.status).toBe(409);
      expect(snapshot(r.sim)).toBe(before);
    }
    compare(m, r);
  }
  toString = () => `cancel(#${this.index})`;
}

class AdvanceCommand implements fc.Command<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  run(m: Model, r: Real): void {
    const res = request(r.sim, 'POST', '/_sim/clock/advance', { seconds: this.seconds });
    expect(res.status).toBe(200);
    m.now += this.seconds;
    advanceVerifications(m.vs, m.now);
    compare(m, r);
  }
  toString = () => `advance(${this.seconds}s)`;
}

const commands = [
  fc
    .tuple(fc.nat(PHONES.length - 1), fc.constantFrom<Channel>('sms', 'call'), fc.constantFrom(60, 90, 300), fc.integer({ min: 4, max: 10 }))
    .map(([p, c, ttl, len]) => new CreateCommand(p, c, ttl, len)),
  fc.tuple(fc.nat(50), fc.constantFrom<CheckKind>('right', 'wrong', 'wrong', 'badLength')).map(([i, k]) => new CheckCommand(i, k)),
  fc.nat(50).map((i) => new CancelCommand(i)),
  fc.constantFrom(0.5, 1, 2, 3, 5, 25, 30, 60, 120).map((s) => new AdvanceCommand(s)),
];

describe('verification state machine (model-based)', () => {
  it('create / check / cancel / advance agree with the model of the spec\'s transitions', () => {
    fc.assert(
      fc.property(fc.commands(commands, { maxCommands: 40, size: 'max' }), (cmds) => {
        const sim = createSimulator();
        fc.modelRun(() => ({ model: { now: 0, vs: [] }, real: { sim } }), cmds);
      }),
    );
  });
});
