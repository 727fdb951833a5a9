// Model-based test of the verification state machine (spec "States and transitions /
// Verification") over the API, with the reference model of verification-machine.ts (which the
// simulator's own model test shares): fast-check
// runs random sequences of create, check (right, wrong and malformed codes), cancel, advance the
// clock, get and list in a fresh account, against a model of the machine; every refusal is
// followed by a read showing it changed nothing. Codes are read from the phone through the
// carrier control plane, the only place they appear.
//
// Levels: what follows from the actions alone (pending, verified, canceled, max_attempts, the
// attempts left, expiry once ttlSeconds have clearly passed) is the spec's. The carrier's delays
// (when a failing delivery fails), expiry at exactly createdAt + ttlSeconds, expiry winning a tie
// with a failure, and anything decided while one of those was pending, are the simulator's.
import fc from 'fast-check';
import { generatedProperty, type CaseContext, type RawStep } from './harness.ts';
import type { PropertyDef } from './types.ts';
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
  type ModelVerification,
  type VerificationChannel as Channel,
  type VerificationStatus as Status,
} from './verification-machine.ts';

/** Destinations: two ordinary phones of the case, and two documented magic numbers. */
const DESTINATIONS: readonly { slot?: number; number?: string; outcome: Record<Channel, DeliveryOutcome> }[] = [
  { slot: 0, outcome: ORDINARY_OUTCOME },
  { slot: 1, outcome: ORDINARY_OUTCOME },
  { number: FAILING_NUMBER, outcome: MAGIC_OUTCOMES[FAILING_NUMBER]! },
  { number: UNANSWERED_NUMBER, outcome: MAGIC_OUTCOMES[UNANSWERED_NUMBER]! },
];

const CODE_LENGTH = 10; // so that the wrong code below is all but certainly wrong
const WRONG_CODE = '0'.repeat(CODE_LENGTH);

interface V extends ModelVerification {
  /** Saved name of the verification id. */
  name: string;
  seq: number;
  dest: number;
  /** An earlier step's outcome rested on one of the simulator's choices. */
  simOnly: boolean;
}

interface Model {
  now: number;
  vs: V[];
  made: number;
  codes: number;
}

interface Real {
  c: CaseContext;
}

async function step(real: Real, raw: RawStep): Promise<void> {
  const r = await real.c.exec(raw);
  // The model judges its own expectations; checks and probes on these responses are the scenarios' job.
  const why = r.assertions.find((a) => a.outcome === 'fail' && a.id.startsWith('expect'));
  if (why) throw new Error(`${r.name}: ${why.id}: ${why.message ?? ''}`);
}

/** Whether the spec alone fixes this verification's current status. */
function specLevel(m: Model, v: V): boolean {
  if (v.simOnly || v.status === 'failed') return false;
  if (v.status === 'pending') return v.delivered && m.now < v.expiresAt; // a failing delivery fails when the carrier says
  if (v.status === 'expired') return v.delivered && m.now > v.expiresAt; // "once ttlSeconds have elapsed"
  return true;
}

const levelKey = (spec: boolean) => (spec ? 'expect' : 'expectSim');

/** Whether the phone holds the code (ordinary phones only; magic numbers are shared by every run). */
function codeKnown(m: Model, v: V): boolean {
  return DESTINATIONS[v.dest]!.slot !== undefined && codeArrived(v, m.now);
}

function view(v: V): Record<string, unknown> {
  return { verificationId: `{{ ${v.name} }}`, status: v.status, remainingAttempts: v.remaining, verifiedAt: v.status === 'verified' ? { $type: 'datetime' } : null };
}

function clausesOf(v: V): string[] {
  const byStatus: Partial<Record<Status, string>> = {
    verified: 'verification.transition.pending-to-verified',
    expired: 'verification.transition.pending-to-expired',
    max_attempts: 'verification.transition.pending-to-max-attempts',
    canceled: 'verification.transition.pending-to-canceled',
    failed: 'verification.transition.pending-to-failed',
  };
  return ['verification.field.remaining-attempts', 'verification.field.verified-at', ...(byStatus[v.status] ? [byStatus[v.status]!] : [])];
}

/** Reads the verification back: after a refusal this shows the refusal changed nothing. */
async function readBack(m: Model, real: Real, v: V, why: string): Promise<void> {
  await step(real, {
    name: `${why}: #${v.seq} is still ${v.status} with ${v.remaining} attempt(s)`,
    request: { operationId: 'getVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` } },
    [levelKey(specLevel(m, v))]: { status: 200, body: view(v) },
    clauses: clausesOf(v),
  });
}

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly dest: number,
    readonly channel: Channel,
    readonly ttl: number,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const d = DESTINATIONS[this.dest]!;
    const to = d.slot !== undefined ? real.c.number(d.slot) : d.number!;
    const outcome = d.outcome[this.channel];
    const v: V = { ...createVerification(m.now, to, this.channel, this.ttl, outcome), name: `v${m.made}`, seq: m.made, dest: this.dest, simOnly: false };
    await step(real, {
      name: this.toString(),
      request: { operationId: 'createVerification', as: 'vm', body: { to, channel: this.channel, codeLength: CODE_LENGTH, ttlSeconds: this.ttl } },
      expect: { body: { status: 'pending', channel: this.channel, to, remainingAttempts: MAX_ATTEMPTS, verifiedAt: null } },
      expectSim: { status: 201 },
      save: { [v.name]: 'body.verificationId' },
      clauses: ['verification.field.status', 'verification.field.channel', 'verification.field.remaining-attempts', 'verification.field.verified-at'],
    });
    m.made++;
    m.vs.push(v);
  }
  toString() {
    const d = DESTINATIONS[this.dest]!;
    return `create(${d.slot !== undefined ? `phone ${d.slot}` : d.number}, ${this.channel}, ttl ${this.ttl})`;
  }
}

class CreateRefused implements fc.AsyncCommand<Model, Real> {
  constructor(readonly abroad: boolean) {}
  check = () => true;
  async run(m: Model, real: Real) {
    await step(real, {
      name: this.toString(),
      request: { operationId: 'createVerification', as: 'vm', body: { to: this.abroad ? '+1 202 555 0100' : '010-123', codeLength: CODE_LENGTH } },
      expect: { status: 400, body: { code: this.abroad ? 'UNSUPPORTED_COUNTRY' : 'INVALID_PHONE_NUMBER' } },
      clauses: [this.abroad ? 'errors.400-unsupported-country' : 'errors.400-invalid-phone-number'],
    });
    // Nothing was created: the account still has exactly the model's verifications.
    await step(real, {
      name: 'the refusal created nothing',
      request: { operationId: 'listVerifications', as: 'vm', query: { pageSize: 100 } },
      expect: { status: 200, body: { data: m.vs.length ? { $length: m.vs.length, $each: { verificationId: { $oneOf: m.vs.map((v) => `{{ ${v.name} }}`) } } } : { $length: 0 } } },
      clauses: ['verification.list.envelope'],
    });
  }
  toString() {
    return `create refused (${this.abroad ? 'abroad' : 'not a number'})`;
  }
}

type CodeKind = 'right' | 'wrong' | 'malformed';

class Check implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly kind: CodeKind,
    readonly times: number,
  ) {}
  /** The right code goes to a verification whose phone has it; a wrong one preferably to a pending one. */
  private target(m: Readonly<Model>): V | undefined {
    const known = m.vs.filter((v) => codeKnown(m as Model, v));
    const pending = m.vs.filter((v) => v.status === 'pending');
    const pool = this.kind === 'right' ? known : this.kind === 'wrong' && pending.length ? pending : m.vs;
    return pool.length ? pool[this.index % pool.length] : undefined;
  }
  check = (m: Readonly<Model>) => this.target(m) !== undefined;
  async run(m: Model, real: Real) {
    const v = this.target(m)!;
    for (let i = 0; i < (this.kind === 'wrong' ? this.times : 1); i++) await this.once(m, real, v);
  }
  private async once(m: Model, real: Real, v: V) {
    let code = this.kind === 'wrong' ? WRONG_CODE : '12';
    if (this.kind === 'right') {
      const entries = v.channel === 'sms' ? 'messages' : 'calls';
      // The phone lists what it received newest first; texts (and calls) all take the same time, so in order of creation.
      const received = m.vs.filter((x) => x.to === v.to && x.channel === v.channel && codeKnown(m, x)).sort((a, b) => b.seq - a.seq);
      const at = received.indexOf(v);
      const codeName = `code${m.codes++}`;
      await step(real, {
        name: `read the code of #${v.seq} from the phone`,
        control: { method: 'GET', path: `/carrier/phones/${v.to}` },
        expectSim: { body: { [entries]: { $length: received.length } } },
        save: { [codeName]: `body.${entries}[${at}].code` },
        secrets: [codeName],
      });
      code = `{{ ${codeName} }}`;
    }
    const spec = specLevel(m, v);
    const pending = v.status === 'pending';
    const name = `check #${v.seq} with a ${this.kind} code`;
    if (!pending || this.kind === 'malformed') {
      // Refused: a finished verification (409), or a code that is not codeLength digits (400, no attempt used).
      await step(real, {
        name,
        request: { operationId: 'checkVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` }, body: { code } },
        expectSim: pending ? { status: 400, body: { code: 'invalid_code_format' } } : { status: 409, body: { code: 'verification_not_pending', status: v.status } },
        clauses: ['verification.field.remaining-attempts'],
      });
      await readBack(m, real, v, 'refused');
      return;
    }
    if (!spec) v.simOnly = true;
    // A sibling whose pending status was the simulator's choice stays sim-level once cancelled.
    const shaky = new Set(m.vs.filter((o) => o.status === 'pending' && !specLevel(m, o)));
    const siblings = checkVerification(m.vs, v, this.kind === 'right').siblings as V[];
    for (const s of siblings) if (shaky.has(s)) s.simOnly = true;
    await step(real, {
      name,
      request: { operationId: 'checkVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` }, body: { code } },
      [levelKey(spec)]: { status: 200, body: { status: v.status, remainingAttempts: v.remaining } },
      clauses: [...clausesOf(v), ...(v.status === 'max_attempts' ? ['limits.verification-attempts'] : [])],
    });
    // Another verification of the same number passing first cancels the pending ones.
    for (const s of siblings) await readBack(m, real, s, `#${v.seq} passed`);
  }
  toString() {
    return `check #${this.index} with a ${this.kind} code${this.kind === 'wrong' && this.times > 1 ? ` ${this.times} times` : ''}`;
  }
}

class Cancel implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.vs.length > 0;
  async run(m: Model, real: Real) {
    const v = m.vs[this.index % m.vs.length]!;
    const spec = specLevel(m, v);
    if (v.status !== 'pending') {
      await step(real, {
        name: this.toString(),
        request: { operationId: 'cancelVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` } },
        expectSim: { status: 409, body: { code: 'verification_not_pending', status: v.status } },
        clauses: clausesOf(v),
      });
      await readBack(m, real, v, 'refused');
      return;
    }
    if (!spec) v.simOnly = true;
    cancelVerification(v);
    await step(real, {
      name: this.toString(),
      request: { operationId: 'cancelVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` } },
      [levelKey(spec)]: { body: view(v) },
      expectSim: { status: 200 },
      clauses: clausesOf(v),
    });
  }
  toString() {
    return `cancel #${this.index}`;
  }
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, real: Real) {
    m.now += this.seconds;
    advanceVerifications(m.vs, m.now);
    await step(real, { name: this.toString(), control: { advance: { seconds: this.seconds } } });
  }
  toString() {
    return `advance ${this.seconds} s`;
  }
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.vs.length > 0;
  async run(m: Model, real: Real) {
    const v = m.vs[this.index % m.vs.length]!;
    await step(real, {
      name: this.toString(),
      request: { operationId: 'getVerification', as: 'vm', params: { verificationId: `{{ ${v.name} }}` } },
      [levelKey(specLevel(m, v))]: { status: 200, body: view(v) },
      clauses: clausesOf(v),
    });
  }
  toString() {
    return `get #${this.index}`;
  }
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly slot: number,
    readonly status: Status | undefined,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const to = real.c.number(this.slot);
    const ofNumber = m.vs.filter((v) => v.to === to);
    const rows = ofNumber.filter((v) => this.status === undefined || v.status === this.status);
    const query: Record<string, unknown> = { to, pageSize: 100 };
    if (this.status) query.status = this.status;
    await step(real, {
      name: this.toString(),
      request: { operationId: 'listVerifications', as: 'vm', query },
      // Which rows a status selects is the spec's only when every status of the number is.
      [levelKey(ofNumber.every((v) => specLevel(m, v)))]: {
        status: 200,
        body: { data: rows.length ? { $length: rows.length, $each: { verificationId: { $oneOf: rows.map((v) => `{{ ${v.name} }}`) }, to } } : { $length: 0 } },
      },
      clauses: ['verification.list.to-filter', ...(this.status ? ['verification.list.status-filter'] : [])],
    });
  }
  toString() {
    return `list phone ${this.slot}${this.status ? ` with status ${this.status}` : ''}`;
  }
}

const index = fc.nat(20);
// Phone 0 most often, so that a number often has several verifications (and siblings get cancelled).
const create = fc
  .tuple(fc.constantFrom(0, 0, 0, 1, 2, 3), fc.constantFrom<Channel>('sms', 'call'), fc.constantFrom(60, 120))
  .map(([d, ch, ttl]) => new Create(d, ch, ttl));
const check = fc
  .tuple(index, fc.constantFrom<CodeKind>('right', 'right', 'wrong', 'wrong', 'malformed'), fc.constantFrom(1, 1, 2, 5))
  .map(([i, k, n]) => new Check(i, k, n));
const advance = fc.constantFrom(1, 2, 2, 3, 5, 5, 25, 30, 60).map((s) => new Advance(s));
// Repeated entries weigh the draw toward what moves the machine: creating, checking, time.
const commands = [
  create,
  create,
  check,
  check,
  check,
  advance,
  advance,
  fc.boolean().map((abroad) => new CreateRefused(abroad)),
  index.map((i) => new Cancel(i)),
  index.map((i) => new Get(i)),
  fc.tuple(fc.integer({ min: 0, max: 1 }), fc.option(fc.constantFrom<Status>('pending', 'verified', 'expired', 'max_attempts', 'canceled', 'failed'), { nil: undefined })).map(([s, st]) => new List(s, st)),
];

export const verificationModel: PropertyDef = generatedProperty({
  id: 'verifications-model',
  description: 'random sequences of create, check, cancel and clock moves agree with a model of the verification state machine; refusals change nothing',
  clauses: [
    'verification.transition.pending-to-verified',
    'verification.transition.pending-to-expired',
    'verification.transition.pending-to-max-attempts',
    'verification.transition.pending-to-canceled',
    'verification.field.remaining-attempts',
    'limits.verification-attempts',
  ],
  tags: ['verifications', 'stateful', 'property'],
  requires: ['writes', 'accounts', 'carrier', 'clock'],
  level: 'spec',
  numRuns: 50,
  arbitrary: fc.commands(commands, { maxCommands: 20, size: 'max' }),
  drive: async (cmds, c) => {
    await c.exec({ name: 'a fresh account', control: { createAccount: { numbers: 1 }, as: 'vm' } });
    await fc.asyncModelRun(() => ({ model: { now: 0, vs: [], made: 0, codes: 0 }, real: { c } }), cmds);
    return undefined;
  },
});
