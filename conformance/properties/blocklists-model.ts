// Model-based test of the block lists (fast-check commands): random sequences of create, get,
// list, note update and release of blocked callers and recipients, checked against a model of
// what the spec says each list holds. One command per API action; `check` is pure, `run`
// builds the step with the model's expectations and runs it, `toString` is replayable.
import fc from 'fast-check';
import { generatedProperty, type CaseContext } from './harness.ts';
import type { PropertyDef } from './types.ts';

type Kind = 'caller' | 'recipient';
type Channel = 'call' | 'message';

interface Entry {
  /** Saved name of the entry's id in the generated scenario. */
  name: string;
  kind: Kind;
  slot: number;
  channel?: Channel;
  active: boolean;
  note: string | null;
}

interface Model {
  entries: Entry[];
  made: number;
}

interface Real {
  c: CaseContext;
}

const OPS = {
  caller: { create: 'createBlockedCaller', get: 'getBlockedCaller', list: 'listBlockedCallers', release: 'releaseBlockedCaller', param: 'blockedCallerId' },
  recipient: { create: 'createBlockedRecipient', get: 'getBlockedRecipient', list: 'listBlockedRecipients', release: 'releaseBlockedRecipient', param: 'blockId' },
} as const;

const SPELL = ['string', 'hyphens', 'intl'] as const;

async function step(real: Real, raw: Record<string, unknown>): Promise<void> {
  const r = await real.c.exec(raw);
  // The model judges its own expectations; checks and probes on these responses are the scenarios' job.
  const why = r.assertions.find((a) => a.outcome === 'fail' && a.id.startsWith('expect'));
  if (why) {
    throw new Error(`${r.name}: ${why?.id}: ${why?.message ?? ''}`);
  }
}

function activeFor(m: Model, kind: Kind, slot: number, channel?: Channel): Entry | undefined {
  return m.entries.find((e) => e.kind === kind && e.slot === slot && e.channel === channel && e.active);
}

function wire(e: Entry, real: Real): Record<string, unknown> {
  return { id: `{{ ${e.name} }}`, number: real.c.number(e.slot), active: e.active, note: e.note, ...(e.channel ? { channel: e.channel } : {}) };
}

class Create implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly slot: number,
    readonly spelling: (typeof SPELL)[number],
    readonly channel: Channel | undefined,
    readonly note: string | undefined,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const existing = activeFor(m, this.kind, this.slot, this.channel);
    const name = `e${m.made}`;
    const body: Record<string, unknown> = { number: `{{ n${this.slot} | ${this.spelling} }}` };
    if (this.channel) body.channel = this.channel;
    if (this.note !== undefined) body.note = this.note;
    const fresh: Entry = { name, kind: this.kind, slot: this.slot, channel: this.channel, active: true, note: this.note ? this.note : null };
    await step(real, {
      name: this.toString(),
      request: { operationId: OPS[this.kind].create, body },
      expect: existing ? { body: { number: real.c.number(this.slot), active: true } } : { body: { ...wire(fresh, real), id: { $type: 'string' }, unblockedAt: null } },
      // Registering an actively blocked number again returns that entry (the simulator's choice).
      expectSim: existing ? { status: 200, body: { id: `{{ ${existing.name} }}` } } : { status: 201 },
      save: { [name]: 'body.id' },
      clauses: this.kind === 'caller' ? ['blocked-caller.field.number', 'conventions.phone-normalization'] : ['conventions.phone-normalization'],
    });
    m.made++;
    if (!existing) m.entries.push(fresh);
    else existing.name = name;
  }
  toString() {
    return `create ${this.kind}(slot ${this.slot}, ${this.spelling}${this.channel ? `, ${this.channel}` : ''}${this.note !== undefined ? `, note ${JSON.stringify(this.note)}` : ''})`;
  }
}

class Get implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.entries.length > 0;
  async run(m: Model, real: Real) {
    const e = m.entries[this.index % m.entries.length]!;
    await step(real, {
      name: this.toString(),
      request: { operationId: OPS[e.kind].get, params: { [OPS[e.kind].param]: `{{ ${e.name} }}` } },
      expect: { status: 200, body: { ...wire(e, real), unblockedAt: e.active ? null : { $type: 'datetime' } } },
      clauses: e.kind === 'caller' ? ['blocked-caller.release.keeps-history', 'blocked-caller.get.released-entries'] : ['blocked-recipient.release.keeps-history'],
    });
  }
  toString() {
    return `get entry #${this.index}`;
  }
}

class Release implements fc.AsyncCommand<Model, Real> {
  constructor(readonly index: number) {}
  check = (m: Readonly<Model>) => m.entries.length > 0;
  async run(m: Model, real: Real) {
    const e = m.entries[this.index % m.entries.length]!;
    const wasActive = e.active;
    e.active = false;
    await step(real, {
      name: this.toString(),
      request: { operationId: OPS[e.kind].release, params: { [OPS[e.kind].param]: `{{ ${e.name} }}` } },
      expect: { body: { ...wire(e, real), unblockedAt: { $type: 'datetime' } } },
      expectSim: { status: 200 },
      ...(wasActive ? { save: { [`${e.name}_released`]: 'body.unblockedAt' } } : {}),
      clauses: [`blocked-${e.kind}.release.keeps-history`],
    });
  }
  toString() {
    return `release entry #${this.index}`;
  }
}

class List implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly kind: Kind,
    readonly slot: number,
    readonly status: 'active' | 'released' | 'all' | undefined,
  ) {}
  check = () => true;
  async run(m: Model, real: Real) {
    const status = this.status ?? 'active';
    const rows = m.entries.filter((e) => e.kind === this.kind && e.slot === this.slot && (status === 'all' || (status === 'active') === e.active));
    // The plain spelling: spellings are the subject of Create and the phone property, so a failure here is about the filters.
    const query: Record<string, unknown> = { number: `{{ n${this.slot} }}` };
    if (this.status) query.status = this.status;
    await step(real, {
      name: this.toString(),
      request: { operationId: OPS[this.kind].list, query },
      // Listing recipients is not shown in the spec; its semantics follow the public API document.
      [this.kind === 'caller' ? 'expect' : 'expectSim']: {
        status: 200,
        body: { data: rows.length ? { $length: rows.length, $each: { id: { $oneOf: rows.map((e) => `{{ ${e.name} }}`) } } } : { $length: 0 } },
      },
      clauses: [
        ...(this.kind === 'caller' ? ['blocked-caller.list.number-filter', this.status ? 'blocked-caller.list.status-filter' : 'blocked-caller.list.status-default-active'] : []),
        ...(rows.some((e) => !e.active) ? [`blocked-${this.kind}.release.keeps-history`] : []),
      ],
    });
  }
  toString() {
    return `list ${this.kind}s(slot ${this.slot}, status ${this.status ?? '(default)'})`;
  }
}

class UpdateNote implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly index: number,
    readonly note: string | null | undefined,
  ) {}
  check = (m: Readonly<Model>) => m.entries.some((e) => e.kind === 'recipient');
  async run(m: Model, real: Real) {
    const recipients = m.entries.filter((e) => e.kind === 'recipient');
    const e = recipients[this.index % recipients.length]!;
    // null or "" clears the note; an omitted note leaves it (spec: blocked recipient update).
    if (this.note !== undefined) e.note = this.note === '' ? null : this.note;
    await step(real, {
      name: this.toString(),
      request: { operationId: 'updateBlockedRecipient', params: { blockId: `{{ ${e.name} }}` }, body: this.note === undefined ? {} : { note: this.note } },
      expect: { status: 200, body: wire(e, real) },
      clauses: [this.note === undefined ? 'blocked-recipient.update.note-omitted' : this.note === null || this.note === '' ? 'blocked-recipient.update.note-clear' : 'blocked-recipient.update.response'],
    });
  }
  toString() {
    return `update note of recipient #${this.index} to ${this.note === undefined ? '(omitted)' : JSON.stringify(this.note)}`;
  }
}

const slot = fc.integer({ min: 0, max: 2 });
const spelling = fc.constantFrom(...SPELL);
// An empty note on create is stored as null only by the simulator's choice, so creates send none or text.
const note = fc.option(fc.constantFrom('a', 'second note'), { nil: undefined });

const commands = [
  fc.tuple(slot, spelling, note).map(([s, sp, n]) => new Create('caller', s, sp, undefined, n)),
  fc.tuple(slot, spelling, fc.constantFrom<Channel>('call', 'message'), note).map(([s, sp, ch, n]) => new Create('recipient', s, sp, ch, n)),
  fc.nat(20).map((i) => new Get(i)),
  fc.nat(20).map((i) => new Release(i)),
  fc.tuple(fc.constantFrom<Kind>('caller', 'recipient'), slot, fc.option(fc.constantFrom('active' as const, 'released' as const, 'all' as const), { nil: undefined })).map(([k, s, st]) => new List(k, s, st)),
  fc.tuple(fc.nat(20), fc.option(fc.constantFrom<string | null>('kept', null, ''), { nil: undefined })).map(([i, n]) => new UpdateNote(i, n)),
];

export const blockListModel: PropertyDef = generatedProperty({
  id: 'blocklists-model',
  description: 'random sequences of block-list actions agree with a model: one active entry per number (and channel), releases keep history, filters and notes behave',
  clauses: ['blocked-caller.release.keeps-history', 'blocked-recipient.release.keeps-history', 'blocked-caller.list.number-filter', 'blocked-caller.list.status-filter', 'blocked-recipient.update.note-clear', 'blocked-recipient.update.note-omitted'],
  tags: ['blocklists', 'stateful', 'property'],
  requires: ['writes'],
  level: 'spec',
  numRuns: 25,
  // Blocks made in a fresh account leave the given accounts' lists as they were.
  ownAccount: { numbers: 0 },
  arbitrary: fc.commands(commands, { maxCommands: 14 }),
  drive: async (cmds, c) => {
    for (const s of [0, 1, 2]) c.set(`n${s}`, c.number(s));
    await fc.asyncModelRun(() => ({ model: { entries: [], made: 0 }, real: { c } }), cmds);
    return undefined;
  },
});
