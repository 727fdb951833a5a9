// Model-based test of the assignment-link state table (spec "States and transitions / Assignment
// link") and single use: fast-check runs random sequences of create, clock moves, revoke,
// finalize (the end user's whole session through the fake identity provider) and get in a fresh
// account with the add-on, against a model; after each refusal the link is read back unchanged,
// and the account's numbers always equal the consumed links (one number per consumed link).
//
// Levels: states that follow from the actions (pending, consumed, revoked, expired once the TTL
// has clearly passed), 409 NOT_PENDING and the number count are the spec's. Expiry at exactly
// createdAt + ttlSeconds, the session operations' statuses and codes are the simulator's.
import fc from 'fast-check';
import { generatedProperty, type CaseContext, type RawStep } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Status = 'pending' | 'consumed' | 'expired' | 'revoked';

interface Link {
  name: string; // saved name of the token
  seq: number;
  status: Status;
  expiresAt: number; // seconds since the case began
}

interface Model {
  now: number;
  links: Link[];
  made: number;
}

interface Real {
  c: CaseContext;
}

const CONSENTS = ['management.terms', 'management.account', 'management.privacy', 'management.thirdParty'].map((clauseKey) => ({ clauseKey, agreed: true }));

async function step(real: Real, raw: RawStep): Promise<void> {
  const r = await real.c.exec(raw);
  // The model judges its own expectations; checks and probes on these responses are the scenarios' job.
  const why = r.assertions.find((a) => a.outcome === 'fail' && a.id.startsWith('expect'));
  if (why) throw new Error(`${r.name}: ${why.id}: ${why.message ?? ''}`);
}

/** Whether the spec alone fixes the link's status now (a link read at its exact expiry instant is ours). */
function specLevel(m: Model, l: Link): boolean {
  return !(l.status === 'pending' && m.now >= l.expiresAt) && !(l.status === 'expired' && m.now === l.expiresAt);
}

const STATE_CLAUSES: Record<Status, string[]> = {
  pending: ['assignment-link.field.status'],
  consumed: ['assignment-link.transition.pending-to-consumed', 'assignment-link.transition.no-reuse'],
  expired: ['assignment-link.transition.pending-to-expired', 'assignment-link.transition.no-reuse'],
  revoked: ['assignment-link.transition.pending-to-revoked', 'assignment-link.transition.no-reuse'],
};

async function readBack(m: Model, real: Real, l: Link, why: string): Promise<void> {
  await step(real, {
    name: `${why}: link #${l.seq} is ${l.status}`,
    request: { operationId: 'getAssignmentLink', as: 'al', params: { linkId: `{{ ${l.name} }}` } },
    [specLevel(m, l) ? 'expect' : 'expectSim']: { status: 200, body: { linkId: `{{ ${l.name} }}`, status: l.status, assignment: l.status === 'consumed' ? { number: { $type: 'string' } } : null } },
    clauses: STATE_CLAUSES[l.status],
  });
}

/** One number per consumed link, never more (single use). */
async function numbersMatch(m: Model, real: Real): Promise<void> {
  const consumed = m.links.filter((l) => l.status === 'consumed').length;
  await step(real, {
    name: `the account holds ${consumed} number(s), one per consumed link`,
    request: { operationId: 'listNumbers', as: 'al' },
    expect: { status: 200, body: { data: { $length: consumed } } },
    clauses: ['assignment-link.single-use'],
  });
}

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ttl: number) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const l: Link = { name: `link${m.made}`, seq: m.made, status: 'pending', expiresAt: m.now + this.ttl };
    await step(real, {
      name: this.toString(),
      request: { operationId: 'createAssignmentLink', as: 'al', body: { ttlSeconds: this.ttl } },
      expect: { status: 201, body: { token: { $type: 'string' } } },
      save: { [l.name]: 'body.token' },
      clauses: ['assignment-link.create.response'],
    });
    m.made++;
    m.links.push(l);
  }
  toString() {
    return `create(ttl ${this.ttl})`;
  }
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(m: Model, real: Real) {
    m.now += this.seconds;
    for (const l of m.links) if (l.status === 'pending' && l.expiresAt <= m.now) l.status = 'expired';
    await step(real, { name: this.toString(), control: { advance: { seconds: this.seconds } } });
  }
  toString() {
    return `advance ${this.seconds} s`;
  }
}

class Revoke implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.links.length > 0;
  async run(m: Model, real: Real) {
    const l = m.links[this.index % m.links.length]!;
    const spec = specLevel(m, l);
    const request = { operationId: 'revokeAssignmentLink', as: 'al', params: { linkId: `{{ ${l.name} }}` } };
    if (l.status === 'pending') {
      l.status = 'revoked';
      await step(real, { name: this.toString(), request, [spec ? 'expect' : 'expectSim']: { status: { $gte: 200, $lt: 300 } }, clauses: ['assignment-link.transition.pending-to-revoked'] });
    } else {
      await step(real, { name: `${this} (${l.status})`, request, [spec ? 'expect' : 'expectSim']: { status: 409, body: { code: 'NOT_PENDING' } }, clauses: ['assignment-link.transition.delete-not-pending', 'errors.409-not-pending'] });
    }
    await readBack(m, real, l, this.toString());
  }
  toString() {
    return `revoke #${this.index}`;
  }
}

class Finalize implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.links.length > 0;
  async run(m: Model, real: Real) {
    const l = m.links[this.index % m.links.length]!;
    const token = { token: `{{ ${l.name} }}` };
    const session = (operationId: string, body?: unknown): RawStep => ({ operationId, as: 'none', params: token, ...(body ? { body } : {}) });
    if (l.status !== 'pending' || m.now >= l.expiresAt) {
      // Not pending (or at its expiry instant, when the clock job has run): the session refuses.
      const status = l.status === 'pending' ? 'expired' : l.status;
      if (l.status === 'pending') l.status = 'expired';
      await step(real, {
        name: `${this} (${status}): the session refuses`,
        request: session('setAssignmentSessionSubscriberType', { subscriberType: 'individual' }),
        expectSim: status === 'consumed' ? { status: 409, body: { code: 'ASSIGNMENT_SESSION_USED' } } : { status: 410, body: { code: 'ASSIGNMENT_SESSION_GONE', status } },
        clauses: ['assignment-link.transition.no-reuse', 'assignment-link.single-use'],
      });
      await readBack(m, real, l, this.toString());
      await numbersMatch(m, real);
      return;
    }
    const iv = `iv${l.seq}`;
    await step(real, { name: `${this}: subscriber type`, request: session('setAssignmentSessionSubscriberType', { subscriberType: 'individual' }), expectSim: { status: 200 } });
    await step(real, { name: `${this}: consents`, request: session('recordAssignmentSessionConsents', { items: CONSENTS }), expectSim: { status: 200 } });
    await step(real, { name: `${this}: start identity check`, request: session('startAssignmentSessionIdentityVerification'), expectSim: { status: 201 }, save: { [iv]: 'body.identityVerificationId' } });
    await step(real, { name: `${this}: the person verifies`, control: { method: 'POST', path: `/kyc/verifications/{{ ${iv} }}/complete`, body: { name: '홍길동', birthDate: '1990-01-01' } } });
    await step(real, { name: `${this}: resume`, request: session('resumeAssignmentSessionIdentityVerification'), expectSim: { status: 200 } });
    await step(real, { name: `${this}: finalize`, request: session('finalizeAssignmentSession'), expectSim: { status: 201 } });
    l.status = 'consumed';
    await readBack(m, real, l, this.toString());
    await numbersMatch(m, real);
  }
  toString() {
    return `finalize #${this.index}`;
  }
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.links.length > 0;
  async run(m: Model, real: Real) {
    await readBack(m, real, m.links[this.index % m.links.length]!, this.toString());
  }
  toString() {
    return `get #${this.index}`;
  }
}

const index = fc.nat(20);
const commands = [
  fc.constantFrom(60, 120, 300).map((t) => new Create(t)),
  fc.constantFrom(60, 120, 300).map((t) => new Create(t)),
  fc.constantFrom(30, 45, 61, 150).map((s) => new Advance(s)),
  index.map((i) => new Revoke(i)),
  index.map((i) => new Finalize(i)),
  index.map((i) => new Finalize(i)),
  index.map((i) => new Get(i)),
];

export const assignmentLinkModel: PropertyDef = generatedProperty({
  id: 'assignment-links-model',
  description: 'random sequences of create, expire, revoke and finalize agree with the assignment-link state table; a link issues at most one number',
  clauses: [
    'assignment-link.transition.pending-to-consumed',
    'assignment-link.transition.pending-to-expired',
    'assignment-link.transition.pending-to-revoked',
    'assignment-link.transition.delete-not-pending',
    'assignment-link.transition.no-reuse',
    'assignment-link.single-use',
  ],
  tags: ['assignment-links', 'stateful', 'property'],
  requires: ['writes', 'accounts', 'clock', 'kyc'],
  level: 'spec',
  numRuns: 25,
  arbitrary: fc.commands(commands, { maxCommands: 15, size: 'max' }),
  drive: async (cmds, c) => {
    await c.exec({ name: 'a fresh account with the add-on', control: { createAccount: { addons: ['external_assignment'], numbers: 0 }, as: 'al' } });
    await fc.asyncModelRun(() => ({ model: { now: 0, links: [], made: 0 }, real: { c } }), cmds);
    return undefined;
  },
});
