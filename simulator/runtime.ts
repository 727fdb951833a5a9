// The simulator's whole state and machinery in one object, the composition root's: clock,
// seeded random, events, cross-resource references, and one model per entry of the list, built
// in the registry's construction order. Each family gets its scope (core/scope.ts): the kernel's
// parts, the ports it declared (each wired to what the entry of that key offers), its typed
// events and clock jobs; its route handlers get the same scope. A snapshot of it is plain JSON
// and restores exactly (DESIGN "Rules"); the runtime runs every entry's snapshot part,
// validating each before it restores.
import { Type, type TSchema } from '@sinclair/typebox';
import { VirtualClock, iso, parseInstant, type ClockSnapshot, type JobHandler } from './core/clock.ts';
import { SeededRandom, type RandomState } from './core/random.ts';
import { DomainEvents } from './core/events.ts';
import { References } from './core/refs.ts';
import { ApiError } from './core/errors.ts';
import { validate } from './core/schema.ts';
import type { Fixture } from './fixture/schema.ts';
import { manualDriver, type ClockDriver } from './core/realtime.ts';
import { IoBarrier } from './core/io.ts';
import type { LiveClock } from './core/live-clock.ts';
import { EgressGuard } from './peers/egress.ts';
import type { FakeDns } from './peers/dns/model.ts';
import { FakeMcpServers } from './peers/mcp/fake-servers.ts';
import { McpRunner } from './peers/mcp/runner.ts';
import { ClockAdvancer } from './core/advance.ts';
import { jsonCopy } from './core/json-copy.ts';
import { ReceiverPolicy } from './peers/webhooks/receiver-policy.ts';
import type { FamilyModels, RefKind } from './resources/index.ts';
import { registry, type Registry } from './registry.ts';
import { openApiJson } from './operations.ts';
import type { Entry } from './resources/family.ts';
import type { ListedNames } from './core/scope.ts';
import type { StatePart } from './core/table-state.ts';
import type { FixedControlScope } from './control-plane.ts';
import type { InspectorScope } from './web/inspector/routes.ts';

export const SNAPSHOT_FORMAT = 'platform-simulator-state';
/** 2: ended calls packed (core/packed-transfer.ts); 1, every call a row, still restores. */
export const SNAPSHOT_VERSION = 2;
const READABLE_VERSIONS: readonly number[] = [1, 2];

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  seed: number;
  clock: ClockSnapshot;
  random: RandomState;
  models: Record<string, unknown>;
}

const SnapshotEnvelope = Type.Object(
  {
    format: Type.Literal(SNAPSHOT_FORMAT),
    version: Type.Integer(),
    seed: Type.Integer({ minimum: 0 }),
    clock: Type.Object({
      now: Type.Number(),
      nextJobId: Type.Integer({ minimum: 1 }),
      jobs: Type.Array(
        Type.Object({ id: Type.Integer(), due: Type.Number(), seq: Type.Integer(), kind: Type.String(), payload: Type.Unknown() }),
      ),
    }),
    random: Type.Tuple([Type.Integer(), Type.Integer(), Type.Integer(), Type.Integer()]),
    models: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

/** One entry as built: its model and how its state is kept. */
interface Built {
  entry: Entry;
  /** Its model; built on first use when the entry has `wire` (`made` says whether it is yet). */
  model: unknown;
  made: boolean;
  /** Its key in a snapshot. */
  snapshotKey: string;
  /** Its declared snapshot part (none: it keeps no state). */
  part: StatePart<unknown> | undefined;
  /** The schema its part must match (built from the list's names when the part asks for them), at the first restore. */
  schema?: TSchema;
}

/** Each family's model as a typed field (`rt.numbers`), from the list in resources/index.ts. */
export interface Runtime extends FamilyModels {}

export class Runtime {
  readonly clock: VirtualClock;
  random: SeededRandom;
  seed: number;
  /** The seed the simulator started with; reset without a seed returns to it. */
  readonly initialSeed: number;
  readonly events = new DomainEvents();
  readonly refs = new References<RefKind>();
  /** Real I/O in flight to peers the user runs; the clock advance waits for it. */
  readonly io = new IoBarrier();
  readonly advancer: ClockAdvancer;
  /** Where the simulator may connect for customers (strict mode is an option, not state). */
  readonly egress = new EgressGuard(() => (this as unknown as { dns: FakeDns }).dns, this.io);
  /** Which URLs may receive webhooks (the egress guard's rules). */
  readonly receiverPolicy = new ReceiverPolicy(this.egress);
  /** Fake external MCP servers on loopback (live peers, not state). */
  readonly mcpServers = new FakeMcpServers();
  /** The call runtime's MCP client (connection tests); registered with the I/O barrier. */
  readonly mcpRunner = new McpRunner(this.egress, this.mcpServers, this.io);
  /** Manual by default; createSimulator installs the realtime driver when asked. */
  clockDriver: ClockDriver = manualDriver();
  /** Where defects of live sessions go (createSimulator sets its onDefect). */
  onDefect: (e: unknown) => void = (e) => console.error('[simulator defect]', e);
  /** The clock as live sessions need it (service port `liveClock`). */
  readonly liveClock: LiveClock = {
    mode: () => this.clockDriver.mode,
    sync: () => this.clockDriver.sync(),
    advanceBy: (ms) => void this.advancer.advance((now) => now + ms),
    defect: (e) => this.onDefect(e),
  };

  /** What /_sim/health lists (registry.ts). */
  readonly capabilities: readonly string[];
  /** Names only the whole list knows (the webhook event enum, the carrier owners). */
  readonly listed: ListedNames;
  /** The inspector's section scripts the entries contribute (registry.ts). */
  readonly inspectorSections: readonly string[];

  /** Entries in list order: the snapshot's key order and the fixture's loading order. */
  private readonly built: Built[];
  /** Every declared event, by name (listening to an undeclared one is a defect). */
  private readonly eventDecls: Registry['eventDecls'];
  /** Each house family's scope, by key: what its model was built from and its handlers see. */
  private readonly scopes = new Map<string, Record<string, unknown>>();
  /** Models being built on first use now (a use while building is a cycle, refused). */
  private readonly building = new Set<string>();

  /** What the list registers: its operations (the pipeline routes them), tags, events... (registry.ts). */
  readonly registry: Registry;

  /** `reg`: the registry of the list (tests hand in one of their own, a list without a family, say). */
  constructor(
    readonly fixture: Fixture,
    seed: number,
    reg: Registry = registry(),
  ) {
    this.registry = reg;
    this.seed = seed;
    this.initialSeed = seed;
    this.clock = new VirtualClock(parseInstant(fixture.clock.start)!);
    this.random = new SeededRandom(seed);
    this.capabilities = reg.capabilities;
    this.listed = reg.listed;
    this.inspectorSections = reg.inspectorSections;
    this.eventDecls = reg.eventDecls;
    this.advancer = new ClockAdvancer(this.clock, this.io);
    this.io.register(this.mcpRunner);
    // What each key offers to needs: the runtime's live I/O helpers, then every entry as it is built.
    const offered = new Map<string, unknown>([
      ['eventFeed', this.events],
      ['egress', this.egress],
      ['receiverPolicy', this.receiverPolicy],
      ['mcpServers', this.mcpServers],
      ['mcpRunner', this.mcpRunner],
      ['liveClock', this.liveClock],
    ]);
    const fields = this as unknown as Record<string, unknown>;
    const byKey = new Map<string, Built>();
    for (const entry of reg.constructionOrder) {
      const scope = this.scopeFor(entry, offered);
      this.scopes.set(entry.key, scope);
      const part = entry.state;
      const built: Built = { entry, model: undefined, made: false, snapshotKey: entry.snapshotKey ?? entry.key, part };
      byKey.set(entry.key, built);
      if (entry.wire) {
        // Built on first use (decisions.md "Models built on first use"): the field, the scope and the offer build it when read.
        const make = () => this.modelOf(built);
        for (const holder of [fields, scope]) Object.defineProperty(holder, entry.key, { get: make, configurable: true, enumerable: true });
        offered.set(entry.key, new FirstUse(() => (entry.offers ? entry.offers(make()) : make())));
        entry.wire(scope as never, make, () => (built.made ? built.model : undefined));
        continue;
      }
      const model = entry.create(scope as never);
      // Plain fields, not adopt()'s defineProperty: nothing was defined on these keys yet, and
      // about forty property definitions on the runtime were a measurable share of the first build.
      built.model = model;
      built.made = true;
      fields[entry.key] = model;
      scope[entry.key] = model;
      offered.set(entry.key, entry.offers ? entry.offers(model) : model);
    }
    this.built = reg.entries.map((f) => byKey.get(f.key)!);
    this.load(seed, false);
  }

  /** An entry's model, built now if it is built on first use and this is its first use. */
  private modelOf(b: Built): unknown {
    if (!b.made) {
      if (this.building.has(b.entry.key)) throw new Error(`family ${b.entry.key} is used while its model is built`);
      this.building.add(b.entry.key);
      try {
        this.adopt(b, b.entry.create(this.scopes.get(b.entry.key) as never));
      } finally {
        this.building.delete(b.entry.key);
      }
    }
    return b.model;
  }

  /** Records a built model: the runtime's field and its scope hold it from now on. */
  private adopt(b: Built, model: unknown): void {
    b.model = model;
    b.made = true;
    for (const holder of [this as unknown as Record<string, unknown>, this.scopes.get(b.entry.key)!]) {
      Object.defineProperty(holder, b.entry.key, { value: model, writable: true, configurable: true, enumerable: true });
    }
  }

  /** The model of `key` if it is built, without building it (closing what it holds at sim.close()). */
  builtModel<K extends keyof FamilyModels>(key: K): FamilyModels[K] | undefined {
    const b = this.built.find((x) => x.entry.key === key);
    return b?.made ? (b.model as FamilyModels[K]) : undefined;
  }

  /** The scope a family's route handlers see (its model's scope plus the model). */
  scopeOf(key: string): unknown {
    const scope = this.scopes.get(key);
    if (!scope) throw new Error(`no family "${key}" in the list`);
    return scope;
  }

  /** The OpenAPI document as JSON text (GET /openapi.json). */
  openApiJson(): string {
    return openApiJson();
  }

  /** A family's scope: kernel parts, its declared ports, its typed events and jobs. */
  private scopeFor(entry: Entry, offered: ReadonlyMap<string, unknown>): Record<string, unknown> {
    const rt = this;
    const declaredEvents = entry.events ?? {};
    const declaredJobs = entry.jobs ?? {};
    const scope: Record<string, unknown> = {
      clock: this.clock,
      get random() {
        return rt.random; // a reset replaces it
      },
      get seed() {
        return rt.seed; // so does a reset with another seed
      },
      refs: this.refs,
      io: this.io,
      listed: this.listed,
      events: {
        emit: (type: string, e: { accountId: string; resourceId: string; payload: Record<string, unknown>; at?: number }) => {
          const decl = declaredEvents[type];
          if (!decl) throw new Error(`family ${entry.key} emits "${type}", which its descriptor does not declare`);
          this.events.emit({ type, accountId: e.accountId, resourceId: e.resourceId, at: e.at ?? this.clock.now(), payload: e.payload }, decl.internal === true);
        },
        on: (type: string, listener: (event: never) => void) => {
          if (!this.eventDecls.has(type)) throw new Error(`family ${entry.key} listens to "${type}", which no family declares`);
          return this.events.on(type, listener as never);
        },
      },
      jobs: {
        on: (kind: string, handler: JobHandler) => {
          const schema = declaredJobs[kind];
          if (!schema) throw new Error(`family ${entry.key} handles job kind "${kind}", which its descriptor does not declare`);
          this.clock.on(kind, handler, (payload, path) => validate(schema, payload, 'snapshot', path));
        },
        schedule: (kind: string, due: number, payload: unknown) => this.clock.schedule(kind, due, payload),
        cancel: (jobId: number) => this.clock.cancel(jobId),
      },
    };
    for (const need of Object.keys(entry.needs)) {
      const offer = offered.get(need);
      if (offer instanceof FirstUse) Object.defineProperty(scope, need, { get: offer.get, configurable: true, enumerable: true });
      else scope[need] = offer;
    }
    return scope;
  }

  /** Back to the fixture's state, optionally with another seed. */
  reset(seed: number = this.seed): void {
    this.load(seed, true);
  }

  /**
   * The fixture loaded into the models, cleared first unless they were just built (a model fresh
   * from `create` is as empty as a cleared one, which a test checks; clearing them again was
   * about a fifth of building the runtime).
   */
  private load(seed: number, clear: boolean): void {
    this.seed = seed;
    this.random = new SeededRandom(seed);
    this.clock.restore({ now: parseInstant(this.fixture.clock.start)!, nextJobId: 1, jobs: [] });
    // In list order: loading draws ids from the seeded random, so the order is part of the state.
    // A model not built yet is as empty as a cleared one; it is built here only when the fixture holds data for it.
    for (const b of this.built) {
      const load = b.entry.fixture?.load;
      if (!b.made && !(load && (b.entry.fixture!.holds?.(this.fixture) ?? true))) continue;
      if (clear && b.made) b.part?.clear(b.model);
      load?.(this.modelOf(b), this.fixture);
    }
    this.clockDriver.rebase();
  }

  /** The entries that keep state, with their snapshot keys, in list order. */
  private stateful(): Built[] {
    return this.built.filter((b) => b.part !== undefined);
  }

  snapshot(): Snapshot {
    const models: Record<string, unknown> = {};
    // As a round trip through JSON, so the snapshot shares nothing with live state (json-copy.ts:
    // member by member, a million calls being longer than a string can be), unless the part's
    // snapshot is such a copy already (StatePart.snapshotsCopy).
    for (const b of this.stateful()) {
      const part = b.part!.snapshot(this.modelOf(b));
      if (part !== undefined) models[b.snapshotKey] = b.part!.snapshotsCopy ? part : jsonCopy(part, 2);
    }
    return {
      format: SNAPSHOT_FORMAT,
      version: SNAPSHOT_VERSION,
      seed: this.seed,
      clock: jsonCopy(this.clock.snapshot()),
      random: jsonCopy(this.random.state()),
      models,
    } as Snapshot;
  }

  /** Live work no snapshot can hold (StatePart.live), each described; empty when a snapshot is the whole truth. */
  liveWork(): string[] {
    return this.stateful().flatMap((b) => (b.made ? (b.part!.live?.(b.model) ?? []) : [])); // a model not built has no live work
  }

  /** Replaces all state with the snapshot; on any error the previous state stays. */
  restore(snapshot: unknown): void {
    validate(SnapshotEnvelope, snapshot, 'snapshot');
    const s = snapshot as Snapshot;
    if (!READABLE_VERSIONS.includes(s.version)) {
      throw ApiError.validation(`snapshot version ${s.version} is not supported (expected ${READABLE_VERSIONS.join(' or ')})`);
    }
    const parts = this.stateful();
    for (const { snapshotKey: name } of parts) {
      if (!(name in s.models)) throw ApiError.validation(`snapshot has no "${name}" state`, [{ path: `models.${name}`, message: 'is required' }]);
    }
    const unknown = Object.keys(s.models).filter((k) => !parts.some((b) => b.snapshotKey === k));
    if (unknown.length > 0) throw ApiError.validation(`snapshot has unknown state "${unknown[0]}"`, [{ path: `models.${unknown[0]}`, message: 'is not a known field' }]);
    const undo = this.checkpoint();
    try {
      // A copy of each part (restored state shares nothing with the caller's), but for a part
      // whose restore copies what it keeps.
      for (const b of parts) {
        const state = s.models[b.snapshotKey];
        const schema = (b.schema ??= typeof b.part!.schema === 'function' ? b.part!.schema(this.listed) : b.part!.schema);
        validate(schema, state, `snapshot ${b.snapshotKey}`, b.snapshotKey);
        b.part!.restore(this.modelOf(b), b.part!.copiesInput ? state : structuredClone(state), 'replace');
      }
      this.clock.restore(structuredClone(s.clock));
      this.random = new SeededRandom(structuredClone(s.random));
      this.seed = s.seed;
      this.clockDriver.rebase();
    } catch (e) {
      undo();
      throw e;
    }
  }

  /**
   * What is there now, put back by the function it answers (a restore that fails part way): a
   * part that can hold its objects does (no export of a million packed calls), the others keep a
   * copy of their snapshot.
   */
  private checkpoint(): () => void {
    const parts = this.stateful();
    const undo = parts.map((b) => {
      // A model not built yet is empty: if the operation builds it, undoing clears it (decisions.md "Models built on first use").
      if (!b.made) return () => void (b.made && b.part!.clear(b.model));
      if (b.part!.hold) return b.part!.hold(b.model);
      const saved = jsonCopy(b.part!.snapshot(b.model), 2);
      return () => b.part!.restore(b.model, saved, 'rollback'); // the state of a moment ago: live work that remains stays
    });
    const before = { clock: jsonCopy(this.clock.snapshot()), random: jsonCopy(this.random.state()), seed: this.seed };
    return () => {
      for (const put of undo) put();
      this.clock.restore(before.clock);
      this.random = new SeededRandom(before.random);
      this.seed = before.seed;
      this.clockDriver.rebase();
    };
  }

  nowIso(): string {
    return iso(this.clock.now());
  }
}

/** An offer of a model built on first use: a need on it reads it through `get`. */
class FirstUse {
  constructor(readonly get: () => unknown) {}
}

/** The scope of the kernel's own operations (fixed control plane, inspector): the runtime, which the compiler checks offers what they declare. */
export function rootScope(rt: Runtime): FixedControlScope & InspectorScope {
  return rt;
}
